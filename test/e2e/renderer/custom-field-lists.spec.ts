/**
 * The account's custom fields as list columns and filters, on a laptop screen
 * (run with renderer-1366): PO number and Incoterm chosen in the Columns panel, the list sorted
 * by PO number from its header, a pick-list filter on Incoterm ("N of M"), the export in the
 * order the screen shows, and the columns, sort and filter still there after a reload.
 * Screenshots of each step.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Page } from '@playwright/test';
import type { ShipmentRow } from '../../../src/shared/rows';
import { chooseExport, expect, expectRowsLoaded, ipcAnswer, test, waitForFirstSync } from '../fixtures';

/** Each rendered row's cells by column, in row order. */
async function shownRows(page: Page): Promise<string[][]> {
  const rows = page.getByRole('grid', { name: 'Shipments' }).locator('[role="row"][data-index]');
  return rows.evaluateAll((elements) =>
    elements
      .map((row) => ({
        index: Number(row.getAttribute('data-index')),
        cells: [...row.querySelectorAll('[role="gridcell"]')].map((c) => c.textContent?.trim() ?? ''),
      }))
      .sort((a, b) => a.index - b.index)
      .map((row) => row.cells),
  );
}

test('custom fields as columns and filters: PO number sorted, Incoterm picked, exported as shown', async ({
  page,
  host,
  exportPath,
}, testInfo) => {
  test.setTimeout(120_000);
  await waitForFirstSync(host);
  const shot = (name: string) => page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
  const all = await host.core.handlers['shipments:count']({ filters: {} });
  await page.goto(`${host.url}#/shipments`);
  const grid = page.getByRole('grid', { name: 'Shipments' });
  await expectRowsLoaded(grid);

  // The Columns panel offers the account's fields apart; chosen, they join the table.
  await page.getByRole('button', { name: 'Columns' }).click();
  const chooser = page.getByRole('dialog', { name: 'Choose columns' });
  const custom = chooser.getByRole('group', { name: 'Custom fields' });
  await expect(custom.getByRole('checkbox')).toHaveCount(4);
  // Room made for them on the laptop's screen: three of the usual columns hidden.
  for (const name of ['ATA', 'ETA slip', 'Boxes']) await chooser.getByRole('checkbox', { name, exact: true }).click();
  // A chosen column moves up to the shown ones (a click: the box it was in goes).
  await custom.getByRole('checkbox', { name: 'PO number' }).click();
  await custom.getByRole('checkbox', { name: 'Incoterm' }).click();
  await expect(chooser.getByRole('checkbox', { name: 'Incoterm' })).toBeChecked();
  await shot('columns-custom-fields');
  await page.keyboard.press('Escape');
  await expect(chooser).toBeHidden();
  const poHeader = grid.getByRole('columnheader', { name: 'PO number' });
  await expect(poHeader).toBeVisible();
  await expect(grid.getByRole('columnheader', { name: 'Incoterm' })).toBeVisible();
  // Both fit the laptop's screen beside the usual columns left.
  const box = await grid.getByRole('columnheader', { name: 'Incoterm' }).boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(1366);

  // Sorted by its header: the store's order, empty values last.
  const sorted = ipcAnswer(page, 'shipments:list', (arg) => {
    const sort = (arg as { sort?: { field?: string } }).sort;
    return sort?.field === 'cf.po_number';
  });
  await poHeader.getByRole('button').click();
  await sorted;
  await expect(poHeader).toHaveAttribute('aria-sort', 'ascending');
  await expectRowsLoaded(grid);
  const expected = await host.core.handlers['shipments:list']({
    filters: {},
    sort: { field: 'cf.po_number', direction: 'asc' },
    page: { limit: 100 },
  });
  const onScreen = await shownRows(page);
  const columnOf = async (name: string) =>
    (await grid.getByRole('columnheader').allTextContents()).findIndex((t) => t.trim().startsWith(name));
  const po = await columnOf('PO number');
  const incoterm = await columnOf('Incoterm');
  expect(onScreen.length).toBeGreaterThan(5);
  expect(onScreen.map((cells) => cells[0])).toEqual(
    expected.rows.slice(0, onScreen.length).map((r: ShipmentRow) => r.billOfLading),
  );
  const pos = onScreen.map((cells) => cells[po]!).filter((text) => text !== '');
  expect(pos).toEqual([...pos].sort());
  expect(
    onScreen.map((cells) => cells[incoterm]!).some((text) => / \(.+\)$/.test(text)),
    'option labels',
  ).toBe(true);
  await shot('custom-field-column-sorted');

  // A pick list of the Incoterm options, with how many shipments hold each.
  await page.getByRole('button', { name: '+ Filter' }).click();
  await page.getByRole('menuitem', { name: 'Incoterm' }).click();
  const editor = page.getByRole('dialog', { name: 'Filter: Incoterm' });
  const options = editor.getByRole('list', { name: 'Incoterm options' });
  await expect(options.getByRole('checkbox')).toHaveCount(7);
  const filters = { customFields: { incoterm: { kind: 'options' as const, values: ['FOB', 'CIF'] } } };
  const filtered = ipcAnswer(page, 'shipments:count', (arg) => JSON.stringify(arg) === JSON.stringify({ filters }));
  await options.getByRole('checkbox', { name: /^FOB/ }).check();
  await options.getByRole('checkbox', { name: /^CIF/ }).check();
  await filtered;
  const matching = await host.core.handlers['shipments:count']({ filters });
  expect(matching).toBeGreaterThan(0);
  const count = page.getByRole('status', { name: 'Row count' });
  await expect(count).toHaveText(`${matching} of ${all} shipments`);
  await expectRowsLoaded(grid);
  await shot('custom-field-pick-list');
  await editor.getByRole('button', { name: 'Done' }).click();
  await expect(editor).toBeHidden();
  await expect(page.getByRole('button', { name: /^Incoterm:/ })).toHaveText(
    /Incoterm:\s*FOB \(Free on board\), CIF \(Cost, insurance and freight\)/,
  );
  const kept = (await shownRows(page)).map((cells) => cells[incoterm]);
  expect(new Set(kept)).toEqual(new Set(['FOB (Free on board)', 'CIF (Cost, insurance and freight)']));
  await shot('custom-field-filter-applied');

  // The export holds what the list shows, in its order, with the custom field columns.
  await chooseExport(page, 'Export CSV');
  await expect(page.getByRole('status').filter({ hasText: 'Exported' })).toHaveText(
    new RegExp(`Exported ${matching} shipments to `),
  );
  const records = parse<Record<string, string>>(readFileSync(exportPath, 'utf8').slice(1), { columns: true });
  const listed = await host.core.handlers['shipments:list']({
    filters,
    sort: { field: 'cf.po_number', direction: 'asc' },
    page: { limit: 500 },
  });
  expect(records.map((r) => r['Bill of lading'])).toEqual(listed.rows.map((r: ShipmentRow) => r.billOfLading));
  expect(records.map((r) => r['PO number'])).toEqual(listed.rows.map((r) => r.customFields.po_number?.text ?? ''));
  expect(records.slice(0, (await shownRows(page)).length).map((r) => r['Bill of lading'])).toEqual(
    (await shownRows(page)).map((cells) => cells[0]),
  );

  // Kept with the list: after a reload the columns, sort and filter are there.
  await page.reload();
  await expect(count).toHaveText(`${matching} of ${all} shipments`);
  await expect(grid.getByRole('columnheader', { name: 'PO number' })).toHaveAttribute('aria-sort', 'ascending');
  await expectRowsLoaded(grid);
  // Cleared like any chip.
  await page.getByRole('button', { name: 'Remove filter Incoterm' }).click();
  await expect(count).toHaveText(`${all} shipments`);
});

