import { defaultNotificationSettings } from '../../src/shared/alerts';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/core/core';
import { resolveDataDir } from '../../src/core/paths';
import { tempDir } from '../helpers/temp-dir';

describe('core', () => {
  it('reports its version, data folder and that it shows demo data until a profile exists', async () => {
    const dataDir = tempDir();
    const core = createCore({ dataDir, appVersion: '1.2.3', autoSync: false });
    expect(await core.call('app:info', undefined)).toMatchObject({
      ok: true,
      value: { name: 'Quayside', version: '1.2.3', dataDir, demo: true },
    });
    await core.close();
  });

  it('keeps settings across restarts and announces a change', async () => {
    const dataDir = tempDir();
    const first = createCore({ dataDir, appVersion: '1', autoSync: false });
    const seen: unknown[] = [];
    first.events.subscribe((event, payload) => seen.push([event, payload]));
    await first.call('settings:update', { theme: 'dark', syncIntervalMinutes: 30 });
    const noRates = { currency: 'USD', sets: [] };
    const documentFiles = { maxFileMb: 25, maxTotalMb: 2048 };
    const changeRetentionDays = 180;
    const terminalStaleHours = 24;
    expect(seen).toEqual([
      [
        'settings:changed',
        {
          theme: 'dark',
          timeDisplay: 'local',
          syncIntervalMinutes: 30,
          rates: noRates,
          documentFiles,
          changeRetentionDays,
          terminalStaleHours,
          notifications: defaultNotificationSettings,
        },
      ],
    ]);
    await first.close();

    const second = createCore({ dataDir, appVersion: '1', autoSync: false });
    expect(await second.call('settings:get', undefined)).toEqual({
      ok: true,
      value: {
        theme: 'dark',
        timeDisplay: 'local',
        syncIntervalMinutes: 30,
        rates: noRates,
        documentFiles,
        changeRetentionDays,
        terminalStaleHours,
        notifications: defaultNotificationSettings,
      },
    });
  });

  it('starts with defaults from a damaged settings file and, on the next save, keeps it aside and writes a fresh one', async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'settings.json'), '{"theme": "dark", ');
    const logged: string[] = [];
    const core = createCore({ dataDir, appVersion: '1', autoSync: false, log: (message) => logged.push(message) });
    expect(await core.call('settings:get', undefined)).toMatchObject({ ok: true, value: { theme: 'system' } });
    expect(logged).toEqual(['settings.json is not readable (it is not JSON); using default settings']);
    await core.call('settings:update', { timeDisplay: 'port' });
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toEqual({
      version: 5,
      theme: 'system',
      timeDisplay: 'port',
      syncIntervalMinutes: 15,
      rates: { currency: 'USD', sets: [] },
      documentFiles: { maxFileMb: 25, maxTotalMb: 2048 },
      changeRetentionDays: 180,
      terminalStaleHours: 24,
      notifications: defaultNotificationSettings,
    });
    const aside = readdirSync(dataDir).find((name) => name.startsWith('settings.json.unreadable-'));
    expect(aside && readFileSync(join(dataDir, aside), 'utf8')).toBe('{"theme": "dark", ');
  });

  it('keeps the previous settings when a save fails', async () => {
    const dataDir = tempDir();
    const core = createCore({ dataDir, appVersion: '1', autoSync: false });
    await core.call('settings:update', { theme: 'light' });
    // A folder where the temp file would go makes the write fail like a full disk would.
    mkdirSync(join(dataDir, `settings.json.${process.pid}.tmp`));
    const failed = await core.call('settings:update', { theme: 'dark' });
    expect(failed).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(await core.call('settings:get', undefined)).toMatchObject({ ok: true, value: { theme: 'light' } });
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toMatchObject({ theme: 'light' });
  });
});

describe('data folder', () => {
  it('is QUAYSIDE_DATA_DIR when set, created if missing, else the user-data folder', () => {
    const base = tempDir();
    expect(resolveDataDir({ QUAYSIDE_DATA_DIR: join(base, 'a', 'b') }, '/unused')).toBe(join(base, 'a', 'b'));
    expect(existsSync(join(base, 'a', 'b'))).toBe(true);
    expect(resolveDataDir({ QUAYSIDE_DATA_DIR: '  ' }, join(base, 'user'))).toBe(join(base, 'user'));
    expect(resolveDataDir({}, join(base, 'user2'))).toBe(join(base, 'user2'));
  });
});
