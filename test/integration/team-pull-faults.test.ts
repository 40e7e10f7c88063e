/**
 * A laptop's pull from a team hub under the faults of PostgreSQL as it is run: the `sync --hub`
 * process killed (SIGKILL) while it pulls a bigger account resumes after its last whole page and
 * ends equal to the hub; a laptop moved from the primary to a streaming replica that is behind
 * (pg_basebackup, its replay paused) keeps its seq, pulls nothing until the replica has caught
 * up, then only what is new, losing and duplicating nothing.
 */
import { spawn, execFile } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exitCodes } from '../../src/cli/exit-codes';
import { openDatabase } from '../../src/core/store/database';
import { readSyncLog } from '../../src/core/store/sync-log';
import { hubSourceOf, laptopHubAddress, pullFromHub } from '../../src/core/team/puller';
import type { Sandbox } from '../../src/sandbox/index';
import { findPostgresBin, usePostgres } from '../helpers/postgres';
import { startTestSandbox } from '../helpers/sandbox';
import { cli, copyOf } from '../helpers/team-pull';
import { tempDir } from '../helpers/temp-dir';

const run = promisify(execFile);
const postgres = usePostgres();

/**
 * A TCP proxy in front of PostgreSQL that forwards everything until the client sends its
 * `holdAt`-th page query (`WHERE p.seq >`), then holds that query: the client has committed
 * every page before it and waits for an answer that never comes.
 */
