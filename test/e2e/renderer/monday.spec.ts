/**
 * A forwarder's Monday at 1366×768: "which boxes must be picked up in the next 5 days or are
 * already overdue, each customer's sent to that customer as Excel". From the dashboard it takes
 * four actions by mouse: the tile, Export, "One Excel file per customer…", the folder. By keyboard
 * the same four choices, the focus moved with Tab and the menu opened with Ctrl+E. The steps are
 * counted, each one is screenshot (light by mouse, dark by keyboard), and the customer's workbook
 * holds exactly the boxes the core lists for that customer under the tile's filters.
 */
import { readdirSync } from 'node:fs';
import type { Page, TestInfo } from '@playwright/test';
import readExcelFile from 'read-excel-file/node';
import { plainStem } from '../../../src/core/file-names';
import type { DashboardSummary } from '../../../src/shared/types';
import type { ContainerFilters } from '../../../src/shared/views';
import { expect, expectRowsLoaded, seriousViolations, test, waitForFirstSync } from '../fixtures';
import { startTestHost, type TestHost } from '../host/server';

const TILE = /To pick up: overdue or next 5 days/;
const MOST_ACTIONS = 5;

/** Counts the forwarder's actions and screenshots the screen each one leaves. */
function steps(page: Page, testInfo: TestInfo, theme: 'light' | 'dark') {
  let n = 0;
  return {
    get count() {
      return n;
    },
    async after(name: string) {
      n += 1;
      await page.screenshot({ path: testInfo.outputPath(`monday-${theme}-${String(n).padStart(2, '0')}-${name}.png`) });
    },
  };
}

/** The boxes the core lists under `filters`, every page, grouped by customer ('' for none). */
async function boxesByCustomer(host: TestHost, filters: ContainerFilters): Promise<Map<string, string[]>> {
  const groups = new Map<string, string[]>();
  let after: string | undefined;
  do {
    const page = await host.core.handlers['containers:list']({ filters, page: { limit: 500, after } });
    for (const row of page.rows) {
      const customer = row.customer ?? '';
      groups.set(customer, [...(groups.get(customer) ?? []), row.number ?? '']);
    }
    after = page.next ?? undefined;
  } while (after !== undefined);
  for (const numbers of groups.values()) numbers.sort();
  return groups;
}

/** Each workbook in `folder`, and its container numbers. */
async function workbooks(folder: string): Promise<Map<string, string[]>> {
  const files = new Map<string, string[]>();
  for (const file of readdirSync(folder)) {
    const [header, ...rows] = (await readExcelFile(`${folder}/${file}`))[0]!.data;
    const column = header!.indexOf('Container');
    expect(column, `${file} has a Container column`).toBeGreaterThanOrEqual(0);
    files.set(file, rows.map((row) => String(row[column])).sort());
  }
  return files;
}

/** One file per customer, each holding exactly that customer's boxes as the core lists them under the tile's filters. */
async function expectCustomersFiles(host: TestHost, folder: string, summary: DashboardSummary): Promise<void> {
  const files = await workbooks(folder);
  const groups = await boxesByCustomer(host, summary.filters.pickupSoon);
  expect([...groups.values()].flat(), 'the core lists the boxes the tile counted').toHaveLength(summary.pickupSoon);
  expect(groups.size, 'the demo world has several customers with boxes due').toBeGreaterThan(1);
  expect(files.size).toBe(groups.size);
  for (const [customer, numbers] of groups) {
    // The file is named from the customer, made safe for a file name ("Co." loses its last dot).
    const file = `${customer === '' ? 'No customer' : plainStem(customer)}.xlsx`;
    expect([...files.keys()], `a file for ${customer || 'no customer'}`).toContain(file);
    expect(files.get(file), customer).toEqual(numbers);
  }
}

