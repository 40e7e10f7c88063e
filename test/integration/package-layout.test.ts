/**
 * Runs electron-builder for real (Linux, unpacked `dir` target) with a stand-in Electron
 * distribution — no Electron can be downloaded here — and checks what lands in the package:
 * the native modules outside the asar archive, only this platform's SQLite binary, no sources.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { listPackage } from '@electron/asar';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { tempDir } from '../helpers/temp-dir';

const root = resolve(import.meta.dirname, '../..');

/** Runs a command; a failure says what it printed. */
function run(command: string, args: string[], cwd: string): void {
  try {
    execFileSync(command, args, { cwd, stdio: 'pipe', env: { ...process.env, CI: 'true' } });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`${args.slice(0, 2).join(' ')} failed:\n${String(stdout ?? '')}\n${String(stderr ?? '')}`, {
      cause: error,
    });
  }
}

describe('the packaged app', () => {
  it('keeps native modules outside the archive, with only this platform’s binary', { timeout: 180_000 }, () => {
    const work = tempDir();
    const electronDist = join(work, 'electron');
    mkdirSync(join(electronDist, 'locales'), { recursive: true });
    writeFileSync(join(electronDist, 'electron'), '#!/bin/sh\n');
    chmodSync(join(electronDist, 'electron'), 0o755);
    for (const file of ['LICENSE', 'LICENSES.chromium.html', 'resources.pak', 'icudtl.dat']) {
      writeFileSync(join(electronDist, file), '');
    }
    // The real configuration, less the fuses (they are flipped inside a real Electron binary).
    const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
    delete config.electronFuses;
    config.directories = { output: join(work, 'dist'), buildResources: join(root, 'resources') };
    config.electronDist = electronDist;
    config.electronVersion = '45.4.1';
    writeFileSync(join(work, 'builder.yml'), stringify(config));

    // electron-builder refuses a package whose main entry is missing: build the app first if needed.
    if (!existsSync(join(root, 'out/main/index.js'))) {
      execFileSync(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
        cwd: root,
        stdio: 'pipe',
      });
    }
    run(
      process.execPath,
      [
        join(root, 'node_modules/electron-builder/cli.js'),
        '--config',
        join(work, 'builder.yml'),
        '--projectDir',
        root,
        '--linux',
        'dir',
        '--x64',
        '--publish',
        'never',
      ],
      root,
    );

    const resources = join(work, 'dist', 'linux-unpacked', 'resources');
    const unpacked = join(resources, 'app.asar.unpacked', 'node_modules');
    expect(existsSync(join(unpacked, 'better-sqlite3/prebuilds/linux-x64.node'))).toBe(true);
    expect(existsSync(join(unpacked, 'better-sqlite3/prebuilds/win32-x64.node'))).toBe(false);
    expect(existsSync(join(unpacked, 'better-sqlite3/prebuilds/darwin-arm64.node'))).toBe(false);
    expect(existsSync(join(unpacked, '@napi-rs/keyring-linux-x64-gnu/keyring.linux-x64-gnu.node'))).toBe(true);

    const inside = listPackage(join(resources, 'app.asar'), { isPack: false });
    expect(inside).toContain('/package.json');
    for (const dependency of [
      'better-sqlite3',
      '@napi-rs/keyring',
      'zod',
      'electron-updater',
      'read-excel-file',
      'csv-parse',
    ]) {
      expect(inside).toContain(`/node_modules/${dependency}/package.json`);
    }
    expect(inside.some((path) => path.startsWith('/node_modules/better-sqlite3/deps/'))).toBe(false);
    // Build tools and test libraries stay out.
    for (const dev of ['electron', 'vite', 'svelte', 'vitest', '@playwright/test']) {
      expect(inside).not.toContain(`/node_modules/${dev}/package.json`);
    }
    expect(inside.some((path) => path.endsWith('.map'))).toBe(false);
  });
});