test('custom fields of containers: numbers right-aligned, yes/no in words, a range and a yes/no filter', async ({
  page,
  host,
}, testInfo) => {
  test.setTimeout(120_000);
  await waitForFirstSync(host);
  const shot = (name: string) => page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
  await page.goto(`${host.url}#/containers`);
  const grid = page.getByRole('grid', { name: 'Containers' });
  await expectRowsLoaded(grid);
  await page.getByRole('button', { name: 'Columns' }).click();
  const chooser = page.getByRole('dialog', { name: 'Choose columns' });
  // Room made on the laptop's screen: the shipment's columns hidden (the usual ones, shown).
  for (const name of ['Customer', 'Carrier', 'Bill of lading']) {
    await chooser.getByRole('checkbox', { name, exact: true }).click();
  }
  const custom = chooser.getByRole('group', { name: 'Custom fields' });
  await custom.getByRole('checkbox', { name: 'Pallet count' }).click();
  await custom.getByRole('checkbox', { name: 'Temperature controlled' }).click();
  await page.keyboard.press('Escape');
  const pallets = grid.getByRole('columnheader', { name: 'Pallet count' });
  await pallets.getByRole('button').click();
  await pallets.getByRole('button').click();
  await expect(pallets).toHaveAttribute('aria-sort', 'descending');
  await expectRowsLoaded(grid);
  const first = grid.locator('[role="row"][data-index="0"]');
  const headers = (await grid.getByRole('columnheader').allTextContents()).map((t) => t.trim());
  const at = headers.findIndex((t) => t.startsWith('Pallet count'));
  const cell = first.getByRole('gridcell').nth(at);
  const top = await host.core.handlers['containers:list']({
    filters: {},
    sort: { field: 'cf.pallet_count', direction: 'desc' },
    page: { limit: 1 },
  });
  await expect(cell).toHaveText(String(top.rows[0]!.customFields.pallet_count?.value));
  await expect(cell).toHaveCSS('text-align', 'right');
  await expect(first.getByRole('gridcell').nth(at + 1)).toHaveText(/^(Yes|No|)$/);

  await page.getByRole('button', { name: '+ Filter' }).click();
  await page.getByRole('menuitem', { name: 'Pallet count' }).click();
  const editor = page.getByRole('dialog', { name: 'Filter: Pallet count' });
  await editor.getByRole('spinbutton', { name: 'From' }).fill('10');
  await editor.getByRole('spinbutton', { name: 'To' }).fill('20');
  await editor.getByRole('spinbutton', { name: 'To' }).press('Tab');
  await expect(page.getByRole('button', { name: /^Pallet count:/ })).toHaveText(/Pallet count:\s*10 – 20/);
  const filters = { customFields: { pallet_count: { kind: 'number' as const, min: 10, max: 20 } } };
  const all = await host.core.handlers['containers:count']({ filters: {} });
  const count = page.getByRole('status', { name: 'Row count' });
  await expect(count).toHaveText(`${await host.core.handlers['containers:count']({ filters })} of ${all} containers`);
  await expectRowsLoaded(grid);
  await shot('custom-field-number-range');
  await editor.getByRole('button', { name: 'Done' }).click();

  await page.getByRole('button', { name: '+ Filter' }).click();
  await page.getByRole('menuitem', { name: 'Temperature controlled' }).click();
  await page
    .getByRole('dialog', { name: 'Filter: Temperature controlled' })
    .getByRole('radio', { name: 'Yes' })
    .check();
  const both = {
    customFields: { ...filters.customFields, temperature_controlled: { kind: 'flag' as const, is: true } },
  };
  await expect(count).toHaveText(
    `${await host.core.handlers['containers:count']({ filters: both })} of ${all} containers`,
  );
  await expectRowsLoaded(grid);
  const cold = await grid
    .locator('[role="row"][data-index]')
    .evaluateAll(
      (rows, i) => rows.map((row) => row.querySelectorAll('[role="gridcell"]')[i]?.textContent ?? ''),
      at + 1,
    );
  expect(new Set(cold)).toEqual(new Set(['Yes']));
  await shot('custom-field-yes-no');
});
