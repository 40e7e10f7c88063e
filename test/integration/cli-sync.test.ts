import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { capture } from '../helpers/capture';
import { runCli } from '../../src/cli/index';
import { runSync } from '../../src/cli/commands/sync';
import { createKeychainStore, type KeychainBinding } from '../../src/core/secrets/index';
import { exitCodes } from '../../src/cli/exit-codes';
import { countContainers } from '../../src/core/store/queries/containers';
import { openDatabase } from '../../src/core/store/database';
import { DEMO_API_KEY, type Sandbox } from '../../src/sandbox/index';
import { startTestSandbox, useSandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp-dir';

async function cli(args: string[], env: Record<string, string | undefined> = {}) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  const out = capture();
  const err = capture();
  try {
    const code = await runCli(args, { out: out.stream, err: err.stream });
    return { code, out: out.text(), err: err.text() };
  } finally {
    process.env = saved;
  }
}

describe('cli sync, status and export', () => {
  const sandbox = useSandbox({ seed: 'cli', shipments: 120 });
  afterEach(() => {
    delete process.env.T49_API_TOKEN;
  });

  it('syncs with --json into one summary object, then reports status', async () => {
    const db = join(tempDir(), 'cli.sqlite');
    const run = await cli(['sync', '--db', db, '--base-url', sandbox.get().url, '--json'], {
      T49_API_TOKEN: DEMO_API_KEY,
    });
    expect(run.code).toBe(exitCodes.ok);
    const summary = JSON.parse(run.out);
    expect(summary).toMatchObject({ status: 'ok', mode: 'full', rate_limited: 0, error: null });
    expect(summary.requests).toBeGreaterThan(5);
    expect(summary.duration_ms).toBeGreaterThan(0);
    const status = await cli(['status', '--db', db, '--json']);
    const parsed = JSON.parse(status.out);
    expect(parsed.counts.shipments).toBe(120);
    // Each record written counts once, though shipments also come as tracking requests'
    // tracked_object, containers with the shipments and again with their own walk, vessels on
    // many pages: the summary's counts are the database's.
    expect(summary.counts).toMatchObject({
      shipment: 120,
      container: parsed.counts.containers,
      tracking_request: parsed.counts.tracking_requests,
      transport_event: parsed.counts.transport_events,
      vessel: parsed.counts.vessels,
      document: parsed.counts.documents,
    });
    expect(parsed.last_sync).toMatchObject({ kind: 'full', status: 'ok' });
    expect(parsed.cursors['cursor:tracking_requests']).toMatch(/^\d{4}-/);
    expect(run.out + run.err + status.out).not.toContain(DEMO_API_KEY);
  });

  it('exits with distinct codes: no key or a refused key, no network, bad usage', async () => {
    const db = join(tempDir(), 'codes.sqlite');
    expect((await cli(['sync', '--db', db, '--base-url', sandbox.get().url])).code).toBe(exitCodes.auth);
    const refused = await cli(['sync', '--db', db, '--base-url', sandbox.get().url, '--json'], {
      T49_API_TOKEN: 'wrong-key',
    });
    expect(refused.code).toBe(exitCodes.auth);
    expect(JSON.parse(refused.out).error.message).toMatch(/API key was refused/);
    expect(refused.out).not.toContain('wrong-key');
    const offline = await cli(['sync', '--db', db, '--base-url', 'http://127.0.0.1:9/v2', '--json'], {
      T49_API_TOKEN: DEMO_API_KEY,
    });
    expect(offline.code).toBe(exitCodes.network);
    expect((await cli(['sync', '--base-url', sandbox.get().url])).code).toBe(exitCodes.usage);
    expect((await cli(['sync', '--db', db, '--rate-limit', 'lots'])).code).toBe(exitCodes.usage);
    const noProfile = await cli(['sync', '--profile', 'nobody'], { QUAYSIDE_DATA_DIR: tempDir() });
    expect(noProfile.code).toBe(exitCodes.usage);
    expect(noProfile.err).toMatch(/no profile named "nobody"/);
  });

  it('redraws its progress on a terminal and wipes it before the answer; writes none to a log', async () => {
    // A small sandbox with a key of its own: few progress lines, and a limiter of its own.
    const key = 'progress-test-key';
    const own = await startTestSandbox({ seed: 'progress', shipments: 10, apiKeys: [key] });
    const run = async (tty: boolean, apiKey: string) => {
      const out = capture();
      const err = capture();
      Object.assign(err.stream, { isTTY: tty });
      process.env.T49_API_TOKEN = apiKey;
      const code = await runCli(['sync', '--db', join(tempDir(), 'progress.sqlite'), '--base-url', own.url], {
        out: out.stream,
        err: err.stream,
      });
      return { code, out: out.text(), err: err.text() };
    };
    const wipe = '\r\x1b[K';
    try {
      // A terminal: each step's line drawn over the last, and wiped before the summary.
      const shown = await run(true, key);
      expect(shown.code).toBe(exitCodes.ok);
      expect(shown.err.startsWith(`${wipe}Shipments still tracking: page 0 of ~`)).toBe(true);
      expect(shown.err).toContain('Containers and their events: page');
      expect(shown.err.endsWith(`requests, ETA 0 s${wipe}`)).toBe(true);
      expect(shown.out).toMatch(/^Full sync done in /);
      // Refused at once: no line saying "page 0" is left standing by the failure.
      const refused = await run(true, 'wrong-key');
      expect(refused.code).toBe(exitCodes.auth);
      expect(refused.err.endsWith(wipe)).toBe(true);
      expect(refused.out).toMatch(/^Sync failed: The API key was refused/);
      // A cron job's log (no terminal): the answer alone.
      const logged = await run(false, key);
      expect(logged.code).toBe(exitCodes.ok);
      expect(logged.err).toBe('');
      expect(logged.out).toMatch(/^Full sync done in /);
    } finally {
      await own.close();
    }
  });

  it('exports exactly the filtered rows, with neutralised cells, and refuses bad filters', async () => {
    const db = join(tempDir(), 'export.sqlite');
    await cli(['sync', '--db', db, '--base-url', sandbox.get().url, '--json'], { T49_API_TOKEN: DEMO_API_KEY });
    // A hostile tag written by someone on the account must not become a formula in Excel.
    const store = openDatabase(db);
    const first = store.prepare('SELECT id FROM shipments WHERE synced_at IS NOT NULL LIMIT 1').get() as { id: string };
    store
      .prepare('UPDATE shipments SET tags = ? WHERE id = ?')
      .run(JSON.stringify(['=HYPERLINK("http://x","y")']), first.id);
    const expected = countContainers(store, { statuses: ['in_transit', 'arrived'] });
    store.close();

    const out = join(tempDir(), 'containers.csv');
    const run = await cli([
      'export',
      'containers',
      '--db',
      db,
      '--out',
      out,
      '--status',
      'in_transit',
      '--status',
      'arrived',
    ]);
    expect(run.code).toBe(exitCodes.ok);
    const text = readFileSync(out, 'utf8');
    expect(text.startsWith('\uFEFFContainer,Status,')).toBe(true);
    const rows = parse<Record<string, string>>(text, { bom: true, columns: true });
    expect(rows).toHaveLength(expected);
    expect(rows.every((r) => r.Status === 'In transit' || r.Status === 'Vessel arrived')).toBe(true);

    const shipments = join(tempDir(), 'shipments.csv');
    await cli([
      'export',
      'shipments',
      '--db',
      db,
      '--out',
      shipments,
      '--header-style',
      'keys',
      '--columns',
      'bill_of_lading_number,tags',
    ]);
    const exported = parse<Record<string, string>>(readFileSync(shipments, 'utf8'), { bom: true, columns: true });
    expect(Object.keys(exported[0]!)).toEqual(['bill_of_lading_number', 'tags']);
    expect(exported.some((r) => r.tags === `'=HYPERLINK("http://x","y")`)).toBe(true);

    const bad = await cli(['export', 'containers', '--db', db, '--out', out, '--eta-from', 'tomorrow']);
    expect(bad.code).toBe(exitCodes.validation);
    expect(bad.err).toMatch(/etaFrom/);
    expect((await cli(['export', 'vessels', '--db', db, '--out', out])).code).toBe(exitCodes.usage);
  });
});

