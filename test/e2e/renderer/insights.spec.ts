/**
 * Insights at 1366×768: opened from the sidebar, the carriers table reads the figures
 * `insights:get` answers for the same request (shipments and on-time share per carrier); a
 * carrier's bar opens the shipments behind it, as many as the group counts; Export CSV writes the
 * table's rows; the terminals tab shows dwell in days. Screenshots light and dark, axe clean.
 */
import { parse } from 'csv-parse/sync';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { InsightsRequest, InsightsResult } from '../../../src/shared/insights';
import { expect, seriousViolations, test, waitForFirstSync } from '../fixtures';

/** The arguments the page sends on `insights:get`, as they are sent. */
function insightsRequests(page: Page): InsightsRequest[] {
  const sent: InsightsRequest[] = [];
  page.on('request', (request) => {
    if (!request.url().endsWith('/__host/ipc') || request.method() !== 'POST') return;
    const body = request.postDataJSON() as { channel?: string; arg?: InsightsRequest };
    if (body.channel === 'insights:get' && body.arg) sent.push(body.arg);
  });
  return sent;
}

const percent = (share: number | null) => (share === null ? '–' : `${Math.round(share * 100)}%`);

test('Insights: the carriers table reads what insights:get answers, a bar opens its shipments, export writes the rows', async ({
  page,
  host,
  exportPath,
}, testInfo) => {
  test.setTimeout(120_000);
  await waitForFirstSync(host);
  const sent = insightsRequests(page);
  await page.goto(host.url);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Insights', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Insights' })).toBeVisible();

  const table = page.getByRole('table', { name: /^Carriers: arrival reliability/ });
  await expect(table).toBeVisible();
  // The carriers alone first (no months), then every table with its months.
  await expect.poll(() => sent.length).toBeGreaterThanOrEqual(2);
  expect(sent[0]).toMatchObject({ tables: ['carriers'], months: false });
  expect(sent[1]).toMatchObject({ months: true });
  expect(sent[1]!.tables).toBeUndefined();
  await expect(page.getByText('Reading the months…')).toHaveCount(0);

  const { tables: _tables, months: _months, ...asked } = sent[1]!;
  expect(asked.from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  const result: InsightsResult = await host.core.handlers['insights:get'](asked);
  expect(result.carriers.length).toBeGreaterThan(1);
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(result.carriers.length);
  // A few groups' counts and on-time shares, as displayed.
  for (const g of [...result.carriers].sort((a, b) => b.shipments - a.shipments).slice(0, 3)) {
    const row = rows.filter({ has: page.getByRole('rowheader', { name: new RegExp(g.carrier!) }) });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('cell').nth(1)).toContainText(String(g.shipments));
    await expect(row.getByRole('cell').nth(2)).toContainText(percent(g.onTime.share));
    await expect(row.getByRole('cell').nth(2)).toContainText(`of ${g.onTime.count}`);
  }

  await page.screenshot({ path: testInfo.outputPath('insights-carriers-light.png'), fullPage: false });
  expect(await seriousViolations(page)).toEqual([]);

  // Export CSV: the table's rows, ranked ones first, each with the figures shown.
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await page
    .getByRole('menu', { name: 'Export the carriers table' })
    .getByRole('menuitem', { name: 'Export CSV' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Exported' })).toHaveText(
    new RegExp(`Exported ${result.carriers.length} rows? to .*export\\.csv`),
  );
  const csv = parse<Record<string, string>>(readFileSync(exportPath, 'utf8').replace(/^\uFEFF/, ''), {
    columns: true,
  });
  expect(csv).toHaveLength(result.carriers.length);
  const byKey = new Map(result.carriers.map((g) => [g.key, g]));
  for (const line of csv) {
    const g = byKey.get(line.Key!);
    expect(g, `exported carrier ${line.Key}`).toBeDefined();
    expect(Number(line.Shipments)).toBe(g!.shipments);
  }

  // The best ranked carrier's bar opens its shipments arrived in those days: as many as it counts.
  const best = result.carriers.find((g) => g.rank === 1)!;
  const bar = page.getByRole('list', { name: 'On-time share by carrier' }).getByRole('link').first();
  await expect(bar).toHaveAccessibleName(new RegExp(`^Rank 1 .*${best.shipments} shipments`));
  await bar.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Shipments' })).toBeVisible();
  const count = page.getByRole('status', { name: 'Row count' });
  await expect(count).toHaveText(new RegExp(`^${best.shipments} of [\\d,]+ shipments$`));
});

