/**
 * Local copies that cannot be opened or written, through the CLI: `status` and `export` read a
 * copy on read-only media, `sync` says plainly it cannot write there, and a file that is not a
 * Quayside database gets a sentence saying what to do (never SQLite's "file is not a database"),
 * the file left as it was.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exitCodes } from '../../src/cli/exit-codes';
import { runCli } from '../../src/cli/index';
import { DEMO_API_KEY } from '../../src/sandbox/index';
import { capture } from '../helpers/capture';
import { hostileDir, makeReadOnly, sha256 } from '../helpers/database-files';
import { useSandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp-dir';

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = capture();
  const err = capture();
  const code = await runCli(args, { out: out.stream, err: err.stream });
  return { code, out: out.text(), err: err.text() };
}

const sandbox = useSandbox({ seed: 'database-files-cli', shipments: 40 });
let template = '';

beforeAll(async () => {
  template = join(tempDir(), 'synced.sqlite');
  process.env.T49_API_TOKEN = DEMO_API_KEY;
  try {
    const run = await cli(['sync', '--db', template, '--base-url', sandbox.get().url, '--json']);
    expect(run.code).toBe(exitCodes.ok);
  } finally {
    delete process.env.T49_API_TOKEN;
  }
}, 120_000);

/** A copy of the synced database in a folder of its own. */
function copyIn(): { dir: string; file: string } {
  const dir = join(hostileDir(), 'media');
  mkdirSync(dir);
  const file = join(dir, 'quayside.sqlite');
  copyFileSync(template, file);
  return { dir, file };
}

describe('cli on a database on read-only media', () => {
  it('status and export read it; sync says it cannot write; the file is unchanged', async () => {
    const { dir, file } = copyIn();
    const before = sha256(file);
    makeReadOnly(file, dir);

    const status = await cli(['status', '--db', file, '--json']);
    expect(status).toMatchObject({ code: exitCodes.ok, err: '' });
    const parsed = JSON.parse(status.out) as { counts: { shipments: number }; read_only: boolean };
    expect(parsed).toMatchObject({ counts: { shipments: 40 }, read_only: true });
    const text = await cli(['status', '--db', file]);
    expect(text.out).toContain('This database is on a read-only disk: it can be shown and exported but not synced.');

    const out = join(tempDir(), 'shipments.csv');
    const exported = await cli(['export', 'shipments', '--db', file, '--out', out]);
    expect(exported).toMatchObject({ code: exitCodes.ok, out: `Wrote 40 rows to ${out}\n` });
    expect(readFileSync(out, 'utf8').trim().split('\r\n')).toHaveLength(41);

    process.env.T49_API_TOKEN = DEMO_API_KEY;
    try {
      const sync = await cli(['sync', '--db', file, '--base-url', sandbox.get().url]);
      expect(sync.code).toBe(exitCodes.failure);
      expect(sync.out).toContain(
        `The local copy at ${file} is on a read-only disk; Quayside can show and export it but cannot sync into it.`,
      );
      expect(sync.out).toContain('0 requests');
    } finally {
      delete process.env.T49_API_TOKEN;
    }
    expect(sha256(file)).toBe(before);
  });
});

/** The CLI in a child process as an unprivileged user (test/fixtures/cli-unprivileged.ts). */
function unprivilegedCli(
  folder: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ uid: number; refusal: string | null; code: number; out: string; err: string }> {
  const root = resolve(import.meta.dirname, '../..');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'test/fixtures/cli-unprivileged.ts'), folder, ...args],
    { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (status) => {
      if (status !== 0) fail(new Error(`the child exited ${status}: ${stderr}`));
      else done(JSON.parse(stdout));
    });
  });
}

describe('cli on a database in a folder whose permissions refuse writes', () => {
  it(
    'opens it read-only (SQLite answers SQLITE_READONLY_DIRECTORY there): status reads it, sync says it cannot write',
    { timeout: 60_000 },
    async () => {
      const { dir, file } = copyIn();
      // Only the folder refuses: the file itself may be written by anyone, the -wal and -shm not created.
      chmodSync(dirname(dir), 0o755);
      chmodSync(file, 0o666);
      chmodSync(dir, 0o555);
      try {
        const before = sha256(file);

        const status = await unprivilegedCli(dir, ['status', '--db', file, '--json']);
        // The child really ran where writes are refused, as a forwarder would meet the folder.
        expect(status).toMatchObject({ refusal: 'EACCES', code: exitCodes.ok, err: '' });
        expect(status.uid).not.toBe(0);
        expect(JSON.parse(status.out)).toMatchObject({ counts: { shipments: 40 }, read_only: true });

        const sync = await unprivilegedCli(dir, ['sync', '--db', file, '--base-url', sandbox.get().url], {
          T49_API_TOKEN: DEMO_API_KEY,
        });
        expect(sync.code).toBe(exitCodes.failure);
        expect(sync.out).toContain(
          `The local copy at ${file} is on a read-only disk; Quayside can show and export it but cannot sync into it.`,
        );
        expect(sync.out).toContain('0 requests');
        expect(sha256(file)).toBe(before);
        expect(readdirSync(dir)).toEqual(['quayside.sqlite']);
      } finally {
        // Writable again, so the folder can be removed by whoever runs the tests.
        chmodSync(dir, 0o755);
      }
    },
  );
});

