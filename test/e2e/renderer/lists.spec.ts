import { expect, expectRowsLoaded, ipcAnswer, test, waitForFirstSync } from '../fixtures';

// The lists' reads and Ctrl+K's search answered by the worker thread, as over a large account.
test.use({ readsAside: 'always' });

test('a list keeps its filters, sort and columns after a restart', async ({ page, host }, testInfo) => {
  await waitForFirstSync(host);
  await page.goto(`${host.url}#/shipments`);
  const grid = page.getByRole('grid', { name: 'Shipments' });
  await expect(grid).toBeVisible();
  const count = page.getByRole('status', { name: 'Row count' });
  const all = await host.core.handlers['shipments:count']({ filters: {} });
  await expect(count).toHaveText(`${all} shipments`);

  // Filter by one carrier, picked from the values in the data.
  const options = await host.core.handlers['filters:options'](undefined);
  const carrier = options.carriers[0]!;
  await page.getByRole('button', { name: '+ Filter' }).click();
  await page.getByRole('menuitem', { name: 'Carrier' }).click();
  const editor = page.getByRole('dialog', { name: 'Filter: Carrier' });
  await editor.getByRole('searchbox').fill(carrier.value);
  await editor.getByRole('checkbox', { name: new RegExp(carrier.label) }).check();
  await editor.getByRole('button', { name: 'Done' }).click();
  await expect(count).toHaveText(`${carrier.count} of ${all} shipments`);

  // Sort by ETA, newest first, and show the Terminal column instead of Vessel.
  const eta = grid.getByRole('columnheader', { name: 'ETA', exact: true });
  // The list starts by ETA, soonest first; one click turns it round.
  await expect(eta).toHaveAttribute('aria-sort', 'ascending');
  await eta.getByRole('button').click();
  await expect(eta).toHaveAttribute('aria-sort', 'descending');
  await page.getByRole('button', { name: 'Columns' }).click();
  const chooser = page.getByRole('dialog', { name: 'Choose columns' });
  await chooser.getByRole('checkbox', { name: 'Terminal', exact: true }).check();
  await chooser.getByRole('checkbox', { name: 'Vessel / voyage' }).uncheck();
  await page.keyboard.press('Escape');
  await expect(chooser).toBeHidden();
  await expect(grid.getByRole('columnheader', { name: 'Terminal', exact: true })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('before-restart.png') });

  await page.reload();
  await expect(count).toHaveText(`${carrier.count} of ${all} shipments`);
  await expect(page.getByRole('list', { name: 'Active filters' })).toContainText(`Carrier: ${carrier.label}`);
  await expect(grid.getByRole('columnheader', { name: 'ETA', exact: true })).toHaveAttribute('aria-sort', 'descending');
  await expect(grid.getByRole('columnheader', { name: 'Terminal', exact: true })).toBeVisible();
  await expect(grid.getByRole('columnheader', { name: 'Vessel / voyage' })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('after-restart.png') });

  // Every shown row is that carrier's.
  await expectRowsLoaded(grid);
  const carriers = await grid
    .locator('[role="row"][data-index]')
    .evaluateAll((rows) => rows.map((row) => row.querySelectorAll('[role="gridcell"]')[1]?.textContent?.trim()));
  expect(new Set(carriers)).toEqual(new Set([carrier.value]));
});

test('the keyboard is enough: search with Ctrl+K, move through rows and open one', async ({ page, host }, testInfo) => {
  await waitForFirstSync(host);
  const [shipment] = (
    await host.core.handlers['shipments:list']({
      filters: {},
      sort: { field: 'eta', direction: 'asc' },
      page: { limit: 1 },
    })
  ).rows;
  const bl = shipment!.billOfLading!;
  await page.goto(host.url);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  await page.keyboard.press('Control+k');
  const search = page.getByRole('combobox', { name: /Search BL, booking, container/ });
  await expect(search).toBeFocused();
  await search.fill(bl.slice(0, 9));
  await expect(page.getByRole('listbox', { name: 'Results' }).getByRole('option').first()).toContainText(bl);
  await page.screenshot({ path: testInfo.outputPath('search.png') });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(bl);

  // Rows: into the table, arrow down twice (each key's effect seen before the next), Enter opens that row.
  await page.goto(`${host.url}#/containers`);
  const grid = page.getByRole('grid', { name: 'Containers' });
  await expectRowsLoaded(grid, 3);
  const focused = grid.locator('[role="row"]:focus');
  await grid.locator('[role="row"][aria-rowindex="2"]').focus();
  await expect(focused).toHaveAttribute('aria-rowindex', '2');
  await page.keyboard.press('ArrowDown');
  await expect(focused).toHaveAttribute('aria-rowindex', '3');
  await page.keyboard.press('ArrowDown');
  await expect(focused).toHaveAttribute('aria-rowindex', '4');
  const number = (await focused.locator('[role="gridcell"]').first().textContent())!.trim();
  await expect(focused).toHaveAccessibleName(`Container ${number}`);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: number })).toBeVisible();

  // End reaches the last container, fetched on the way.
  await page.goBack();
  await expectRowsLoaded(grid);
  await grid.locator('[role="row"][aria-rowindex="2"]').focus();
  await expect(focused).toHaveAttribute('aria-rowindex', '2');
  await page.keyboard.press('End');
  const total = await host.core.handlers['containers:count']({ filters: {} });
  await expect(grid.locator(`[role="row"][data-index="${total - 1}"]`)).toBeFocused();
  await expect(grid.locator(`[role="row"][data-index="${total - 1}"]`)).not.toContainText('Loading');
});

