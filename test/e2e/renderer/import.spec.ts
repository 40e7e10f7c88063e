/**
 * Bulk import in the app: a customer's spreadsheet of numbers imported from the Tracking
 * requests list. The columns are asked (one column name is unknown), the preview says each row's
 * problem, the valid rows are sent with progress (the demo service holds the creates after the
 * third at a gate, so the bar is seen part way, on state), and the results are exported.
 * Screenshots of each step; axe scans of each.
 */
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { containerCheckDigit } from '../../../src/shared/identifiers';
import { expect, test, waitForFirstSync } from '../fixtures';
import { gatedDemo } from '../host/gated-demo';
import { startTestHost } from '../host/server';

function container(owner: string, serial: number): string {
  const first10 = `${owner}${String(serial).padStart(6, '0')}`;
  return `${first10}${containerCheckDigit(first10)}`;
}

async function seriousViolations(page: Page, where: string) {
  const results = await new AxeBuilder({ page })
    .include('main')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('a spreadsheet of numbers: its columns, a preview with each row’s problem, sending with progress, the results', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  // Creates after the third wait at the gate, so the progress is seen part way.
  let creates = 0;
  const gated = gatedDemo({ passes: (path) => !/\/tracking_requests$/.test(path) || ++creates <= 3 });
  const exportPath = testInfo.outputPath('import-results.csv');
  const host = await startTestHost({
    dataDir: testInfo.outputPath('data'),
    demo: gated.demo,
    chooseExportPath: () => Promise.resolve(exportPath),
  });
  try {
    await page.goto(`${host.url}#/tracking-requests`);
    await waitForFirstSync(host);
    const [tracked] = (await host.core.handlers['containers:list']({ filters: {}, page: { limit: 1 } })).rows;
    const fresh = [
      container('MAEU', 700001),
      container('MAEU', 700002),
      container('MSCU', 700003),
      container('MSCU', 700004),
    ];
    const found = container('MAEU', 700005);
    const csv = [
      'Cntr No.,Line,Notes,Tags',
      `${fresh[0]},MAEU,,urgent`,
      `${fresh[1]},MAEU,call first,`,
      `${fresh[2]},MSCU,,`,
      `${fresh[3]},MSCU,,`,
      `${found},,,`,
      'MSCU1234567,MSCU,,',
      `${fresh[0]},MAEU,,`,
      `${tracked!.number},${tracked!.carrierScac},,`,
      `${container('CMAU', 700006)},ZZZZ,,`,
    ].join('\r\n');

    await page.getByRole('link', { name: 'Import…' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Import tracking requests' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Choose a file…' })).toBeEnabled();
    await page.screenshot({ path: testInfo.outputPath('00-import-source.png') });
    await page.locator('#import-file').setInputFiles({
      name: 'customer-boxes.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });

    // Unsure of "Notes": the columns are asked, with what Quayside made of each.
    // Focus goes to the new step's heading, where a screen reader starts reading it.
    await expect(page.getByRole('heading', { name: 'Which column holds what?' })).toBeFocused();
    await expect(page.getByRole('list', { name: 'What Quayside was unsure of' })).toHaveText(
      '“Notes” is not a column name Quayside knows; it is left out.',
    );
    await expect(page.getByRole('combobox', { name: 'What A: Cntr No. holds' })).toHaveValue('number');
    await expect(page.getByRole('combobox', { name: 'What B: Line holds' })).toHaveValue('carrier');
    await expect(page.getByRole('combobox', { name: 'What C: Notes holds' })).toHaveValue('');
    await expect(page.getByRole('combobox', { name: 'What D: Tags holds' })).toHaveValue('tags');
    await page.screenshot({ path: testInfo.outputPath('01-import-columns.png'), fullPage: true });
    expect(await seriousViolations(page, 'columns')).toEqual([]);
    // From the keyboard.
    await page.getByRole('button', { name: 'Check the rows' }).focus();
    await page.keyboard.press('Enter');

    // The preview: each row's problem, carriers found for the row without one.
    await expect(page.getByRole('heading', { name: 'Check before sending' })).toBeFocused();
    const summary = page.getByRole('status').filter({ hasText: /^9 rows: / });
    await expect(summary).toHaveText('9 rows: 1 already tracked · 5 ready to send · 3 need a fix');
    const table = page.getByRole('table', { name: 'Rows of the import and their results' });
    const row = (n: number) =>
      table.getByRole('row').filter({ has: page.getByRole('cell', { name: String(n), exact: true }) });
    await expect(row(6)).toContainText('Carrier from the Tracking API: Maersk');
    await expect(row(7)).toContainText('its check digit (the last digit) should be 6');
    await expect(row(8)).toContainText('Row 2 has the same number; this row is left out.');
    await expect(row(9)).toContainText('Already tracked');
    await expect(row(10)).toContainText('“ZZZZ” is not a carrier the Tracking API covers');
    await page.screenshot({ path: testInfo.outputPath('02-import-preview-problems.png'), fullPage: true });
    expect(await seriousViolations(page, 'preview')).toEqual([]);
    await page.getByRole('radio', { name: 'Need a fix (3)' }).check();
    await expect(table.getByRole('row')).toHaveCount(4);
    await page.getByRole('radio', { name: 'All (9)' }).check();

    // Sending: three go through, the rest wait at the gate; the bar stands at 3 of 5.
    await page.getByRole('button', { name: 'Send 5 tracking requests' }).click();
    await test.step('wait for the fourth create to reach the gate', () => gated.held);
    const bar = page.getByRole('progressbar', { name: 'Sending tracking requests' });
    await expect(bar).toHaveAttribute('aria-valuenow', '3');
    await expect(bar).toHaveAttribute('aria-valuemax', '5');
    await expect(page.getByText(/^Sending: 3 of 5/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('03-import-sending.png'), fullPage: true });
    expect(await seriousViolations(page, 'sending')).toEqual([]);

    gated.open();
    await expect(page.getByRole('heading', { name: 'Results' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: /^9 rows: / })).toHaveText(
      '9 rows: 5 created · 1 already tracked · 3 need a fix',
    );
    await expect(row(2)).toContainText('Created');
    await expect(row(2).getByRole('link', { name: `Show tracking request ${fresh[0]}` })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('04-import-results.png'), fullPage: true });
    expect(await seriousViolations(page, 'results')).toEqual([]);

    await page.getByRole('button', { name: 'Export results (CSV)' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Results saved to' })).toBeVisible();
    const exported = parse<Record<string, string>>(readFileSync(exportPath, 'utf8'), { bom: true, columns: true });
    expect(exported.map((r) => [r.Row, r.Number, r.Result])).toEqual([
      ['2', fresh[0], 'Created'],
      ['3', fresh[1], 'Created'],
      ['4', fresh[2], 'Created'],
      ['5', fresh[3], 'Created'],
      ['6', found, 'Created'],
      ['7', 'MSCU1234567', 'Needs a fix'],
      ['8', fresh[0], 'Needs a fix'],
      ['9', tracked!.number, 'Already tracked'],
      ['10', container('CMAU', 700006), 'Needs a fix'],
    ]);

    // The created request is in the list at once.
    await row(2)
      .getByRole('link', { name: `Show tracking request ${fresh[0]}` })
      .click();
    const grid = page.getByRole('grid', { name: 'Tracking requests' });
    await expect(page.getByRole('status', { name: 'Row count' })).toHaveText(/^1 of \d+ tracking requests$/);
    await expect(grid).toContainText(fresh[0]!);
  } finally {
    gated.open();
    await host.close();
  }
});
