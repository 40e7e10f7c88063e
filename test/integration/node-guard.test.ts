/**
 * Under a Node older than 22.14, better-sqlite3 crashes the CLI with a
 * segmentation fault and no word. The entry points check the version first. This runs the real
 * entries with an old Node found on the machine (the system's /usr/bin/node where it is old),
 * through tsx as `npm run ...` would.
 */
import { spawnSync } from 'node:child_process';
import { delimiter, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeTooOld } from '../../src/cli/node-guard';
import { openDatabase } from '../../src/core/store/database';
import { tempDir } from '../helpers/temp-dir';

const root = resolve(import.meta.dirname, '../..');
const tsxCli = join(root, 'node_modules/tsx/dist/cli.mjs');

/** A Node binary older than 22.14 on this machine, or null. */
function findOldNode(): { path: string; version: string } | null {
  const candidates = [
    process.env.QUAYSIDE_OLD_NODE,
    '/usr/bin/node',
    '/usr/local/bin/node',
    ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'node')),
  ].filter((path): path is string => Boolean(path));
  for (const path of new Set(candidates)) {
    const probe = spawnSync(path, ['--version'], { encoding: 'utf8' });
    const version = probe.status === 0 ? probe.stdout.trim() : '';
    if (version && nodeTooOld(version)) return { path, version: version.replace(/^v/, '') };
  }
  return null;
}

const oldNode = findOldNode();
const sentence = (version: string) =>
  `Quayside needs Node 22.14 or newer and this is Node ${version}: run \`. .ci/node.sh\` to fetch it from the npm registry, or install it from https://nodejs.org, then try again.\n`;

describe('the Node version guard', () => {
  it('`npm run cli -- status` on an old Node ends with exit 1 and one sentence, not a crash', (context) => {
    if (!oldNode) {
      context.skip('no Node older than 22.14 on this machine (set QUAYSIDE_OLD_NODE to one to run this)');
      return;
    }
    // A real database: opening it is what crashes an old Node (better-sqlite3).
    const db = join(tempDir(), 'status.sqlite');
    openDatabase(db).close();
    const run = spawnSync(oldNode.path, [tsxCli, join(root, 'src/cli/main.ts'), 'status', '--db', db], {
      encoding: 'utf8',
      cwd: root,
    });
    expect(run.signal).toBeNull();
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(sentence(oldNode.version));
    expect(run.stdout).toBe('');
  });

  it('the check `npm run bench` runs before building says the same and exits 1', (context) => {
    if (!oldNode) {
      context.skip('no Node older than 22.14 on this machine (set QUAYSIDE_OLD_NODE to one to run this)');
      return;
    }
    const run = spawnSync(oldNode.path, [tsxCli, join(root, 'src/cli/node-guard.ts')], { encoding: 'utf8', cwd: root });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(sentence(oldNode.version));
  });

  it('lets a supported Node through: the same command under this Node reports the database', () => {
    const db = join(tempDir(), 'status.sqlite');
    openDatabase(db).close();
    const run = spawnSync(process.execPath, [tsxCli, join(root, 'src/cli/main.ts'), 'status', '--db', db], {
      encoding: 'utf8',
      cwd: root,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Never synced.');
  });
});
