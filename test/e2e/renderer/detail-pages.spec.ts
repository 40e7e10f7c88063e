/**
 * The container and shipment pages say each fact once, grouped by what a forwarder asks (where is
 * it, can I pick it up, what will it cost, what happened), with one refresh; a change reads as the
 * event it is (an ETA cleared by the arrival is "Arrived …"), and an ETA's slip is measured from
 * one baseline, the carrier's first ETA, on the route and in the ETA history alike. Two syncs of a
 * sandbox whose clock jumps four days between them; screenshots in light and dark at 1366×768.
 */
import { randomUUID } from 'node:crypto';
import type { Page, TestInfo } from '@playwright/test';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index';
import type { ChangeRow } from '../../../src/shared/changes';
import { pickupTruth } from '../../../src/shared/pickup';
import { containerStatusLabels, type ContainerStatus } from '../../../src/shared/status';
import {
  expect,
  expectRowsLoaded,
  ipcAnswer,
  seriousViolations,
  syncStatus,
  test,
  waitForFirstSync,
} from '../fixtures';
import { startTestHost, type TestHost } from '../host/server';

let sandbox: Sandbox;
let host: TestHost;
let changes: ChangeRow[];
const groups = ['Where is it?', 'Can I pick it up?', 'What will it cost?', 'What happened?'];

test.beforeEach(async ({}, testInfo) => {
  // Frozen, then moved on by hand: boxes are discharged, given last free days and held, vessels arrive.
  // A key of each test's own (the client keeps one limiter per key), and a limit the test cannot spend.
  const apiKey = `e2e-detail-${randomUUID()}`;
  sandbox = await startSandbox({
    seed: 'e2e-changes',
    shipments: 60,
    apiKeys: [apiKey],
    tick: 0,
    routing: false,
    rateLimit: { limit: 10_000, windowSeconds: 60 },
  });
  host = await startTestHost({
    dataDir: testInfo.outputPath('data'),
    demo: { start: () => Promise.resolve({ url: sandbox.url, apiKey, close: () => Promise.resolve() }) },
  });
  await waitForFirstSync(host);
  const first = await host.core.handlers['sync:status'](undefined);
  sandbox.advance(4 * 86_400);
  await host.core.handlers['sync:start']({ mode: 'incremental' });
  await syncStatus(host, (s) => s.state === 'idle' && s.lastRun !== null && s.lastRun.id !== first.lastRun?.id);
  changes = (
    await host.core.handlers['changes:list']({
      filters: { period: 'since_looked' },
      order: 'newest',
      page: { limit: 1000 },
    })
  ).rows;
});
test.afterEach(async () => {
  await host.close();
  await sandbox.close();
});

/** The page in light, then in dark, at its top and at each part named. */
async function shoot(page: Page, testInfo: TestInfo, name: string, parts: string[]): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await host.core.handlers['settings:update']({ theme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await page.getByRole('heading', { level: 1 }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`${name}-${theme}.png`) });
    for (const part of parts) {
      await page.getByRole('heading', { level: 2, name: part }).evaluate((h) => h.scrollIntoView());
      await page.screenshot({
        path: testInfo.outputPath(`${name}-${part.replace(/\W+/g, '-').toLowerCase()}${theme}.png`),
      });
    }
    expect(await seriousViolations(page), `${name}, ${theme}`).toEqual([]);
  }
}

test('a container page says each fact once, grouped by question, with one refresh and its changes as events', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  // A box the second sync saw discharged, given its last free day and (where one was) put on hold.
  const given = changes.filter((c) => c.resource === 'container' && c.field === 'lfd_terminal' && c.old === null);
  const held = (c: ChangeRow) =>
    changes.some((h) => h.recordId === c.recordId && h.field === 'hold' && h.new === 'hold');
  const lfd = given.find(held) ?? given[0];
  expect(lfd, 'the second sync gave a box its last free day').toBeDefined();
  const detail = await host.core.handlers['containers:get']({ id: lfd!.recordId });
  const box = detail.container;
  const own = changes.filter((c) => c.recordId === box.id);

  await page.goto(`${host.url}#/containers/${box.id}`);
  await expect(page.getByRole('heading', { level: 1, name: box.number! })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: /\?$/ })).toHaveText(groups);

  // Can I pick it up: one answer on the page, with the last free day and whose it is, and what blocks it.
  const pickup = page.getByRole('region', { name: 'Can I pick it up?' });
  const truth = pickupTruth({ ...box, facilityHolds: detail.facilityHolds ?? box.facilityHolds }, Date.now());
  const verdict = { ready: 'Ready for pickup', not_ready: 'Not ready', unknown: 'Can’t tell', done: 'Picked up' }[
    truth.state
  ];
  await expect(pickup.locator('.verdict strong')).toHaveText(verdict);
  await expect(page.getByText(verdict, { exact: true })).toHaveCount(1);
  await expect(page.getByText('Last free day', { exact: true })).toHaveCount(1);
  await expect(pickup).toContainText(/\((Terminal|Rail ramp)/);
  for (const reason of truth.reasons)
    await expect(pickup.getByRole('list', { name: 'Why not ready' })).toContainText(reason);
  await expect(page.getByText(/^Pickup:|^Holds$/)).toHaveCount(0);

  // Where is it: the status once, beside the place; the milestones in the same part.
  const where = page.getByRole('region', { name: 'Where is it?' });
  await expect(where.getByText(containerStatusLabels[box.status], { exact: true })).toHaveCount(1);
  await expect(page.getByText(containerStatusLabels[box.status], { exact: true })).toHaveCount(1);
  await expect(where.getByRole('list', { name: `Milestones of ${box.number!}` })).toBeVisible();

  // What will it cost: the fees, and demurrage and detention so far.
  await expect(page.getByRole('region', { name: 'What will it cost?' })).toContainText('Terminal fees');

  // What happened: the second sync's changes of this box as the events they are.
  const happened = page
    .getByRole('region', { name: 'What happened?' })
    .getByRole('list', { name: 'What changed on this container, newest first' });
  await expect(happened).toContainText(/Last free day set: \w{3}, \w{3} \d+, \d{4} \(terminal/);
  const status = own.find((c) => c.field === 'status');
  if (status?.old) {
    await expect(happened).toContainText(
      `${containerStatusLabels[status.new as ContainerStatus]} (was ${containerStatusLabels[status.old as ContainerStatus]})`,
    );
  }
  if (held(lfd!)) await expect(happened).toContainText('hold put on');
  await expect(happened).not.toContainText('→');

  // One refresh: it asks the service to look the box up and fetches the latest events.
  await expect(page.getByRole('button', { name: /refresh/i })).toHaveCount(1);
  const refresh = page.getByRole('button', { name: 'Refresh now' });
  const asked = ipcAnswer(page, 'containers:refresh');
  const fetched = ipcAnswer(page, 'containers:events', (arg) => (arg as { refresh?: boolean }).refresh === true);
  await refresh.click();
  await Promise.all([asked, fetched]);
  await expect(refresh).toHaveAccessibleDescription(
    /^Started refresh for .+\. What they report arrives with the next sync; the events below are the latest the service has\.$/,
  );
  await expect(page.getByRole('region', { name: 'Milestones and transport events' })).toContainText(/fetched just now/);

  await shoot(page, testInfo, 'container', ['What happened?']);
});

