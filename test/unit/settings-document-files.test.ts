/**
 * The document file size setting: a settings file written before it reads with
 * the defaults (25 MB a file, 2 GB in all) without a new file version, an update that names other
 * settings leaves it alone, and a bad value is refused.
 */
import { describe, expect, it } from 'vitest';
import { defaultSettings, settingsPatchSchema, settingsSchema } from '../../src/shared/settings';

describe('documentFiles setting', () => {
  it('reads a file written before it with the defaults', () => {
    const { documentFiles: _left, ...older } = defaultSettings;
    expect(settingsSchema.parse(older).documentFiles).toEqual({ maxFileMb: 25, maxTotalMb: 2048 });
  });

  it('is left out of an update that does not name it, and taken from one that does', () => {
    expect(settingsPatchSchema.parse({ theme: 'dark' })).toEqual({ theme: 'dark' });
    expect(settingsPatchSchema.parse({ documentFiles: { maxFileMb: 5, maxTotalMb: 100 } })).toEqual({
      documentFiles: { maxFileMb: 5, maxTotalMb: 100 },
    });
  });

  it('refuses sizes that are negative, fractional or missing', () => {
    for (const documentFiles of [
      { maxFileMb: -1, maxTotalMb: 10 },
      { maxFileMb: 1.5, maxTotalMb: 10 },
      { maxFileMb: 1 },
    ]) {
      expect(settingsPatchSchema.safeParse({ documentFiles }).success).toBe(false);
    }
  });
});
