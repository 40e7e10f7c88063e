/**
 * Desktop notifications through core: one grouped notification per sync that
 * raised alerts, through the notifier main injects (recorded here); none on the demo account until
 * turned on, none when desktop notifications are off; a click opens the list behind it
 * (`app:navigate` to that sync's alerts, which `alerts:list` answers).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index';
import { defaultNotificationSettings, type AlertsList, type DesktopNotification } from '../../src/shared/alerts';
import type { Settings, SyncStatus } from '../../src/shared/types';
import { failure, syncNow, testCore, value } from '../helpers/core';
import { startTestSandbox } from '../helpers/sandbox';

const DAY = 86_400;

describe('desktop notifications through core', () => {
  let sandbox: Sandbox;
  const apiKey = `notifications-${randomUUID()}`;
  const shown: (DesktopNotification & { open(): void })[] = [];
  const { core } = testCore({
    notify: (notification) => shown.push(notification),
    now: () => sandbox.clock.now(),
    demo: { start: () => Promise.resolve({ url: sandbox.url, apiKey, close: () => Promise.resolve() }) },
  });
  const navigated: string[] = [];
  const stop = core.events.subscribe((event, payload) => {
    if (event === 'app:navigate') navigated.push((payload as { route: string }).route);
  });

  beforeAll(async () => {
    sandbox = await startTestSandbox({
      // The seed and size of alerts-sync.test.ts: its first sync finds last free days within 2 days.
      seed: 'alerts',
      shipments: 80,
      apiKeys: [apiKey],
      start: Date.parse('2026-03-02T09:00:00Z'),
      tick: 0,
      routing: false,
    });
  });
  afterAll(async () => {
    stop();
    await core.close();
    await sandbox.close();
  });

  it('shows nothing on the demo account by default, then one grouped notification per sync once turned on', async () => {
    // The defaults: every rule on, desktop on, but not on the demo account.
    expect((await value<Settings>(core, 'settings:get')).notifications).toEqual(defaultNotificationSettings);
    expect((await syncNow(core, 'full')).state).toBe('idle');
    expect(shown).toEqual([]);
    // The alerts were raised all the same, and are listed.
    const firstList = await value<AlertsList>(core, 'alerts:list', {});
    expect(firstList.alerts.length).toBeGreaterThan(0);
    expect(new Set(firstList.alerts.map((a) => a.rule))).toEqual(new Set(['lfd_soon']));

    await value(core, 'settings:update', { notifications: { ...defaultNotificationSettings, inDemo: true } });
    sandbox.advance(4 * DAY);
    const status = (await syncNow(core, 'incremental')) as SyncStatus;
    expect(status.state).toBe('idle');
    expect(shown).toHaveLength(1);
    const [note] = shown;
    const runId = status.lastRun!.id;
    expect(note!.route).toBe(`#/alerts?run=${runId}`);
    const ofRun = await value<AlertsList>(core, 'alerts:list', { runId });
    expect(note!.count).toBe(ofRun.alerts.length);
    expect(note!.title).toBe(`Quayside: ${ofRun.alerts.length} alerts from the last sync`);
    // A line per kind raised, naming a number of each.
    const kinds = new Set(ofRun.alerts.map((a) => a.rule));
    expect(note!.body.split('\n')).toHaveLength(kinds.size);
    for (const alert of ofRun.alerts.slice(0, 1)) expect(note!.body).toContain(alert.number!);
    expect(ofRun.runs[0]).toMatchObject({ runId, count: ofRun.alerts.length });

    // A click: the app is told to show that sync's alerts.
    note!.open();
    expect(navigated).toEqual([`#/alerts?run=${runId}`]);

    // A sync that raises nothing shows nothing; desktop notifications off show nothing either.
    expect((await syncNow(core, 'incremental')).state).toBe('idle');
    expect(shown).toHaveLength(1);
    await value(core, 'settings:update', {
      notifications: { ...defaultNotificationSettings, inDemo: true, desktop: false },
    });
    sandbox.advance(3 * DAY);
    expect((await syncNow(core, 'incremental')).state).toBe('idle');
    expect(shown).toHaveLength(1);
    const every = await value<AlertsList>(core, 'alerts:list', { all: true, limit: 5000 });
    expect(every.alerts.length).toBeGreaterThan(firstList.alerts.length + ofRun.alerts.length);

    // Without a sync, an instant or `all`: the newest sync's that raised any, in one call.
    const latest = await value<AlertsList>(core, 'alerts:list', {});
    const newest = latest.runs[0]!.runId;
    expect(newest).toBeGreaterThan(runId);
    expect(latest.alerts.length).toBeGreaterThan(0);
    expect(latest.alerts).toEqual((await value<AlertsList>(core, 'alerts:list', { runId: newest })).alerts);
    expect(new Set(every.alerts.map((a) => a.runId)).size).toBeGreaterThan(1);
    // The rules filter narrows the newest sync's alerts, not which sync is the newest.
    const oneRule = latest.alerts[0]!.rule;
    const ofRule = await value<AlertsList>(core, 'alerts:list', { rules: [oneRule] });
    expect(ofRule.alerts.length).toBeGreaterThan(0);
    expect(ofRule.alerts).toEqual(latest.alerts.filter((a) => a.rule === oneRule));
  });

  it('refuses a rule with days out of range, and an unknown rule in a filter, before anything is saved', async () => {
    const before = await value<Settings>(core, 'settings:get');
    const refused = await failure(core, 'settings:update', {
      notifications: { ...defaultNotificationSettings, etaSlip: { on: true, days: 0 } },
    });
    expect(refused.code).toBe('invalid_argument');
    expect(await value<Settings>(core, 'settings:get')).toEqual(before);
    expect((await failure(core, 'alerts:list', { rules: ['everything'] })).code).toBe('invalid_argument');
  });
});
