/**
 * A list's Export offers CSV and Excel. Exporting a sorted, filtered shipments
 * list as Excel writes a workbook with the rows in the order on screen, the shown columns as its
 * header, and dates as dates. Screenshots of the export choice and of the export's result.
 */
import type { Page } from '@playwright/test';
import readExcelFile from 'read-excel-file/node';
import { expect, expectRowsLoaded, test, waitForFirstSync } from '../fixtures';

// The save dialog "puts" the workbook here (main would suggest an .xlsx name).
test.use({ exportPath: async ({}, use, testInfo) => use(testInfo.outputPath('export.xlsx')) });

/** The first cell of every rendered data row, top to bottom. */
async function firstColumn(page: Page, grid: string): Promise<string[]> {
  const rows = page.getByRole('grid', { name: grid }).locator('[role="row"][data-index]');
  return rows.evaluateAll((elements) =>
    elements
      .map((row) => ({
        index: Number(row.getAttribute('data-index')),
        text: row.querySelector('[role="gridcell"]')?.textContent?.trim() ?? '',
      }))
      .sort((a, b) => a.index - b.index)
      .map((row) => row.text),
  );
}

test('the shipments list exports as an Excel workbook: the rows on screen, in their order, dates as dates', async ({
  page,
  host,
  exportPath,
}, testInfo) => {
  test.setTimeout(90_000);
  await waitForFirstSync(host);
  await page.goto(`${host.url}#/shipments`);
  const grid = page.getByRole('grid', { name: 'Shipments' });
  await expectRowsLoaded(grid);
  // Sorted by ETA (the list's default, earliest first), then latest first: an order the export must keep.
  const eta = grid.getByRole('columnheader', { name: /^ETA/ }).first();
  await expect(eta).toHaveAttribute('aria-sort', 'ascending');
  await eta.getByRole('button').click();
  await expect(eta).toHaveAttribute('aria-sort', 'descending');
  await expectRowsLoaded(grid);
  const count = page.getByRole('status', { name: 'Row count' });
  const total = Number((await count.textContent())!.replace(/\D/g, ''));
  expect(total).toBeGreaterThan(0);
  const shown = await firstColumn(page, 'Shipments');

  // The Export menu, from the keyboard: Enter opens it on its first item, ↓ moves to Excel.
  await page.getByRole('button', { name: 'Export', exact: true }).focus();
  await page.keyboard.press('Enter');
  const choice = page.getByRole('menu', { name: 'Export this list' });
  await expect(choice.getByRole('menuitem')).toHaveText([
    'Export CSV',
    'Export Excel',
    'One CSV file per customer…',
    'One Excel file per customer…',
    'Print…',
  ]);
  await expect(choice.getByRole('menuitem', { name: 'Export CSV' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  const excel = choice.getByRole('menuitem', { name: 'Export Excel' });
  await expect(excel).toBeFocused();
  await expect(excel).toHaveAttribute('title', /as an Excel workbook \(\.xlsx\)/);
  await page.screenshot({ path: testInfo.outputPath('01-export-choice.png') });

  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Exported' })).toHaveText(
    new RegExp(`Exported ${total} shipments? to .*export\\.xlsx`),
  );
  await page.screenshot({ path: testInfo.outputPath('02-exported-xlsx.png') });

  const rows = (await readExcelFile(exportPath))[0]!.data;
  expect(rows.length).toBe(total + 1);
  const header = rows[0] as unknown as string[];
  // The shown columns, in their order: the first is the list's first, ETA comes in its UTC and
  // port-local forms.
  expect(header[0]).toMatch(/Bill of lading|BL/i);
  const etaUtc = header.indexOf('ETA (UTC)');
  expect(etaUtc).toBeGreaterThan(0);
  expect(header[etaUtc + 1]).toBe('ETA (port local time)');
  expect(rows.slice(1, shown.length + 1).map((row) => String(row[0]))).toEqual(shown);
  const etas = rows.slice(1).map((row) => row[etaUtc] as unknown);
  expect(etas.some((cell) => cell instanceof Date)).toBe(true);
  // Latest first, as on screen.
  const times = etas.filter((cell) => cell instanceof Date).map((d) => d.getTime());
  expect(times).toEqual([...times].sort((a, b) => b - a));
});
