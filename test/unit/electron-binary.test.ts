import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findElectronBinary } from '../../src/cli/electron-binary';
import { tempDir } from '../helpers/temp-dir';

describe('finding the Electron binary', () => {
  it('finds an override dist folder only when the executable is really there', () => {
    const dist = tempDir();
    expect(findElectronBinary({ ELECTRON_OVERRIDE_DIST_PATH: dist })).toBeNull();
    mkdirSync(dist, { recursive: true });
    writeFileSync(join(dist, 'electron'), '');
    expect(findElectronBinary({ ELECTRON_OVERRIDE_DIST_PATH: dist })).toBe(join(dist, 'electron'));
  });
});
