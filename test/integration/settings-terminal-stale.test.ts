/**
 * Pickup truth's stale setting: settings.json version 4. A version-3 file reads
 * with the default 24 hours and keeps its other settings; a saved value survives a restart; a
 * value that is no whole number of hours from 1 to 336 is refused with a sentence.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettingsStore, settingsFormat } from '../../src/core/settings-store';
import { settingsPatchSchema } from '../../src/shared/settings';
import { tempDir } from '../helpers/temp-dir';

describe('terminal data stale setting', () => {
  it('upgrades a version-3 settings.json to version 4 with 24 hours', () => {
    // Version 5 (notification rules) followed; the upgrade from 3 still adds the 24 hours.
    expect(settingsFormat.version).toBe(5);
    const dataDir = tempDir();
    const v3 = { version: 3, theme: 'dark', timeDisplay: 'port', syncIntervalMinutes: 30, changeRetentionDays: 60 };
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(v3));
    const store = new SettingsStore(dataDir);
    expect(store.get()).toMatchObject({ theme: 'dark', changeRetentionDays: 60, terminalStaleHours: 24 });
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toEqual(v3);
    store.update({ terminalStaleHours: 12 });
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toMatchObject({
      version: 5,
      changeRetentionDays: 60,
      terminalStaleHours: 12,
    });
    expect(new SettingsStore(dataDir).get().terminalStaleHours).toBe(12);
  });

  it('reads a version-1 file through every upgrade', () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ theme: 'light' }));
    expect(new SettingsStore(dataDir).get()).toMatchObject({
      theme: 'light',
      rates: { currency: 'USD', sets: [] },
      changeRetentionDays: 180,
      terminalStaleHours: 24,
    });
  });

  it('refuses hours that are not whole, under 1 or over 336', () => {
    for (const terminalStaleHours of [0, -1, 2.5, 337, '24']) {
      const result = settingsPatchSchema.safeParse({ terminalStaleHours });
      expect(result.success, String(terminalStaleHours)).toBe(false);
    }
    expect(settingsPatchSchema.safeParse({ terminalStaleHours: 400 }).error?.issues[0]?.message).toBe(
      'At most 336 hours (14 days).',
    );
    expect(settingsPatchSchema.parse({ terminalStaleHours: 336 })).toEqual({ terminalStaleHours: 336 });
  });
});
