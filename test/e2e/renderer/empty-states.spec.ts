/**
 * An empty list at 1366×768 says what matched nothing and gives the rows back in one step: a
 * search that matches no container names the search and clears it (by keyboard); a status and a
 * carrier that match nothing together name both, and "Remove Carrier" (the filter that emptied the
 * list, counted without it) brings the status's boxes back. Screenshots in light and dark; axe on
 * the empty state.
 */
import { containerStatuses } from '../../../src/shared/status';
import type { ContainerFilters } from '../../../src/shared/views';
import { expect, expectRowsLoaded, seriousViolations, test, waitForFirstSync } from '../fixtures';

test('a search that matches nothing says so, and its button clears it', async ({ page, host }, testInfo) => {
  await waitForFirstSync(host);
  const all = await host.core.handlers['containers:count']({ filters: {} });
  await page.goto(`${host.url}#/containers`);
  const grid = page.getByRole('grid', { name: 'Containers' });
  await expectRowsLoaded(grid);
  const shown = page.getByRole('status', { name: 'Row count' });
  await expect(shown).toHaveText(`${all.toLocaleString('en-US')} containers`);

  await page.getByRole('searchbox', { name: 'Search containers' }).fill('QQNOTHING');
  const empty = page.getByRole('status').filter({ hasText: 'No containers match “QQNOTHING”.' });
  await expect(empty).toBeVisible();
  await expect(grid).toBeHidden();
  const clear = empty.getByRole('button', { name: `Clear the search (${all.toLocaleString('en-US')} containers)` });
  await expect(clear).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('search-empty-light.png') });
  expect(await seriousViolations(page), 'the empty list').toEqual([]);

  // By keyboard: the button takes the focus and Enter presses it.
  await clear.focus();
  await page.keyboard.press('Enter');
  await expectRowsLoaded(grid);
  await expect(shown).toHaveText(`${all.toLocaleString('en-US')} containers`);
  await expect(page.getByRole('searchbox', { name: 'Search containers' })).toHaveValue('');
});

test('a status and a carrier that match nothing together: Remove Carrier brings the boxes back', async ({
  page,
  host,
}, testInfo) => {
  await waitForFirstSync(host);
  const count = (filters: ContainerFilters) => host.core.handlers['containers:count']({ filters });
  const all = await count({});
  const options = await host.core.handlers['filters:options'](undefined);
  // A status with boxes and a carrier with boxes, none of them both.
  let pair: {
    status: (typeof containerStatuses)[number];
    carrier: (typeof options.carriers)[number];
    n: number;
  } | null = null;
  for (const status of containerStatuses) {
    const n = await count({ statuses: [status] });
    if (n === 0) continue;
    for (const carrier of options.carriers) {
      if ((await count({ statuses: [status], carriers: [carrier.value] })) === 0) {
        pair = { status, carrier, n };
        break;
      }
    }
    if (pair) break;
  }
  expect(pair, 'the demo account has a status one carrier holds no box in').not.toBeNull();
  const { status, carrier, n } = pair!;

  const filters = { statuses: [status], carriers: [carrier.value] };
  await page.goto(`${host.url}#/containers?filters=${encodeURIComponent(JSON.stringify(filters))}`);
  const empty = page.getByRole('status').filter({ hasText: /No containers match Status: / });
  await expect(empty).toContainText(`and Carrier: ${carrier.label}.`);
  const remove = empty.getByRole('button', {
    name: `Remove Carrier (${n.toLocaleString('en-US')} ${n === 1 ? 'container' : 'containers'})`,
  });
  await expect(remove).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('filters-empty-light.png') });

  await host.core.handlers['settings:update']({ theme: 'dark' });
  await expect(page.locator('html[data-theme=dark]')).toBeAttached();
  await page.screenshot({ path: testInfo.outputPath('filters-empty-dark.png') });
  expect(await seriousViolations(page), 'the empty list, dark').toEqual([]);

  await remove.click();
  const grid = page.getByRole('grid', { name: 'Containers' });
  await expectRowsLoaded(grid);
  await expect(page.getByRole('status', { name: 'Row count' })).toHaveText(
    `${n.toLocaleString('en-US')} of ${all.toLocaleString('en-US')} containers`,
  );
  await expect(page.getByRole('button', { name: /^Carrier: / })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Status: / })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('filters-removed-dark.png') });
});
