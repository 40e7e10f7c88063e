/**
 * The change history's retention setting: settings.json version 3. A version-2
 * file reads with the default 180 days; a saved retention survives a restart; an update that does
 * not name it leaves it alone; a value that is no whole number of days from 1 to 3650 is refused.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettingsStore, settingsFormat } from '../../src/core/settings-store';
import { settingsPatchSchema } from '../../src/shared/settings';
import { tempDir } from '../helpers/temp-dir';

describe('change history retention setting', () => {
  it('upgrades a version-2 settings.json to version 3 with changes kept 180 days', () => {
    expect(settingsFormat.version).toBeGreaterThanOrEqual(3);
    const dataDir = tempDir();
    const v2 = { version: 2, theme: 'dark', timeDisplay: 'port', syncIntervalMinutes: 30 };
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(v2));
    const store = new SettingsStore(dataDir);
    expect(store.get()).toMatchObject({ theme: 'dark', changeRetentionDays: 180 });
    // Nothing is written until a change; then the file says the current version.
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toEqual(v2);
    store.update({ changeRetentionDays: 45 });
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toMatchObject({
      version: settingsFormat.version,
      theme: 'dark',
      changeRetentionDays: 45,
    });
    expect(new SettingsStore(dataDir).get().changeRetentionDays).toBe(45);
    new SettingsStore(dataDir).update({ theme: 'light' });
    expect(new SettingsStore(dataDir).get()).toMatchObject({ theme: 'light', changeRetentionDays: 45 });
  });

  it('refuses a retention that is no whole number of days from 1 to 3650', () => {
    for (const changeRetentionDays of [0, -5, 1.5, 3651, '90']) {
      expect(settingsPatchSchema.safeParse({ changeRetentionDays }).success, String(changeRetentionDays)).toBe(false);
    }
    expect(settingsPatchSchema.parse({ changeRetentionDays: 3650 })).toEqual({ changeRetentionDays: 3650 });
  });
});
