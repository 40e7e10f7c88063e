/**
 * Change history in the app: two syncs of a sandbox whose clock jumps four days
 * between them, then the dashboard's "Changed since you last looked" tile, the Changes view (its
 * period, kind chip, a row opening its shipment, the CSV export, "mark all as looked at"), and the
 * ETA history on the shipment page. Screenshots of each, and axe scans of the view and the page.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index';
import {
  expect,
  expectRowsLoaded,
  ipcAnswer,
  syncStatus,
  test,
  waitForFirstSync,
  seriousViolations,
} from '../fixtures';
import { startTestHost, type TestHost } from '../host/server';

let sandbox: Sandbox;
let host: TestHost;

test.beforeEach(async ({}, testInfo) => {
  // A key of each test's own: the client keeps one limiter per key per process, and a test must
  // not wait out the window the one before it spent.
  const apiKey = `e2e-changes-${randomUUID()}`;
  // Frozen, then moved on by hand: ETAs, arrivals and last free days move between the two syncs.
  sandbox = await startSandbox({ seed: 'e2e-changes', shipments: 60, apiKeys: [apiKey], tick: 0, routing: false });
  host = await startTestHost({
    dataDir: testInfo.outputPath('data'),
    chooseExportPath: () => Promise.resolve(testInfo.outputPath('changes.csv')),
    demo: { start: () => Promise.resolve({ url: sandbox.url, apiKey, close: () => Promise.resolve() }) },
  });
  await waitForFirstSync(host);
  const first = await host.core.handlers['sync:status'](undefined);
  sandbox.advance(4 * 86_400);
  await host.core.handlers['sync:start']({ mode: 'incremental' });
  await syncStatus(host, (s) => s.state === 'idle' && s.lastRun !== null && s.lastRun.id !== first.lastRun?.id);
});
test.afterEach(async () => {
  await host.close();
  await sandbox.close();
});

test('the dashboard tile opens the Changes view, which filters, opens a shipment with its ETA history, exports and marks as looked', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const total = (await host.core.handlers['changes:count']({ filters: { period: 'since_looked' } })).count;
  expect(total, 'the second sync recorded changes').toBeGreaterThan(5);

  // The dashboard says how many changes wait since the forwarder last looked.
  await page.goto(host.url);
  const tile = page.getByTestId('changes-tile');
  await expect(tile).toContainText(String(total));
  await expect(tile).toContainText('Changed since you last looked');
  await tile.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('dashboard-changes-tile.png') });

  // The tile opens the Changes view on that period.
  await tile.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Changes' })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Change count' })).toHaveText(`${total} changes`);
  await expect(page.getByRole('radio', { name: 'Since I last looked' })).toBeChecked();
  const grid = page.getByRole('grid', { name: 'Changes' });
  await expectRowsLoaded(grid, Math.min(total, 5));
  await page.screenshot({ path: testInfo.outputPath('changes-view.png') });
  expect(await seriousViolations(page), 'Changes view').toEqual([]);

  // The kind chip: ETAs only; the rows and the count follow.
  const etas = (await host.core.handlers['changes:count']({ filters: { period: 'since_looked', fields: ['eta'] } }))
    .count;
  expect(etas).toBeGreaterThan(0);
  await page.getByRole('button', { name: '+ Filter' }).click();
  await page.getByRole('menuitem', { name: 'Kind' }).click();
  const editor = page.getByRole('dialog', { name: 'Filter: Kind' });
  const counted = ipcAnswer(page, 'changes:count', (arg) => JSON.stringify(arg).includes('"eta"'));
  // Each kind is named in words.
  await editor.getByRole('checkbox', { name: 'ETA', exact: true }).check();
  await counted;
  expect(await seriousViolations(page), 'Changes view, kind filter open').toEqual([]);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('status', { name: 'Change count' })).toHaveText(
    `${etas} ${etas === 1 ? 'change' : 'changes'}`,
  );
  await expectRowsLoaded(grid, 1);
  const rows = grid.locator('[role="row"][data-index]');
  await expect(rows).toHaveCount(etas);
  // Each told as the event it is: given, moved (by how much, to when) or no longer given.
  for (const row of await rows.all()) {
    await expect(row.getByRole('gridcell').nth(1)).toHaveText(/^ETA (given: |moved .+, to |no longer given)/);
  }
  await page.screenshot({ path: testInfo.outputPath('changes-view-eta.png') });

  // A row opens its shipment, whose page draws the ETA's history: one whose ETA was revised (an
  // arrival takes the ETA away, which the history says too).
  const revisions = (
    await host.core.handlers['changes:list']({
      filters: { period: 'since_looked', fields: ['eta'] },
      order: 'newest',
      page: { limit: 500 },
    })
  ).rows;
  const change = revisions.find((c) => typeof c.old === 'string' && typeof c.new === 'string');
  expect(change, 'an ETA revised between the syncs').toBeDefined();
  await rows.filter({ hasText: change!.number! }).first().click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(change!.number!);
  const history = page.getByRole('region', { name: 'ETA history' });
  await expect(
    history.getByRole('img', { name: /^The ETA changed once since Quayside first synced this shipment; it is now / }),
  ).toBeVisible();
  const table = history.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(3); // the header, the ETA first synced, the new one
  await expect(table.getByRole('row').nth(1)).toContainText('When first synced');
  await expect(table.locator(`time[datetime="${String(change!.old)}"]`)).toBeVisible();
  await expect(table.locator(`time[datetime="${String(change!.new)}"]`)).toBeVisible();
  await expect(table.locator(`time[datetime="${change!.seenAt}"]`)).toBeVisible();
  await history.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('shipment-eta-history.png') });
  expect(await seriousViolations(page), 'shipment page with ETA history').toEqual([]);

  // Back: the view keeps its filter; the last 7 days, exported, are every change.
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Changes' })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Change count' })).toHaveText(
    `${etas} ${etas === 1 ? 'change' : 'changes'}`,
  );
  await page.getByRole('button', { name: 'Remove filter Kind' }).click();
  await page.getByText('Last 7 days').click();
  await expect(page.getByRole('status', { name: 'Change count' })).toHaveText(`${total} changes`);
  await page.getByRole('button', { name: 'Export CSV' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Exported ${total} changes to` })).toBeVisible();
  const csv = parse<Record<string, string>>(readFileSync(testInfo.outputPath('changes.csv'), 'utf8'), {
    bom: true,
    columns: true,
  });
  expect(csv).toHaveLength(total);
  expect(csv.filter((r) => r.Field === 'eta')).toHaveLength(etas);

  // Marked as looked at: nothing since; the dashboard's tile counts none.
  await page.getByText('Since I last looked').click();
  await page.getByRole('button', { name: 'Mark all as looked at' }).click();
  await expect(page.getByText('Nothing has changed since you last looked.')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('changes-view-looked.png') });
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByTestId('changes-tile')).toContainText('0');
});

test('the Changes view’s custom range and its axe scan in the dark theme', async ({ page }, testInfo) => {
  await host.core.handlers['settings:update']({ theme: 'dark' });
  await page.goto(`${host.url}#/changes`);
  await expect(page.getByRole('heading', { level: 1, name: 'Changes' })).toBeVisible();
  await page.getByText('Custom range').click();
  const today = new Date().toISOString().slice(0, 10);
  const from = page.getByLabel('From', { exact: true });
  const to = page.getByLabel('To', { exact: true });
  // Each day applies on Enter (or on leaving its field), whole.
  await from.fill('2000-01-31');
  await from.press('Enter');
  await to.fill('2000-01-01');
  await to.press('Enter');
  await expect(page.getByText('The end is before the start.')).toBeVisible();
  await from.fill('2000-01-01');
  await from.press('Enter');
  await to.fill('2000-01-31');
  await to.press('Enter');
  await expect(page.getByText('No changes in this period.')).toBeVisible();
  await to.fill(today);
  await to.press('Enter');
  const total = (await host.core.handlers['changes:count']({ filters: { period: 'last_7_days' } })).count;
  await expect(page.getByRole('status', { name: 'Change count' })).toHaveText(`${total} changes`);
  await expectRowsLoaded(page.getByRole('grid', { name: 'Changes' }), 1);
  await page.screenshot({ path: testInfo.outputPath('changes-view-range-dark.png') });
  expect(await seriousViolations(page), 'Changes view, custom range, dark').toEqual([]);
});
