/**
 * The containers list's Stage filter as a forwarder uses it at 1366×768: "Not picked up yet" is
 * one choice (not the four statuses it means ticked one by one); the chip reads the stage, the
 * count and the rows are the core's for the stage, every row shown is at one of its statuses,
 * and a view saved with it keeps the stage by name. Screenshots in light and dark; axe on the
 * open filter.
 */
import type { Page } from '@playwright/test';
import { containerStatusLabels, statusGroupMembers } from '../../../src/shared/status';
import type { ContainerFilters } from '../../../src/shared/views';
import { expect, expectRowsLoaded, seriousViolations, test, waitForFirstSync } from '../fixtures';

const NAME = 'Waiting at the port';

/** Each rendered row's container number and status, in row order. */
async function shownRows(page: Page): Promise<{ number: string; status: string }[]> {
  const rows = page.getByRole('grid', { name: 'Containers' }).locator('[role="row"][data-index]');
  return rows.evaluateAll((elements) =>
    elements
      .map((row) => {
        const cells = [...row.querySelectorAll('[role="gridcell"]')].map((c) => c.textContent?.trim() ?? '');
        return { index: Number(row.getAttribute('data-index')), number: cells[0] ?? '', status: cells[1] ?? '' };
      })
      .sort((a, b) => a.index - b.index)
      .map(({ number, status }) => ({ number, status })),
  );
}

test('Stage: "Not picked up yet" in one choice, counted and listed as the core lists it, kept by name in a saved view', async ({
  page,
  host,
}, testInfo) => {
  test.setTimeout(120_000);
  await waitForFirstSync(host);
  const shot = (name: string) => page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
  const filters: ContainerFilters = { statusGroups: ['not_picked_up'] };
  const all = await host.core.handlers['containers:count']({ filters: {} });
  const waiting = await host.core.handlers['containers:count']({ filters });
  expect(waiting, 'the demo world has boxes not picked up yet').toBeGreaterThan(0);
  expect(waiting, 'and boxes at other stages').toBeLessThan(all);

  await page.goto(`${host.url}#/containers`);
  const grid = page.getByRole('grid', { name: 'Containers' });
  await expectRowsLoaded(grid);
  const shown = page.getByRole('status', { name: 'Row count' });
  await expect(shown).toHaveText(`${all.toLocaleString('en-US')} containers`);

  // + Filter → Stage: the stages a forwarder thinks in, one choice each.
  await page.getByRole('button', { name: '+ Filter' }).click();
  await page.getByRole('menu', { name: 'Add a filter' }).getByRole('menuitem', { name: 'Stage', exact: true }).click();
  const editor = page.getByRole('dialog', { name: 'Filter: Stage' });
  await expect(editor.getByRole('listitem')).toHaveText([
    'Not picked up yet',
    'At sea',
    'At port',
    'Picked up',
    'Returned',
  ]);
  await shot('stage-choices-light');
  expect(await seriousViolations(page), 'the open Stage filter').toEqual([]);

  // The one action.
  await editor.getByRole('checkbox', { name: 'Not picked up yet' }).check();
  await expect(page.getByRole('button', { name: 'Stage: Not picked up yet' })).toBeVisible();
  await expect(shown).toHaveText(`${waiting.toLocaleString('en-US')} of ${all.toLocaleString('en-US')} containers`);
  await editor.getByRole('button', { name: 'Done' }).click();
  await expect(editor).toBeHidden();
  await expectRowsLoaded(grid);

  // The rows are the core's first page for the stage, in the list's order, each at one of its statuses.
  const rows = await shownRows(page);
  const core = await host.core.handlers['containers:list']({
    filters,
    sort: { field: 'last_free_day', direction: 'asc' },
    page: { limit: rows.length },
  });
  expect(rows.map((r) => r.number)).toEqual(core.rows.map((r) => r.number));
  const labels = statusGroupMembers.not_picked_up.map((s) => containerStatusLabels[s]);
  for (const row of rows) expect(labels, `${row.number}'s status`).toContain(row.status);
  await shot('not-picked-up-light');

  await host.core.handlers['settings:update']({ theme: 'dark' });
  await expect(page.locator('html[data-theme=dark]')).toBeAttached();
  await shot('not-picked-up-dark');
  await page.getByRole('button', { name: 'Stage: Not picked up yet' }).click();
  await expect(editor.getByRole('checkbox', { name: 'Not picked up yet' })).toBeChecked();
  await shot('stage-choices-dark');
  expect(await seriousViolations(page), 'the open Stage filter, dark').toEqual([]);
  await editor.getByRole('button', { name: 'Done' }).click();

  // Saved, the view keeps the stage by name, not the statuses it means today.
  await page.getByRole('button', { name: 'Save view…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save view' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(NAME);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  const stored = await page.evaluate(() =>
    Object.keys(localStorage)
      .filter((key) => key.startsWith('quayside:views:'))
      .flatMap(
        (key) => (JSON.parse(localStorage.getItem(key)!) as { views: { name: string; filters: unknown }[] }).views,
      ),
  );
  expect(stored.find((v) => v.name === NAME)?.filters).toEqual(filters);
});
