/**
 * One sync per database across processes. Real CLI processes share one
 * database through a hostile proxy that holds the first sync's requests until the test lets
 * them go, so "the first sync is running" is a state the test waits on, not a guess in time.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodes } from '../../src/cli/exit-codes';
import { openDatabase } from '../../src/core/store/database';
import { acquireSyncLock, syncLockPath } from '../../src/core/sync/lock';
import { readSyncLog } from '../../src/core/sync/sync-log';
import type { Sandbox } from '../../src/sandbox/index';
import { testCore, value, syncNow } from '../helpers/core';
import { apiRequests, startHostileProxy, type HostileProxy } from '../helpers/hostile-proxy';
import { startTestSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';
import { tempDir } from '../helpers/temp-dir';

const KEY = 'sync-lock-test-key';
const root = resolve(import.meta.dirname, '../..');
const tsxLoader = join(root, 'node_modules/tsx/dist/loader.mjs');
const cliMain = join(root, 'src/cli/main.ts');
const BUSY = /Another sync of this database is running \(process (\d+), started \d\d:\d\d\); try again when it ends\./;

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

interface CliRun {
  pid: number;
  kill: () => void;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>;
}

/** `npm run cli -- sync ...` in its own process (node with tsx's loader: one pid, the sync's). */
function cliSync(db: string, baseUrl: string, extra: string[] = []): CliRun {
  const child = spawn(
    process.execPath,
    ['--import', tsxLoader, cliMain, 'sync', '--db', db, '--base-url', baseUrl, '--rate-limit', '10000/60', ...extra],
    { env: { ...process.env, T49_API_TOKEN: KEY }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return {
    pid: child.pid!,
    kill: () => child.kill('SIGKILL'),
    done: new Promise((done) => child.on('close', (code, signal) => done({ code, signal, out, err }))),
  };
}

let sandbox: Sandbox;
let proxy: HostileProxy;
/** A second way to the same service that holds nothing: what a busy sync asks shows up here. */
let watch: HostileProxy;
/** Waits for the first held request, failing at once if the process ended before making one. */
async function runningNow(held: { seen: Promise<void> }, run: CliRun): Promise<void> {
  await Promise.race([
    held.seen,
    run.done.then((r) => {
      throw new Error(`the sync ended before its first request (exit ${r.code}): ${r.err}`);
    }),
  ]);
}

/** Holds every request until `gate` opens; `seen` resolves at the first one. */
function holdRequests(): { seen: Promise<void>; open: () => void } {
  const seen = deferred();
  const gate = deferred();
  proxy.set({
    intercept: async () => {
      seen.resolve();
      await gate.promise;
      return undefined;
    },
  });
  return {
    seen: seen.promise,
    open: () => {
      proxy.set({});
      gate.resolve();
    },
  };
}

beforeAll(async () => {
  sandbox = await startTestSandbox({
    seed: 'sync-lock',
    shipments: 60,
    apiKeys: [KEY],
  });
  proxy = await startHostileProxy({ upstream: sandbox.url });
  watch = await startHostileProxy({ upstream: sandbox.url });
});
afterAll(async () => {
  await watch.close();
  await proxy.close();
  await sandbox.close();
});

describe('one sync per database, across processes', () => {
  it(
    'a second CLI sync of the same database answers busy (exit 7) without a request; the first completes and the next works',
    { timeout: 60_000 },
    async () => {
      const db = join(tempDir(), 'shared.sqlite');
      proxy.requests.length = 0;
      const held = holdRequests();
      const first = cliSync(db, proxy.url, ['--json']);
      await runningNow(held, first); // The first sync holds the lock and waits on the service.

      const second = await cliSync(db, watch.url).done;
      expect(second.code).toBe(exitCodes.busy);
      expect(second.out).toMatch(BUSY);
      expect(second.out.match(BUSY)?.[1]).toBe(String(first.pid));
      expect(watch.requests).toEqual([]);

      held.open();
      const done = await first.done;
      expect(done.code).toBe(exitCodes.ok);
      const summary = JSON.parse(done.out) as { status: string; requests: number };
      expect(summary.status).toBe('ok');
      // The first sync asked for exactly what it counted: nothing was doubled or cut by the busy one.
      expect(apiRequests(proxy.requests).length).toBe(summary.requests);
      expect(existsSync(syncLockPath(db))).toBe(false);

      const third = await cliSync(db, proxy.url, ['--json']).done;
      expect(third.code).toBe(exitCodes.ok);
      expect(JSON.parse(third.out)).toMatchObject({ status: 'ok', mode: 'incremental' });
      const store = openDatabase(db);
      try {
        // Two runs, both complete: the busy one neither logged a run nor marked the first interrupted.
        expect(readSyncLog(store).map((r) => r.status)).toEqual(['ok', 'ok']);
      } finally {
        store.close();
      }
    },
  );

  it(
    'the same file through a symlink, or a path with .. segments, is the same database: the second sync answers busy',
    { timeout: 120_000 },
    async () => {
      const root = tempDir();
      const folder = join(root, 'data');
      const db = join(folder, 'shared.sqlite');
      const elsewhere = join(root, 'elsewhere');
      mkdirSync(join(folder, 'nested'), { recursive: true });
      mkdirSync(elsewhere);
      // A link to the file itself, and one to a folder beside it: its `..` is the data folder (as
      // the system resolves it), not `elsewhere` (as the path's text would have it).
      const fileLink = join(elsewhere, 'link.sqlite');
      symlinkSync(db, fileLink);
      symlinkSync(join(folder, 'nested'), join(elsewhere, 'nested-link'));
      const aliases = [
        fileLink,
        `${elsewhere}/nested-link/../shared.sqlite`,
        `${folder}/nested/../shared.sqlite`,
        `${elsewhere}/../data/./shared.sqlite`,
      ];

      const held = holdRequests();
      const first = cliSync(db, proxy.url, ['--json']);
      await runningNow(held, first);
      for (const alias of aliases) {
        const second = await cliSync(alias, watch.url).done;
        expect(second.code).toBe(exitCodes.busy);
        expect(second.out.match(BUSY)?.[1]).toBe(String(first.pid));
      }
      expect(watch.requests).toEqual([]);
      held.open();
      expect((await first.done).code).toBe(exitCodes.ok);

      // The other way round: a sync through the link holds the lock beside the file, and a sync
      // through the file's own path waits its turn.
      const heldAgain = holdRequests();
      const viaLink = cliSync(fileLink, proxy.url, ['--json']);
      await runningNow(heldAgain, viaLink);
      expect(existsSync(`${db}.sync-lock`)).toBe(true);
      const direct = await cliSync(db, watch.url).done;
      expect(direct.code).toBe(exitCodes.busy);
      expect(direct.out.match(BUSY)?.[1]).toBe(String(viaLink.pid));
      expect(watch.requests).toEqual([]);
      heldAgain.open();
      const done = await viaLink.done;
      expect(done.code).toBe(exitCodes.ok);
      expect(JSON.parse(done.out)).toMatchObject({ status: 'ok', mode: 'incremental' });

      // One database, one lock file, none left; nothing was made beside the links.
      expect(readdirSync(folder).filter((name) => name.endsWith('.sync-lock'))).toEqual([]);
      expect(readdirSync(elsewhere).sort()).toEqual(['link.sqlite', 'nested-link']);
      const store = openDatabase(db);
      try {
        expect(readSyncLog(store).map((r) => r.status)).toEqual(['ok', 'ok']);
      } finally {
        store.close();
      }
    },
  );

  it(
    'a lock left by a killed sync is taken over by the next one, which resumes and completes',
    { timeout: 60_000 },
    async () => {
      const db = join(tempDir(), 'killed.sqlite');
      const held = holdRequests();
      const victim = cliSync(db, proxy.url, ['--json']);
      await runningNow(held, victim);
      victim.kill();
      expect((await victim.done).signal).toBe('SIGKILL');
      held.open();
      const left = JSON.parse(readFileSync(syncLockPath(db), 'utf8')) as { pid: number };
      expect(left.pid).toBe(victim.pid);

      const next = await cliSync(db, proxy.url, ['--json']).done;
      expect(next.code).toBe(exitCodes.ok);
      expect(JSON.parse(next.out)).toMatchObject({ status: 'ok', mode: 'full' });
      expect(existsSync(syncLockPath(db))).toBe(false);
    },
  );
});

describe('the sync lock in one process', () => {
  it('takes over a lock whose heartbeat stopped on another computer, and leaves a live one alone', async () => {
    const dbPath = join(tempDir(), 'remote.sqlite');
    const lockPath = syncLockPath(dbPath);
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    const holder = (heartbeatAt: Date) =>
      JSON.stringify({
        pid: 4242,
        hostname: 'forwarder-laptop-2',
        startedAt: twoMinutesAgo.toISOString(),
        heartbeatAt: heartbeatAt.toISOString(),
      });

    writeFileSync(lockPath, holder(new Date()));
    const sync = syncOf(sandbox, { dbPath, apiKey: KEY });
    try {
      const busy = await sync.engine.run({ mode: 'full' });
      expect(busy).toMatchObject({ status: 'failed', requests: 0, error: { code: 'busy' } });
      expect(busy.error?.message).toMatch(/process 4242 on forwarder-laptop-2, started \d\d:\d\d\); try again/);
      expect(readSyncLog(sync.db)).toEqual([]);

      writeFileSync(lockPath, holder(twoMinutesAgo));
      utimesSync(lockPath, twoMinutesAgo, twoMinutesAgo);
      const taken = await sync.engine.run({ mode: 'full' });
      expect(taken).toMatchObject({ status: 'ok', error: null });
      expect(existsSync(lockPath)).toBe(false);
    } finally {
      sync.close();
    }
  });

  it('releases the lock when a sync is cancelled and when it fails, so the next sync runs', async () => {
    const dbPath = join(tempDir(), 'paths.sqlite');
    const refused = syncOf(sandbox, { dbPath, apiKey: 'not-a-key', baseUrl: proxy.url });
    try {
      const failed = await refused.engine.run();
      expect(failed).toMatchObject({ status: 'failed', error: { code: 'auth' } });
      expect(existsSync(syncLockPath(dbPath))).toBe(false);
    } finally {
      refused.close();
    }

    const sync = syncOf(sandbox, { dbPath, apiKey: KEY, baseUrl: proxy.url });
    try {
      const held = holdRequests();
      const controller = new AbortController();
      const running = sync.engine.run({ signal: controller.signal });
      await held.seen;
      expect(existsSync(syncLockPath(dbPath))).toBe(true);
      controller.abort();
      expect(await running).toMatchObject({ status: 'cancelled' });
      held.open();
      expect(existsSync(syncLockPath(dbPath))).toBe(false);
      expect(await sync.engine.run()).toMatchObject({ status: 'ok' });
    } finally {
      sync.close();
    }
  });

  it('a sync whose lock was taken over stops, keeps its progress and leaves the new holder’s lock', async () => {
    const dbPath = join(tempDir(), 'lost.sqlite');
    const lockPath = syncLockPath(dbPath);
    const sync = syncOf(sandbox, { dbPath, apiKey: KEY, baseUrl: proxy.url, lock: { heartbeatMs: 20 } });
    try {
      const held = holdRequests();
      const running = sync.engine.run({ mode: 'full' });
      await held.seen;
      // Another process judged this one dead: moved its lock aside and wrote its own.
      renameSync(lockPath, `${lockPath}.moved`);
      const theirs = JSON.stringify({
        pid: 1,
        hostname: 'elsewhere',
        startedAt: 'x',
        heartbeatAt: new Date().toISOString(),
      });
      writeFileSync(lockPath, theirs);
      const summary = await running;
      held.open();
      expect(summary).toMatchObject({ status: 'failed', error: { code: 'busy' } });
      expect(summary.error?.message).toMatch(/another Quayside took over the database.*progress is kept/);
      expect(readFileSync(lockPath, 'utf8')).toBe(theirs);
    } finally {
      sync.close();
    }
  });
});

describe('the app while another process syncs its database', () => {
  it('shows the busy state in sync status instead of a failure, then syncs once the other ends', async () => {
    const { core, dataDir } = testCore();
    try {
      const dbPath = join(dataDir, 'demo', 'demo.sqlite');
      mkdirSync(dirname(dbPath), { recursive: true });
      const other = acquireSyncLock(dbPath);
      if (!other.ok) throw new Error('the test could not take the lock');
      const busy = await syncNow(core);
      expect(busy.state).toBe('busy');
      expect(busy.error).toMatch(BUSY);
      expect(busy.error?.match(BUSY)?.[1]).toBe(String(process.pid));

      other.lock.release();
      const after = await syncNow(core);
      expect(after).toMatchObject({ state: 'idle', error: null });
      expect((await value<{ lastSyncedAt: string | null }>(core, 'sync:status')).lastSyncedAt).not.toBeNull();
    } finally {
      await core.close();
    }
  });
});