test('hostile text in the search box finds nothing and breaks nothing', async ({ page, host }) => {
  test.setTimeout(90_000);
  await waitForFirstSync(host);
  await page.goto(`${host.url}#/shipments`);
  const count = page.getByRole('status', { name: 'Row count' });
  const all = await host.core.handlers['shipments:count']({ filters: {} });
  await expect(count).toHaveText(`${all} shipments`);
  const search = page.getByRole('searchbox', { name: 'Search shipments' });
  for (const text of [
    '"; DROP TABLE shipments; --',
    'NEAR(a b) OR *',
    '<img src=x onerror=alert(1)>',
    '=HYPERLINK("x")',
  ]) {
    // Each text's own count answered first: the count shown may still be the previous text's.
    const counted = ipcAnswer(page, 'shipments:count', (arg) => searchOf(arg) === text.trim());
    await search.fill(text);
    await counted;
    await expect(count).toHaveText(`0 of ${all} shipments`);
    // The sentence quotes the text as text: no markup, formula or query of it runs.
    await expect(page.getByText(`No shipments match “${text.trim()}”.`, { exact: true })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  }
  // A search longer than the app accepts is cut at the box, not refused later.
  await search.fill('A'.repeat(500));
  await expect(search).toHaveValue('A'.repeat(200));
  await page.getByRole('button', { name: /^Clear the search/ }).click();
  await expect(count).toHaveText(`${all} shipments`);
  expect(await host.core.handlers['shipments:count']({ filters: {} })).toBe(all);
});

test('back from a shipment returns to the same place in the list', async ({ page, host }) => {
  await waitForFirstSync(host);
  const { rows } = await host.core.handlers['shipments:list']({
    filters: {},
    sort: { field: 'eta', direction: 'asc' },
    page: { limit: 156 },
  });
  const bl = rows[155]!.billOfLading!;
  await page.goto(`${host.url}#/shipments`);
  const grid = page.getByRole('grid', { name: 'Shipments' });
  await expectRowsLoaded(grid);
  await grid.evaluate((element) => (element.scrollTop = 36 * 150));
  const row = grid.locator('[role="row"][data-index="155"]');
  // Past the first page: shown once its rows have been fetched.
  await expect(row).toHaveAccessibleName(`Shipment ${bl}`);
  await row.click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(bl);
  await page.goBack();
  await expect(grid.locator('[role="row"][data-index="155"]')).toBeVisible();
  await expect(grid.locator('[role="row"][data-index="155"]')).toContainText(bl);
  await expect(grid.locator('[role="row"][data-index="0"]')).not.toBeInViewport();
});

function searchOf(arg: unknown): unknown {
  return (arg as { filters?: { search?: unknown } } | undefined)?.filters?.search;
}

test('an ETA range filter is set from its labelled date fields, once a day is whole', async ({
  page,
  host,
}, testInfo) => {
  await waitForFirstSync(host);
  await page.goto(`${host.url}#/shipments`);
  const count = page.getByRole('status', { name: 'Row count' });
  const all = await host.core.handlers['shipments:count']({ filters: {} });
  await expect(count).toHaveText(`${all} shipments`);

  await page.getByRole('button', { name: '+ Filter' }).click();
  await page.getByRole('menuitem', { name: 'ETA', exact: true }).click();
  const editor = page.getByRole('dialog', { name: 'Filter: ETA' });
  // Arrivals from today on: fewer than all (the demo has shipments that arrived), more than none.
  const today = new Date().toISOString().slice(0, 10);
  await editor.getByRole('radio', { name: 'Custom range…' }).check();
  const from = editor.getByLabel('From', { exact: true });
  await from.fill(today);
  // A day applies on Enter (or on leaving its field), whole: not while it is typed.
  await from.press('Enter');
  // The count of the filtered list: waits for the answer to this filter (a count still on its way
  // shows the previous one), then checks it is a part of the list, not all of it or none.
  const shown = () => count.textContent().then((text) => /^(\d+) of \d+ shipments$/.exec(text ?? '')?.[1]);
  await expect.poll(async () => Number((await shown()) ?? all)).toBeLessThan(all);
  expect(Number(await shown())).toBeGreaterThan(0);
  await expect(editor.getByLabel('To', { exact: true })).toHaveValue('');
  await page.screenshot({ path: testInfo.outputPath('eta-range-editor.png') });
  await editor.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('list', { name: 'Active filters' })).toContainText('ETA');
});