test('a shipment page says each fact once, an arrival as an arrival, and its slip from the carrier’s first ETA', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  // A shipment whose vessel arrived between the syncs, the carrier's first ETA known.
  let arrived: Awaited<ReturnType<TestHost['core']['handlers']['shipments:get']>> | undefined;
  for (const c of changes.filter((c) => c.resource === 'shipment' && c.field === 'ata' && c.old === null)) {
    const detail = await host.core.handlers['shipments:get']({ id: c.recordId });
    if (detail.shipment.originalEta && detail.shipment.ata) {
      arrived = detail;
      break;
    }
  }
  expect(arrived, 'a vessel arrived between the syncs').toBeDefined();
  const s = arrived!.shipment;
  const bl = s.billOfLading!;

  // The Changes view tells the arrival once, as an arrival; the ETA it cleared is not a row of its own.
  await page.goto(`${host.url}#/changes`);
  await page.getByRole('button', { name: '+ Filter' }).click();
  await page.getByRole('menuitem', { name: 'Kind' }).click();
  const kinds = page.getByRole('dialog', { name: 'Filter: Kind' });
  await kinds.getByRole('checkbox', { name: 'ETA', exact: true }).check();
  const counted = ipcAnswer(page, 'changes:count', (arg) => JSON.stringify(arg).includes('"ata"'));
  await kinds.getByRole('checkbox', { name: 'Arrived (ATA)', exact: true }).check();
  await counted;
  await page.keyboard.press('Escape');
  const grid = page.getByRole('grid', { name: 'Changes' });
  await expectRowsLoaded(grid);
  const rows = grid.locator('[role="row"][data-index]').filter({ hasText: bl });
  await expect(rows.getByText(/^Arrived \w{3} \d+, \d\d:\d\d\s[AP]M/)).toHaveCount(1);
  await expect(grid.getByText(/^ETA no longer given/)).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('changes-arrival-light.png') });

  // Its row opens the shipment.
  await rows.filter({ hasText: 'Arrived' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(bl);
  await expect(page.getByRole('heading', { level: 2, name: /\?$/ })).toHaveText(groups);

  // One baseline: the route's badge, the ETA history's sentence and its arrival row say the same slip.
  const days = Math.round(((Date.parse(s.ata!) - Date.parse(s.originalEta!)) / 86_400_000) * 10) / 10;
  const slip = `${Math.abs(days)} ${Math.abs(days) === 1 ? 'day' : 'days'} ${days > 0 ? 'later' : 'earlier'}`;
  expect(Math.abs(days), 'the arrival is a day or more off the first ETA').toBeGreaterThanOrEqual(1);
  await expect(page.getByRole('region', { name: 'Route' }).locator('.slip')).toHaveText(`${slip} than first said`);
  const history = page.getByRole('region', { name: 'ETA history' });
  await expect(history.locator('.summary')).toContainText(`the vessel arrived`);
  await expect(history.locator('.summary')).toContainText(`${slip} than first said (the carrier’s first ETA:`);
  const last = history.getByRole('row').last();
  await expect(last).toContainText('Arrived');
  await expect(last.getByRole('cell').last()).toHaveText(slip);
  await expect(page.getByText(/than first said/)).toHaveCount(2);
  await expect(page.getByText(/in all/)).toHaveCount(0);

  // What happened: the other changes, without the ETA and the arrival the history tells.
  const other = page.getByRole('region', { name: 'What happened?' }).getByRole('region', { name: 'Changes' });
  await expect(other).not.toContainText('ETA moved');
  await expect(other.getByText(/^Arrived \w{3} /)).toHaveCount(0);

  // Can I pick it up: each box's one pickup answer; no box repeats it.
  const pickup = page.getByRole('region', { name: 'Can I pick it up?' });
  await expect(pickup.getByRole('article')).toHaveCount(arrived!.containers.length);
  await expect(pickup.getByTestId('pickup-card')).toHaveCount(arrived!.containers.length);
  await expect(page.getByText(/^Pickup:/)).toHaveCount(0);

  await shoot(page, testInfo, 'shipment', ['Can I pick it up?', 'What happened?']);
});