const notQuayside = (file: string) =>
  `${file} is not a Quayside database (or is damaged). Move it aside or point --db at another file.\n`;

describe('cli on a file that is not a Quayside database', () => {
  it.each([
    { name: 'a text file', make: (file: string) => writeFileSync(file, 'BL number,Carrier\n'.repeat(50)) },
    {
      name: 'a truncated database',
      make: (file: string) => {
        copyFileSync(template, file);
        truncateSync(file, Math.floor(statSync(file).size / 3));
      },
    },
    {
      name: "another program's SQLite file",
      make: (file: string) => {
        const other = new Database(file);
        other.exec('CREATE TABLE photos (id INTEGER)');
        other.close();
      },
    },
  ])('$name: status, raw, changes, alerts and export say what to do and leave it as it was', async ({ make }) => {
    const file = join(hostileDir(), 'quayside.sqlite');
    make(file);
    const before = sha256(file);
    for (const args of [
      ['status', '--db', file],
      ['raw', 'shipment', 'x', '--db', file],
      ['changes', '--db', file],
      ['alerts', '--db', file, '--json'],
      ['export', 'containers', '--db', file, '--out', join(tempDir(), 'c.csv')],
    ]) {
      const run = await cli(args);
      expect(run).toEqual({ code: exitCodes.failure, out: '', err: notQuayside(file) });
    }
    expect(sha256(file)).toBe(before);
  });

  it('no file at --db: each reading command says so in its words, exit 1', async () => {
    const file = join(tempDir(), 'missing.sqlite');
    const said = {
      status: `There is no database at ${file}.\n`,
      raw: `There is no database at ${file}.\n`,
      changes: `There is no database at ${file}; run sync first.\n`,
      alerts: `There is no database at ${file}; run sync first.\n`,
    };
    for (const [command, err] of Object.entries(said)) {
      const args = command === 'raw' ? ['raw', 'shipment', 'x', '--db', file] : [command, '--db', file];
      expect(await cli(args)).toEqual({ code: exitCodes.failure, out: '', err });
    }
  });

  it('`demo` on it says so and the process ends (the sandbox it started is closed)', async () => {
    const file = join(hostileDir(), 'quayside.sqlite');
    writeFileSync(file, 'BL number,Carrier\n'.repeat(50));
    const before = sha256(file);
    const root = resolve(import.meta.dirname, '../..');
    const child = spawn(
      process.execPath,
      [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'src/cli/main.ts'), 'demo', '--db', file],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    // Waits for the process to end on its own; the test's timeout bounds it.
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    expect(code).toBe(exitCodes.failure);
    expect(err).toContain(`The local copy at ${file} is not a Quayside database, or it is damaged.`);
    expect(sha256(file)).toBe(before);
  }, 60_000);

  it('a database from a newer Quayside: update Quayside', async () => {
    const { file } = copyIn();
    const future = new Database(file);
    future.pragma('user_version = 42');
    future.close();
    const before = sha256(file);
    const run = await cli(['status', '--db', file]);
    expect(run).toEqual({
      code: exitCodes.failure,
      out: '',
      err: `${file} was written by a newer version of Quayside; update Quayside to open it. It has not been changed.\n`,
    });
    expect(sha256(file)).toBe(before);
  });

  it('a folder given as --db: point --db at the database file', async () => {
    const folder = join(hostileDir(), 'exports');
    mkdirSync(folder);
    const run = await cli(['export', 'shipments', '--db', folder, '--out', join(tempDir(), 's.csv')]);
    expect(run).toEqual({
      code: exitCodes.failure,
      out: '',
      err: `${folder} is a folder, not a Quayside database. Point --db at the database file.\n`,
    });
  });
});