describe('a sync killed with SIGKILL mid-page', () => {
  it(
    'resumes on the next run with nothing lost, nothing duplicated and an intact database',
    { timeout: 60_000 },
    async () => {
      const key = 'sigkill-test-key';
      const sandbox = await startTestSandbox({
        seed: 'killed',
        shipments: 1500,
        latencyMs: 60,
        apiKeys: [key],
      });
      const db = join(tempDir(), 'killed.sqlite');
      const cliPath = resolve(import.meta.dirname, '../../src/cli/index.ts');
      // One process (node with tsx's loader), so SIGKILL kills the sync itself, not a wrapper.
      const tsxLoader = resolve(import.meta.dirname, '../../node_modules/tsx/dist/loader.mjs');
      try {
        const child = spawn(
          process.execPath,
          [
            '--import',
            tsxLoader,
            cliPath,
            'sync',
            '--db',
            db,
            '--base-url',
            sandbox.url,
            '--rate-limit',
            '10000/60',
            '--json',
          ],
          {
            env: { ...process.env, T49_API_TOKEN: key },
            stdio: 'ignore',
          },
        );
        // Kill it the moment a walk has a checkpoint: pages have landed and more are due.
        for (let i = 0; i < 400; i++) {
          await new Promise((r) => setTimeout(r, 25));
          if (!existsSync(db)) continue;
          try {
            const peek = new Database(db, { readonly: true, fileMustExist: true });
            const open = peek.prepare("SELECT count(*) AS n FROM sync_state WHERE key LIKE 'walk:%'").get() as {
              n: number;
            };
            peek.close();
            if (open.n > 0) break;
          } catch {
            // the schema is still being created
          }
        }
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;

        const check = new Database(db, { readonly: true });
        expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
        const partial = (
          check.prepare('SELECT count(*) AS n FROM shipments WHERE synced_at IS NOT NULL').get() as { n: number }
        ).n;
        check.close();
        expect(partial).toBeLessThan(1500);

        const resumed = await cli(
          ['sync', '--db', db, '--base-url', sandbox.url, '--rate-limit', '10000/60', '--json'],
          {
            T49_API_TOKEN: key,
          },
        );
        expect(JSON.parse(resumed.out).status).toBe('ok');
        const after = new Database(db, { readonly: true });
        expect(after.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(after.prepare('SELECT count(*) AS n FROM shipments WHERE synced_at IS NOT NULL').get()).toEqual({
          n: 1500,
        });
        const containers = sandbox.store.containers.length;
        expect(after.prepare('SELECT count(*) AS n FROM containers WHERE synced_at IS NOT NULL').get()).toEqual({
          n: containers,
        });
        expect(after.prepare('SELECT status FROM sync_log ORDER BY id').all()).toEqual([
          { status: 'interrupted' },
          { status: 'ok' },
        ]);
        after.close();
      } finally {
        await sandbox.close();
      }
    },
  );
});

describe('cli sync --profile when the keychain cannot be reached', () => {
  const key = 'keychain-cli-KEY-5a4b3c2d1e0f-KC12';
  const profileId = '0b1c2d3e-0000-4000-8000-00000000cc12';
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 'cli-keychain', shipments: 8, apiKeys: [key] });
  });
  afterAll(() => sandbox.close());

  /** A data folder where the app saved one profile whose key is in the keychain. */
  function appDataDir(): string {
    const dataDir = tempDir();
    writeFileSync(
      join(dataDir, 'profiles.json'),
      JSON.stringify({
        version: 1,
        activeId: profileId,
        profiles: [
          {
            id: profileId,
            name: 'Night Shift',
            baseUrl: sandbox.url,
            keyLast4: 'KC12',
            keyStatus: 'accepted',
            keyStorage: 'keychain',
            createdAt: '2026-02-01T08:00:00.000Z',
          },
        ],
      }),
    );
    return dataDir;
  }

  function keychainOf(getPassword: KeychainBinding['getPassword'], timeoutMs?: number) {
    const binding: KeychainBinding = {
      getPassword,
      setPassword: () => Promise.reject(new Error('read-only in this test')),
      deletePassword: () => Promise.resolve(false),
    };
    return createKeychainStore({ service: 'com.quayside.test', timeoutMs, load: () => Promise.resolve(binding) });
  }

  async function syncProfile(
    dataDir: string,
    keychain: ReturnType<typeof createKeychainStore>,
    token?: string,
  ): Promise<{ code: number; out: string; err: string; requests: number }> {
    const saved = { ...process.env };
    process.env.QUAYSIDE_DATA_DIR = dataDir;
    if (token === undefined) delete process.env.T49_API_TOKEN;
    else process.env.T49_API_TOKEN = token;
    let requests = 0;
    const counting: typeof fetch = (input, init) => {
      requests++;
      return fetch(input, init);
    };
    const out = capture();
    const err = capture();
    try {
      const code = await runSync(
        ['--profile', 'Night Shift', '--json'],
        { out: out.stream, err: err.stream },
        { keychain, fetch: counting },
      );
      return { code, out: out.text(), err: err.text(), requests };
    } finally {
      process.env = saved;
    }
  }

  it('says the keychain could not be reached (not that the key is missing), sends nothing, and syncs with T49_API_TOKEN', async () => {
    const dataDir = appDataDir();
    const locked = keychainOf(() => Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')));
    const refused = await syncProfile(dataDir, locked);
    expect(refused.code).toBe(exitCodes.auth);
    expect(refused.err).toMatch(
      /^Quayside could not reach this computer's keychain \(Cannot autolaunch D-Bus without X11 \$DISPLAY\); unlock it .*or set T49_API_TOKEN/,
    );
    expect(refused.err).not.toMatch(/not in this machine's keychain/);
    expect(refused.requests).toBe(0);

    // What the sentence suggests works, on the same database, with the keychain still locked.
    const withToken = await syncProfile(dataDir, locked, key);
    expect(withToken.code).toBe(exitCodes.ok);
    expect(JSON.parse(withToken.out)).toMatchObject({ status: 'ok', error: null });
    const db = new Database(join(dataDir, 'profiles', `${profileId}.sqlite`), { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM shipments WHERE synced_at IS NOT NULL').get()).toEqual({ n: 8 });
    db.close();
  });

  it('says so too when the keychain does not answer at all, within its time limit', async () => {
    const silent = keychainOf(() => new Promise<string | null>(() => {}), 50);
    const run = await syncProfile(appDataDir(), silent);
    expect(run.code).toBe(exitCodes.auth);
    expect(run.err).toMatch(/^Quayside could not reach this computer's keychain \(no answer within 50 ms\)/);
    expect(run.requests).toBe(0);
  });

  it('keeps "not in this machine\'s keychain" for a key that is really absent, and syncs with a key that is there', async () => {
    const empty = await syncProfile(
      appDataDir(),
      keychainOf(() => Promise.resolve(null)),
    );
    expect(empty.code).toBe(exitCodes.auth);
    expect(empty.err).toMatch(/The key of profile "Night Shift" is not in this machine's keychain/);
    expect(empty.requests).toBe(0);

    const found = await syncProfile(
      appDataDir(),
      keychainOf((_service, account) => Promise.resolve(account === profileId ? key : null)),
    );
    expect(found.code).toBe(exitCodes.ok);
    expect(found.requests).toBeGreaterThan(0);
    expect(found.out + found.err).not.toContain(key);
  });
});