async function holdingProxy(
  port: number,
  holdAt: number,
): Promise<{ port: number; held: Promise<void>; close(): void }> {
  let seen = 0;
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    sockets.add(client).add(upstream);
    let holding = false;
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('data', (chunk) => {
      if (holding) return;
      seen += chunk.toString('latin1').split('WHERE p.seq >').length - 1;
      if (seen >= holdAt) {
        holding = true;
        release();
        return;
      }
      upstream.write(chunk);
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    held,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

/** A streaming replica of the file's cluster (pg_basebackup), on its own port; stopped and removed by `stop`. */
async function startReplica(primaryPort: number): Promise<{ url(db: string): string; stop(): Promise<void> }> {
  const bin = findPostgresBin()!;
  const root = process.getuid?.() === 0;
  const asOwner = (tool: string, args: string[]) =>
    root ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]) : run(join(bin, tool), args);
  const dir = mkdtempSync(join(tmpdir(), 'quayside-replica-'));
  if (root) {
    const id = async (flag: string) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
    chownSync(dir, await id('-u'), await id('-g'));
  }
  const data = join(dir, 'data');
  await asOwner('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primaryPort),
    '-U',
    'postgres',
    '-D',
    data,
    '-R',
    '-X',
    'stream',
    // A fast checkpoint: the default spread one waits minutes for the primary's next.
    '-c',
    'fast',
  ]);
  const port = await new Promise<number>((resolvePort) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const a = probe.address();
      probe.close(() => resolvePort(typeof a === 'object' && a ? a.port : 0));
    });
  });
  const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c hot_standby=on`;
  await asOwner('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);
  return {
    url: (db) => `postgres://postgres@127.0.0.1:${port}/${db}`,
    async stop() {
      try {
        await asOwner('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

async function maxSeq(url: string): Promise<string> {
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await client.query<{ seq: string }>(
      'SELECT coalesce(max(seq), 0)::text AS seq FROM quayside.published',
    );
    return rows.rows[0]!.seq;
  } finally {
    await client.end();
  }
}

describe.skipIf(!postgres.available)('a laptop pull under faults', () => {
  let sandbox: Sandbox;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 'team-pull-faults', shipments: 120 });
  }, 60_000);
  afterAll(() => sandbox.close());

  it('killed with SIGKILL while it pulls, resumes after its last whole page and ends as the hub holds it', async () => {
    const url = await postgres.get().createDatabase('pull_killed');
    const hubDb = join(tempDir(), 'hub.sqlite');
    expect((await cli(['hub', '--postgres', url, '--db', hubDb, '--base-url', sandbox.url])).code).toBe(exitCodes.ok);
    const [total] = await postgres
      .get()
      .query<{ n: string }>('SELECT count(*)::text AS n FROM quayside.published', [], 'pull_killed');
    // More than three pages of 500: the kill lands with pages applied and more due.
    expect(Number(total!.n)).toBeGreaterThan(1500);

    const proxy = await holdingProxy(postgres.get().port, 3);
    const laptop = join(tempDir(), 'killed.sqlite');
    const proxied = `postgres://postgres@127.0.0.1:${proxy.port}/pull_killed`;
    const cliPath = resolve(import.meta.dirname, '../../src/cli/index.ts');
    const tsxLoader = resolve(import.meta.dirname, '../../node_modules/tsx/dist/loader.mjs');
    try {
      const child = spawn(
        process.execPath,
        ['--import', tsxLoader, cliPath, 'sync', '--hub', proxied, '--db', laptop],
        {
          stdio: 'ignore',
        },
      );
      const exited = new Promise((r) => child.once('exit', r));
      // Two pages are committed when the third is asked for.
      await proxy.held;
      child.kill('SIGKILL');
      await exited;
    } finally {
      proxy.close();
    }

    const [second] = await postgres
      .get()
      .query<{ seq: string }>(
        'SELECT p.seq::text AS seq FROM quayside.published p ORDER BY p.seq OFFSET 999 LIMIT 1',
        [],
        'pull_killed',
      );
    const check = new Database(laptop, { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
    const db = openDatabase(laptop);
    try {
      expect(hubSourceOf(db)).toMatchObject({ lastSeq: second!.seq, pulledAt: null });
      expect(readSyncLog(db, 5).map((r) => r.status)).toEqual(['running']);

      let rows = 0;
      const resumed = await pullFromHub({
        db,
        dbPath: laptop,
        address: laptopHubAddress(url, undefined),
        afterPage: (page) => {
          rows += page.rows;
        },
      });
      expect(resumed).toMatchObject({ status: 'ok', fromSeq: second!.seq });
      expect(rows).toBe(Number(total!.n) - 1000);
      expect(readSyncLog(db, 5).map((r) => r.status)).toEqual(['ok', 'interrupted']);
      const hub = openDatabase(hubDb);
      try {
        const now = new Date().toISOString();
        expect(copyOf(db, now)).toEqual(copyOf(hub, now));
      } finally {
        hub.close();
      }
    } finally {
      db.close();
    }
  }, 180_000);

  it('moved to a streaming replica that is behind, keeps its seq and waits; once caught up, pulls only what is new', async () => {
    const small = await startTestSandbox({ seed: 'team-pull-replica', shipments: 12 });
    const primary = await postgres.get().createDatabase('pull_replica');
    const hubDb = join(tempDir(), 'hub.sqlite');
    const publish = async () =>
      expect((await cli(['hub', '--postgres', primary, '--db', hubDb, '--base-url', small.url])).code).toBe(
        exitCodes.ok,
      );
    const replica = await startReplica(postgres.get().port);
    try {
      await publish();
      const standby = replica.url('pull_replica');
      await vi.waitFor(async () => expect(await maxSeq(standby)).toBe(await maxSeq(primary)), {
        timeout: 60_000,
        interval: 50,
      });
      // The replica stops replaying: it falls behind what the hub publishes next.
      const pg = await import('pg');
      const paused = new pg.default.Client({ connectionString: standby });
      await paused.connect();
      await paused.query('SELECT pg_wal_replay_pause()');
      small.advance(3 * 24 * 3600);
      await publish();

      const laptop = join(tempDir(), 'laptop.sqlite');
      expect((await cli(['sync', '--hub', primary, '--db', laptop])).code).toBe(exitCodes.ok);
      const db = openDatabase(laptop);
      try {
        const onPrimary = hubSourceOf(db)!.lastSeq;
        expect(onPrimary).toBe(await maxSeq(primary));
        expect(BigInt(await maxSeq(standby))).toBeLessThan(BigInt(onPrimary));
        const now = new Date().toISOString();
        const before = copyOf(db, now);

        const behind = await pullFromHub({ db, dbPath: laptop, address: laptopHubAddress(standby, undefined) });
        expect(behind).toMatchObject({ status: 'ok', hubBehind: 'replica', pages: 0, lastSeq: onPrimary });
        expect(hubSourceOf(db)).toMatchObject({ hub: standby, lastSeq: onPrimary });
        expect(copyOf(db, now)).toEqual(before);

        // The replica replays again and the hub publishes more: the laptop pulls what is past its seq.
        await paused.query('SELECT pg_wal_replay_resume()');
        await paused.end();
        small.advance(2 * 24 * 3600);
        await publish();
        const last = await maxSeq(primary);
        await vi.waitFor(async () => expect(await maxSeq(standby)).toBe(last), { timeout: 60_000, interval: 50 });
        const caughtUp = await pullFromHub({ db, dbPath: laptop, address: laptopHubAddress(standby, undefined) });
        expect(caughtUp).toMatchObject({ status: 'ok', hubBehind: null, fromSeq: onPrimary, lastSeq: last });
        const hub = openDatabase(hubDb);
        try {
          const later = new Date().toISOString();
          expect(copyOf(db, later)).toEqual(copyOf(hub, later));
        } finally {
          hub.close();
        }
      } finally {
        db.close();
      }
    } finally {
      await small.close();
      await replica.stop();
    }
  }, 240_000);
});