test.describe('Monday morning: boxes to pick up this week, one Excel file per customer', () => {
  let host: TestHost;
  let folder: string;

  test.beforeEach(async ({}, testInfo) => {
    folder = testInfo.outputPath('customers');
    host = await startTestHost({
      dataDir: testInfo.outputPath('data'),
      chooseExportFolder: () => Promise.resolve(folder),
    });
    await waitForFirstSync(host);
  });
  test.afterEach(async () => {
    await host.close();
  });

  test('by mouse, in four actions from the dashboard', async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const step = steps(page, testInfo, 'light');
    await page.goto(`${host.url}#/dashboard`);
    const tile = page.getByRole('link', { name: TILE });
    await expect(tile).toBeVisible();
    const summary = await host.core.handlers['dashboard:summary']({ zone: 'UTC' });
    expect(summary.pickupSoon, 'the demo world has boxes due this week').toBeGreaterThan(1);
    await expect(tile).toContainText(String(summary.pickupSoon));
    await page.screenshot({ path: testInfo.outputPath('monday-light-00-dashboard.png') });

    // 1. The tile: the list of those boxes, its filters in words.
    await tile.click();
    const grid = page.getByRole('grid', { name: 'Containers' });
    await expectRowsLoaded(grid);
    await expect(page.getByRole('button', { name: 'Stage: Not picked up yet' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Last free day: Overdue or next 5 days' })).toBeVisible();
    await expect(page.getByRole('status', { name: 'Row count' })).toHaveText(
      new RegExp(`^${summary.pickupSoon} of [\\d,]+ containers$`),
    );
    await step.after('list');

    // 2. Export. 3. One Excel file per customer… 4. The folder (the host's dialog answers it).
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const perCustomer = page
      .getByRole('menu', { name: 'Export this list' })
      .getByRole('menuitem', { name: 'One Excel file per customer…' });
    await step.after('export-menu');
    await perCustomer.click();
    const written = page.getByRole('dialog', { name: /^\d+ files, one per customer$/ });
    await expect(written).toBeVisible();
    await step.after('choose-folder');
    await expect(written).toContainText(`${summary.pickupSoon} containers in all, in the folder ${folder}`);
    await step.after('files-written');
    const actions = step.count;
    expect(actions, 'the tile, Export, the per-customer choice, the folder').toBe(4);
    expect(actions).toBeLessThanOrEqual(MOST_ACTIONS);
    expect(await seriousViolations(page), 'the summary of what was written').toEqual([]);
    await expectCustomersFiles(host, folder, summary);
  });

  test('by keyboard, dark theme: Tab to the tile, Enter, Ctrl+E, the per-customer choice, Enter', async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    await host.core.handlers['settings:update']({ theme: 'dark' });
    const step = steps(page, testInfo, 'dark');
    await page.goto(`${host.url}#/dashboard`);
    await expect(page.locator('html[data-theme=dark]')).toBeAttached();
    const tile = page.getByRole('link', { name: TILE });
    await expect(tile).toBeVisible();
    const summary = await host.core.handlers['dashboard:summary']({ zone: 'UTC' });
    await page.screenshot({ path: testInfo.outputPath('monday-dark-00-dashboard.png') });

    // Tab presses to reach the tile: moving focus, counted apart from the choices made.
    let tabs = 0;
    while (!(await tile.evaluate((el) => el === document.activeElement))) {
      await page.keyboard.press('Tab');
      tabs += 1;
      expect(tabs, 'the tile is reachable with Tab').toBeLessThan(40);
    }
    testInfo.annotations.push({ type: 'tab presses to the tile', description: String(tabs) });

    // 1. Enter on the tile.
    await page.keyboard.press('Enter');
    await expectRowsLoaded(page.getByRole('grid', { name: 'Containers' }));
    await expect(page.getByRole('button', { name: 'Last free day: Overdue or next 5 days' })).toBeVisible();
    await step.after('list');
    // 2. Ctrl+E: the Export menu, on its first item.
    await page.keyboard.press('Control+e');
    const menu = page.getByRole('menu', { name: 'Export this list' });
    await expect(menu.getByRole('menuitem', { name: 'Export CSV' })).toBeFocused();
    await step.after('export-menu');
    // 3. The per-customer Excel choice, by its first letter ("O" goes to the first "One …").
    await page.keyboard.press('o');
    await page.keyboard.press('o');
    const perCustomer = menu.getByRole('menuitem', { name: 'One Excel file per customer…' });
    await expect(perCustomer).toBeFocused();
    await step.after('per-customer-choice');
    // 4. Enter: the folder, then what was written.
    await page.keyboard.press('Enter');
    const written = page.getByRole('dialog', { name: /^\d+ files, one per customer$/ });
    await expect(written).toBeVisible();
    await expect(written.getByRole('button', { name: 'Close' })).toBeFocused();
    await step.after('files-written');
    expect(step.count).toBeLessThanOrEqual(MOST_ACTIONS);
    expect(await seriousViolations(page), 'the summary, dark').toEqual([]);
    await expectCustomersFiles(host, folder, summary);
  });
});