test('Insights: a carrier on a lane under the minimum is greyed and unranked; terminals show dwell in days; light and dark', async ({
  page,
  host,
}, testInfo) => {
  test.setTimeout(120_000);
  await waitForFirstSync(host);
  const sent = insightsRequests(page);
  await page.goto(`${host.url}#/insights`);
  await expect(page.getByRole('table', { name: /^Carriers: arrival reliability/ })).toBeVisible();
  await expect(page.getByText('Reading the months…')).toHaveCount(0);
  const { tables: _tables, months: _months, ...asked } = sent.at(-1)!;
  const result: InsightsResult = await host.core.handlers['insights:get'](asked);

  // Carrier × lane: the groups are many and most are small; one says so and has no rank.
  await page.getByRole('tab', { name: 'Carrier × lane' }).click();
  const lanes = page.getByRole('table', { name: /^Carrier × lane: arrival reliability/ });
  await expect(lanes.locator('tbody tr')).toHaveCount(result.carrierLanes.length);
  const small = result.carrierLanes.find((g) => g.small && g.carrier && g.pol && g.pod)!;
  expect(small).toBeDefined();
  const smallRow = lanes.locator('tbody tr').filter({ hasText: `${small.carrier} ${small.pol} → ${small.pod}` });
  await expect(smallRow).toHaveCount(1);
  await expect(smallRow).toContainText(`fewer than ${result.minimum}: not ranked`);
  await expect(smallRow.getByRole('cell').first()).toHaveText('–');
  await expect(smallRow).toHaveClass(/small/);

  // Terminals, from the keyboard: End moves to the last tab.
  await page.getByRole('tab', { name: 'Carrier × lane' }).focus();
  await page.keyboard.press('End');
  await expect(page.getByRole('tab', { name: 'Terminals' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Terminals' })).toBeFocused();
  const table = page.getByRole('table', { name: /^Terminals: dwell in days/ });
  await expect(table.locator('tbody tr')).toHaveCount(result.terminals.length);
  const best = result.terminals.find((g) => g.rank === 1)!;
  const bestRow = table.locator('tbody tr').first();
  await expect(bestRow.getByRole('rowheader')).toHaveText(best.name ?? best.key);
  await expect(bestRow.getByRole('cell').nth(1)).toContainText(String(best.containers));
  const days = (d: number | null) => `${Number(d!.toFixed(1))} d`;
  await expect(bestRow.getByRole('cell').nth(4)).toContainText(
    `${days(best.dischargeToPickedUp.p50)} / ${days(best.dischargeToPickedUp.p90)}`,
  );
  await expect(bestRow.getByRole('cell').nth(4)).toContainText(`of ${best.dischargeToPickedUp.count}`);
  await page.screenshot({ path: testInfo.outputPath('insights-terminals-light.png') });
  expect(await seriousViolations(page)).toEqual([]);

  await host.core.handlers['settings:update']({ theme: 'dark' });
  await expect(page.locator('html[data-theme=dark]')).toBeAttached();
  await page.screenshot({ path: testInfo.outputPath('insights-terminals-dark.png') });
  await page.getByRole('tab', { name: 'Carriers' }).click();
  await expect(page.getByRole('table', { name: /^Carriers: arrival reliability/ })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('insights-carriers-dark.png') });
  expect(await seriousViolations(page)).toEqual([]);

  // One customer's: picked by its name, the figures are that customer's shipments alone.
  const { options } = await host.core.handlers['filters:values']({ source: 'customers', query: '', limit: 1 });
  const customer = options[0]!.value;
  await page.getByRole('combobox', { name: 'Customer' }).fill(customer);
  await page.getByRole('combobox', { name: 'Customer' }).press('Enter');
  await expect(page.getByText(`, for ${customer}.`)).toBeVisible();
  await expect.poll(() => sent.at(-1)?.customer).toBe(customer);
  await expect(page.getByText('Reading the months…')).toHaveCount(0);
  const theirs: InsightsResult = await host.core.handlers['insights:get']({ ...asked, customer });
  const carriers = page.getByRole('table', { name: /^Carriers: arrival reliability/ });
  await expect(carriers.locator('tbody tr')).toHaveCount(theirs.carriers.length);
  const total = theirs.carriers.reduce((sum, g) => sum + g.shipments, 0);
  expect(total).toBeLessThan(result.carriers.reduce((sum, g) => sum + g.shipments, 0));
  const shown = await carriers
    .locator('tbody tr td:nth-child(3)')
    .evaluateAll((cells) => cells.map((cell) => Number(/^\s*(\d+)/.exec(cell.textContent ?? '')?.[1])));
  expect(shown.reduce((sum, n) => sum + n, 0)).toBe(total);
});
