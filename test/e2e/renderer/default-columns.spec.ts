// Each list's usual columns on a 1366×768 laptop with the sidebar open: the cell that names the
// row, its status, the date that matters and the customer, all in view with no sideways scroll,
// in light and dark. A 1920 px screen shows more; the window narrowed again shows fewer; columns
// the forwarder chose stay as chosen at any width. Screenshots of each.
import type { Page } from '@playwright/test';

import { expect, expectRowsLoaded, test, waitForFirstSync } from '../fixtures';

const lists = [
  { view: 'containers', title: 'Containers', headers: ['Container', 'Status', 'Last free day', 'Customer'] },
  { view: 'shipments', title: 'Shipments', headers: ['Bill of lading', 'ETA', 'Customer'] },
  { view: 'tracking-requests', title: 'Tracking requests', headers: ['Number', 'Status', 'Created', 'Customer'] },
  { view: 'email-submissions', title: 'Email submissions', headers: ['Subject', 'Status', 'Sent'] },
] as const;

const keysOf = (page: Page, title: string) =>
  page
    .getByRole('grid', { name: title })
    .getByRole('columnheader')
    .evaluateAll((hs) => hs.map((h) => h.getAttribute('data-key')));

/** Opens a list from the sidebar's link and waits for its rows. */
async function open(page: Page, url: string, view: string, title: string) {
  await page.goto(`${url}#/${view}?from=menu`);
  const grid = page.getByRole('grid', { name: title });
  await expectRowsLoaded(grid);
  return grid;
}

/** How far the grid's columns reach past its inside (0 or less: no sideways scroll). */
const overflow = (grid: ReturnType<Page['getByRole']>) => grid.evaluate((g) => g.scrollWidth - g.clientWidth);

/** The headers whose name does not show whole. */
const cutHeaders = (grid: ReturnType<Page['getByRole']>) =>
  grid.getByRole('columnheader').evaluateAll((hs) =>
    hs
      .filter((h) => {
        const range = document.createRange();
        range.selectNodeContents(h.querySelector('button, .plain')!.firstChild!);
        return range.getBoundingClientRect().right > h.getBoundingClientRect().right;
      })
      .map((h) => h.textContent),
  );

test('at 1366×768 every list’s usual columns fit: name, status, date and customer in view, light and dark', async ({
  page,
  host,
}, testInfo) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await waitForFirstSync(host);
  for (const theme of ['light', 'dark'] as const) {
    if (theme === 'dark') {
      await host.core.handlers['settings:update']({ theme: 'dark' });
    }
    for (const { view, title, headers } of lists) {
      const grid = await open(page, host.url, view, title);
      if (theme === 'dark') await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeInViewport();
      expect(await overflow(grid), `${title}: no sideways scroll`).toBeLessThanOrEqual(0);
      for (const name of headers) {
        await expect(grid.getByRole('columnheader', { name, exact: true }), `${title}: ${name}`).toBeInViewport({
          ratio: 1,
        });
      }
      expect(await cutHeaders(grid), `${title}: headers cut`).toEqual([]);
      await page.screenshot({ path: testInfo.outputPath(`${view}-1366-${theme}.png`) });
    }
  }
});

test('a wider screen shows more columns, a narrower one fewer; columns chosen stay at any width', async ({
  page,
  host,
}, testInfo) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await waitForFirstSync(host);
  const laptop: Record<string, (string | null)[]> = {};
  for (const { view, title } of lists) {
    await open(page, host.url, view, title);
    laptop[view] = await keysOf(page, title);
  }

  await page.setViewportSize({ width: 1920, height: 1080 });
  for (const { view, title } of lists) {
    const grid = await open(page, host.url, view, title);
    const wide = await keysOf(page, title);
    expect(wide, `${title}: at least the laptop's columns`).toEqual(expect.arrayContaining(laptop[view]!));
    // The email submissions show all they have already at 1366.
    if (view !== 'email-submissions') expect(wide.length, title).toBeGreaterThan(laptop[view]!.length);
    expect(await overflow(grid), `${title}: no sideways scroll at 1920`).toBeLessThanOrEqual(0);
    expect(await cutHeaders(grid), `${title}: headers cut at 1920`).toEqual([]);
  }
  // The containers show where the box is going and when it gets there.
  const grid = await open(page, host.url, 'containers', 'Containers');
  for (const name of ['Bill of lading', 'Port of discharge', 'ETA']) {
    await expect(grid.getByRole('columnheader', { name, exact: true })).toBeInViewport({ ratio: 1 });
  }
  await page.screenshot({ path: testInfo.outputPath('containers-1920.png') });

  // The window narrowed to a laptop's: back to the laptop's columns, still no sideways scroll.
  await page.setViewportSize({ width: 1366, height: 768 });
  await expect.poll(() => keysOf(page, 'Containers')).toEqual(laptop.containers);
  expect(await overflow(grid)).toBeLessThanOrEqual(0);

  // The forwarder hides Holds and shows Vessel: that choice holds at 1920 too, and after a restart.
  await page.getByRole('button', { name: 'Columns' }).click();
  const panel = page.getByRole('dialog', { name: 'Choose columns' });
  await panel.getByRole('checkbox', { name: 'Holds' }).uncheck();
  await panel.getByRole('checkbox', { name: 'Vessel' }).check();
  await page.keyboard.press('Escape');
  const chosen = [...laptop.containers!.filter((k) => k !== 'holds'), 'vessel'];
  await expect.poll(() => keysOf(page, 'Containers')).toEqual(chosen);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.reload();
  await expectRowsLoaded(grid);
  await expect.poll(() => keysOf(page, 'Containers')).toEqual(chosen);
  await page.screenshot({ path: testInfo.outputPath('containers-1920-chosen.png') });

  // "Back to the usual columns" gives the width's defaults again.
  await page.getByRole('button', { name: 'Columns' }).click();
  await panel.getByRole('button', { name: 'Back to the usual columns and widths' }).click();
  await expect.poll(async () => (await keysOf(page, 'Containers')).length).toBeGreaterThan(laptop.containers!.length);
  await expect(grid.getByRole('columnheader', { name: 'ETA', exact: true })).toBeInViewport({ ratio: 1 });
});
