/**
 * The grouped desktop notification of a sync's alerts and the notification settings: one title
 * with the count, a line per kind (most urgent first) naming a few numbers, the sync's list
 * behind it; settings.json version 5 reads a version-4 file with the defaults.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettingsStore } from '../../src/core/settings-store';
import { defaultNotificationSettings, groupAlerts, type AlertRow } from '../../src/shared/alerts';
import { settingsPatchSchema } from '../../src/shared/settings';
import { tempDir } from '../helpers/temp-dir';

let next = 1;
function alert(rule: AlertRow['rule'], number: string | null): AlertRow {
  return {
    id: next++,
    runId: 7,
    rule,
    resource: rule === 'tracking_failed' ? 'tracking_request' : 'container',
    recordId: `r${next}`,
    number,
    shipmentId: null,
    customer: null,
    detail: 'x',
    raisedAt: '2026-03-02T09:00:00.000Z',
  };
}

describe('a sync’s notification', () => {
  it('is nothing when the sync raised no alert', () => {
    expect(groupAlerts(7, [])).toBeNull();
  });

  it('counts the alerts, says each kind on a line, most urgent first, and opens that sync’s list', () => {
    const n = groupAlerts(7, [
      alert('eta_slip', 'MAEU123'),
      alert('available', 'MSCU1111111'),
      alert('lfd_soon', 'TGHU2222222'),
      alert('lfd_soon', 'TGHU3333333'),
      alert('tracking_failed', 'MSCU1234560'),
    ]);
    expect(n).toEqual({
      title: 'Quayside: 5 alerts from the last sync',
      body: [
        '2 last free days coming, not picked up: TGHU2222222, TGHU3333333',
        '1 container available for pickup: MSCU1111111',
        '1 ETA slipped: MAEU123',
        '1 tracking request failed: MSCU1234560',
      ].join('\n'),
      route: '#/alerts?run=7',
      count: 5,
    });
  });

  it('names three numbers of a kind and says how many more, and reads in the singular for one', () => {
    const many = ['A1', 'A2', 'A3', 'A4', 'A5'].map((number) => alert('hold', number));
    expect(groupAlerts(3, many)?.body).toBe('5 holds put on or released: A1, A2, A3 and 2 more');
    expect(groupAlerts(3, [alert('hold', null)])).toMatchObject({
      title: 'Quayside: 1 alert from the last sync',
      body: '1 hold put on or released',
    });
  });
});

describe('notification settings', () => {
  it('reads a version-4 settings.json with every rule on, desktop on and the demo account off, and writes version 5', () => {
    const dataDir = tempDir();
    const v4 = { version: 4, theme: 'dark', terminalStaleHours: 12 };
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(v4));
    const store = new SettingsStore(dataDir);
    expect(store.get()).toMatchObject({
      theme: 'dark',
      terminalStaleHours: 12,
      notifications: defaultNotificationSettings,
    });
    expect(defaultNotificationSettings).toMatchObject({ desktop: true, inDemo: false, lfdSoon: { on: true, days: 2 } });
    const off = { ...defaultNotificationSettings, holds: { on: false }, etaSlip: { on: true, days: 5 } };
    store.update({ notifications: off });
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toMatchObject({
      version: 5,
      terminalStaleHours: 12,
      notifications: off,
    });
    expect(new SettingsStore(dataDir).get().notifications).toEqual(off);
  });

  it('refuses days out of range, unknown rules and partial rule sets', () => {
    const bad = [
      { ...defaultNotificationSettings, lfdSoon: { on: true, days: 61 } },
      { ...defaultNotificationSettings, etaSlip: { on: true, days: 0 } },
      { ...defaultNotificationSettings, everything: { on: true } },
      { desktop: false },
    ];
    for (const notifications of bad) {
      expect(settingsPatchSchema.safeParse({ notifications }).success, JSON.stringify(notifications)).toBe(false);
    }
  });
});
