/**
 * The containers list's Export menu offers one file per customer. Chosen with the mouse, it asks
 * for a folder (the test host's dialog gives one) and writes a workbook for each customer there,
 * then says what it wrote: the folder, each customer's file and rows, the rows in all. Chosen again
 * from the keyboard (dark theme), into the same folder, it keeps the files already there and
 * numbers the new ones, and says so. Screenshots of the menu and the summary in both themes.
 */
import { readdirSync } from 'node:fs';
import readExcelFile from 'read-excel-file/node';
import { expect, expectRowsLoaded, seriousViolations, test, waitForFirstSync } from '../fixtures';
import { startTestHost } from '../host/server';

test('the containers list exports one Excel file per customer into a folder and says what it wrote', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const folder = testInfo.outputPath('customers');
  const host = await startTestHost({
    dataDir: testInfo.outputPath('data'),
    chooseExportPath: () => Promise.resolve(testInfo.outputPath('export.csv')),
    chooseExportFolder: () => Promise.resolve(folder),
  });
  try {
    await waitForFirstSync(host);
    await page.goto(`${host.url}#/containers`);
    const grid = page.getByRole('grid', { name: 'Containers' });
    await expectRowsLoaded(grid);
    const total = Number((await page.getByRole('status', { name: 'Row count' }).textContent())!.replace(/\D/g, ''));
    expect(total).toBeGreaterThan(0);

    // By mouse: Export, then the per-customer Excel choice.
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const menu = page.getByRole('menu', { name: 'Export this list' });
    const perCustomer = menu.getByRole('menuitem', { name: 'One Excel file per customer…' });
    await expect(menu.getByRole('menuitem', { name: 'One CSV file per customer…' })).toBeVisible();
    await perCustomer.hover();
    await page.screenshot({ path: testInfo.outputPath('01-per-customer-menu-light.png') });
    await perCustomer.click();

    const summary = page.getByRole('dialog', { name: /^\d+ files, one per customer$/ });
    await expect(summary).toBeVisible();
    const written = readdirSync(folder).sort();
    expect(written.length).toBeGreaterThan(1);
    expect(written).toContain('No customer.xlsx');
    await expect(summary.getByRole('heading', { level: 2 })).toHaveText(`${written.length} files, one per customer`);
    await expect(summary).toContainText(`${total} containers in all, in the folder ${folder}`);
    const rows = summary.getByRole('row').filter({ has: page.getByRole('cell') });
    await expect(rows).toHaveCount(written.length);
    // Each listed file is in the folder with the rows the summary gives it; together, the list's rows.
    let sum = 0;
    for (const row of await rows.all()) {
      const [file, count] = await row.getByRole('cell').allTextContents();
      expect(written).toContain(file);
      const sheet = (await readExcelFile(`${folder}/${file}`))[0]!.data;
      expect(sheet.length - 1, file).toBe(Number(count));
      sum += Number(count);
    }
    expect(sum).toBe(total);
    await expect(summary.getByRole('button', { name: 'Close' })).toBeFocused();
    await page.screenshot({ path: testInfo.outputPath('02-per-customer-summary-light.png') });
    expect(await seriousViolations(page), 'per-customer summary, light').toEqual([]);
    await page.keyboard.press('Escape');
    await expect(summary).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'one per customer' })).toContainText(
      `Exported ${total} containers as ${written.length} files, one per customer, to ${folder}`,
    );

    // By keyboard, in the dark theme, into the same folder: nothing there is replaced.
    await host.core.handlers['settings:update']({ theme: 'dark' });
    await expect(page.locator('html[data-theme=dark]')).toBeAttached();
    await page.getByRole('button', { name: 'Export', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect(menu.getByRole('menuitem', { name: 'Export CSV' })).toBeFocused();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    await expect(perCustomer).toBeFocused();
    await page.screenshot({ path: testInfo.outputPath('03-per-customer-menu-dark.png') });
    await page.keyboard.press('Enter');
    await expect(summary).toBeVisible();
    await expect(summary).toContainText(
      `${written.length} files already in the folder had these names: they were kept as they were`,
    );
    await expect(summary.getByRole('cell', { name: 'No customer (2).xlsx' })).toBeVisible();
    expect(readdirSync(folder)).toHaveLength(2 * written.length);
    await page.screenshot({ path: testInfo.outputPath('04-per-customer-summary-kept-dark.png') });
    expect(await seriousViolations(page), 'per-customer summary, dark').toEqual([]);
    await summary.getByRole('button', { name: 'Close' }).press('Enter');
    await expect(summary).toBeHidden();
  } finally {
    await host.close();
  }
});
