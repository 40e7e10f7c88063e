/**
 * Alerts and desktop notifications in the app: the rules in Settings (turned on
 * for the demo account there), a sync of a sandbox whose clock jumped four days, the one grouped
 * notification it shows (recorded by the test host, as main would show it), its click opening
 * that sync's alerts, and a row opening its container. Screenshots and axe scans.
 */
import { randomUUID } from 'node:crypto';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index';
import type { DesktopNotification } from '../../../src/shared/alerts';
import { expect, syncStatus, test, waitForFirstSync, seriousViolations } from '../fixtures';
import { startTestHost, type TestHost } from '../host/server';

let sandbox: Sandbox;
let host: TestHost;
const shown: (DesktopNotification & { open(): void })[] = [];
const apiKey = `e2e-alerts-${randomUUID()}`;

test.beforeEach(async ({}, testInfo) => {
  shown.length = 0;
  // The seed of alerts-sync.test.ts: boxes due within two days at the first sync, and more four days on.
  sandbox = await startSandbox({
    seed: 'alerts',
    shipments: 80,
    apiKeys: [apiKey],
    start: Date.parse('2026-03-02T09:00:00Z'),
    tick: 0,
    routing: false,
  });
  host = await startTestHost({
    dataDir: testInfo.outputPath('data'),
    notify: (notification) => shown.push(notification),
    now: () => sandbox.clock.now(),
    demo: { start: () => Promise.resolve({ url: sandbox.url, apiKey, close: () => Promise.resolve() }) },
  });
  await waitForFirstSync(host);
});
test.afterEach(async () => {
  await host.close();
  await sandbox.close();
});

test('rules in Settings, one notification per sync, its click opens that sync’s alerts, a row opens its container', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  // The first sync raised alerts (last free days coming) but the demo account shows no notification by default.
  expect(shown).toEqual([]);
  expect((await host.core.handlers['alerts:list']({ limit: 1000 })).alerts.length).toBeGreaterThan(0);

  // Settings: the rules with their days, and desktop notifications for the demo account turned on.
  await page.goto(`${host.url}#/settings`);
  const section = page.getByRole('region', { name: 'Alerts and notifications' });
  await expect(section.getByRole('checkbox', { name: /last free day is within/ })).toBeChecked();
  await expect(section.getByRole('combobox', { name: 'Days before the last free day' })).toHaveValue('2');
  const demo = section.getByRole('checkbox', { name: 'Also for the demo account' });
  await expect(demo).not.toBeChecked();
  await section.getByRole('combobox', { name: 'Days an ETA must slip' }).selectOption('1');
  await demo.check();
  await expect
    .poll(async () => (await host.core.handlers['settings:get'](undefined)).notifications)
    .toMatchObject({ inDemo: true, etaSlip: { on: true, days: 1 } });
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('settings-notifications.png') });
  expect(await seriousViolations(page), 'Settings').toEqual([]);

  // Four days on, a sync: one notification for all it raised.
  const before = await host.core.handlers['sync:status'](undefined);
  sandbox.advance(4 * 86_400);
  await host.core.handlers['sync:start']({ mode: 'incremental' });
  const after = await syncStatus(
    host,
    (s) => s.state === 'idle' && s.lastRun !== null && s.lastRun.id !== before.lastRun?.id,
  );
  const runId = after.lastRun!.id;
  expect(shown).toHaveLength(1);
  const note = shown[0]!;
  const raised = (await host.core.handlers['alerts:list']({ runId, limit: 1000 })).alerts;
  expect(note).toMatchObject({ route: `#/alerts?run=${runId}`, count: raised.length });
  expect(note.title).toBe(`Quayside: ${raised.length} alerts from the last sync`);

  // The click: the window shows that sync's alerts, as many as the notification counted.
  await page.goto(`${host.url}#/dashboard`);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  note.open();
  await expect(page).toHaveURL(new RegExp(`#/alerts\\?run=${runId}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Alerts' })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Alert count' })).toHaveText(`${raised.length} alerts`);
  const table = page.getByRole('table', { name: 'Alerts, newest first, most urgent first within a sync' });
  await expect(table.getByRole('row')).toHaveCount(raised.length + 1);
  await expect(page.getByRole('combobox', { name: 'Show' })).toHaveValue(`run:${runId}`);
  // Most urgent first, as the notification lists them: last free days lead.
  await expect(table.getByRole('row').nth(1).getByRole('cell').first()).toHaveText(
    'Last free day coming, not picked up',
  );
  await page.screenshot({ path: testInfo.outputPath('alerts-of-a-sync.png') });
  expect(await seriousViolations(page), 'Alerts view').toEqual([]);

  // The Kind select narrows the list to one rule.
  const lfd = raised.filter((a) => a.rule === 'lfd_soon');
  expect(lfd.length).toBeGreaterThan(0);
  await page.getByRole('combobox', { name: 'Kind' }).selectOption({ label: 'Last free day coming, not picked up' });
  await expect(table.getByRole('row')).toHaveCount(lfd.length + 1);

  // A row's number opens its container.
  const first = lfd[0]!;
  await table
    .getByRole('link', { name: `Container ${first.number}` })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`#/containers/${first.recordId}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(first.number!);

  // From the sidebar, the latest sync with alerts is shown.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }).click();
  await expect(page.getByRole('combobox', { name: 'Show' })).toHaveValue('latest');
  await expect(
    page.getByRole('table', { name: 'Alerts, newest first, most urgent first within a sync' }).getByRole('row'),
  ).toHaveCount(raised.length + 1);
});
