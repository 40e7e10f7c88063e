/**
 * A laptop pulling from a team hub, against a real PostgreSQL (`helpers/postgres.ts`), the
 * sandbox and the hub's own command: its first pull holds what the hub's direct sync holds (each
 * record's JSON, the counts, the list rows); the next pull applies only what is new, with the
 * change history and alerts a direct sync records; a pull stopped between pages resumes and
 * applies nothing twice; a stopped PostgreSQL, a newer hub's schema and a database that is no hub
 * are refused in one sentence, the copy untouched and readable; the password is never shown.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodes } from '../../src/cli/exit-codes';
import { openDatabase, type Db } from '../../src/core/store/database';
import { readSyncLog } from '../../src/core/store/sync-log';
import { listSyncState } from '../../src/core/store/sync-state';
import { hubSourceOf, laptopHubAddress, pullFromHub } from '../../src/core/team/puller';
import type { Sandbox } from '../../src/sandbox/index';
import { startPostgres, usePostgres } from '../helpers/postgres';
import { startTestSandbox } from '../helpers/sandbox';
import { cli, copyOf, storedRecords } from '../helpers/team-pull';
import { tempDir } from '../helpers/temp-dir';

const postgres = usePostgres();
const SECRET = 'reader-secret-Zq81';

/** A database's rows: the change history without its ids and times, the alerts without theirs. */
function history(db: Db) {
  const changes = db
    .prepare('SELECT resource, record_id, field, detail, old_value, new_value FROM record_changes ORDER BY 1, 2, 3, 4')
    .all();
  const alerts = db
    .prepare("SELECT rule, record_id, detail FROM alerts WHERE rule <> 'lfd_soon' ORDER BY 1, 2, 3")
    .all();
  return { changes, alerts };
}

describe.skipIf(!postgres.available)('a laptop pulling from a team hub', () => {
  let sandbox: Sandbox;
  let hubDb = '';
  let url = '';

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 'team-pull', shipments: 15 });
    hubDb = join(tempDir(), 'hub.sqlite');
    url = await postgres.get().createDatabase('pull_main');
    const published = await cli(['hub', '--postgres', url, '--db', hubDb, '--base-url', sandbox.url]);
    expect(published.code).toBe(exitCodes.ok);
  }, 120_000);
  afterAll(() => sandbox.close());

  const publish = () => cli(['hub', '--postgres', url, '--db', hubDb, '--base-url', sandbox.url]);

  it('first pulls what a direct sync holds, then only what is new, with the history a direct sync records', async () => {
    const laptop = join(tempDir(), 'laptop.sqlite');
    // The password in the URL (trusted here, still sent) is shown nowhere.
    const withPassword = url.replace('postgres@', `postgres:${SECRET}@`);
    const first = await cli(['sync', '--hub', withPassword, '--db', laptop, '--json']);
    expect(first.err).toBe('');
    expect(first.code).toBe(exitCodes.ok);
    const summary = JSON.parse(first.out);
    expect(summary).toMatchObject({ status: 'ok', from_seq: '0', deletions: 0, error: null });
    expect(summary.counts.shipment).toBe(15);

    const now = new Date().toISOString();
    const hub = openDatabase(hubDb);
    const copy = openDatabase(laptop);
    try {
      expect(copyOf(copy, now)).toEqual(copyOf(hub, now));
      const [max] = await postgres
        .get()
        .query<{ seq: string }>('SELECT max(seq)::text AS seq FROM quayside.published', [], 'pull_main');
      expect(hubSourceOf(copy)).toMatchObject({ hub: url, lastSeq: max!.seq });
      // A first sync records no change, as the hub's first did not.
      expect(history(copy).changes).toEqual([]);

      // The service moves on; the hub syncs and publishes; the laptop pulls what is new only.
      sandbox.advance(3 * 24 * 3600);
      expect((await publish()).code).toBe(exitCodes.ok);
      const second = await cli(['sync', '--hub', url, '--db', laptop, '--json'], { QUAYSIDE_HUB_PASSWORD: SECRET });
      expect(second.code).toBe(exitCodes.ok);
      const again = JSON.parse(second.out);
      expect(again.from_seq).toBe(max!.seq);
      const [rows] = await postgres
        .get()
        .query<{ n: string }>(
          'SELECT count(*)::text AS n FROM quayside.published WHERE seq > $1',
          [max!.seq],
          'pull_main',
        );
      expect(Number(rows!.n)).toBeGreaterThan(0);
      const later = new Date().toISOString();
      expect(copyOf(copy, later)).toEqual(copyOf(hub, later));
      // The laptop recorded, between its two pulls, the changes the hub recorded between its two syncs.
      const recorded = history(copy);
      expect(recorded.changes.length).toBeGreaterThan(0);
      expect(recorded).toEqual(history(hub));

      const status = await cli(['status', '--db', laptop]);
      expect(status.out).toContain(`Copy of the team hub ${url}, up to sequence ${again.last_seq}`);
      const statusJson = JSON.parse((await cli(['status', '--db', laptop, '--json'])).out);
      expect(statusJson.hub).toMatchObject({ address: url, last_seq: again.last_seq });
      expect(statusJson.hub.hub_sync.status).toBe('ok');
      expect(readSyncLog(copy, 5).map((r) => [r.kind, r.status, r.requests])).toEqual([
        ['hub', 'ok', 0],
        ['hub', 'ok', 0],
      ]);
      const everything = [first.out, first.err, second.out, second.err, status.out, JSON.stringify(statusJson)];
      everything.push(JSON.stringify(listSyncState(copy)), JSON.stringify(readSyncLog(copy, 10)));
      for (const text of everything) expect(text).not.toContain(SECRET);
    } finally {
      hub.close();
      copy.close();
    }
  }, 120_000);

  it('stopped between pages, resumes after the last whole page and ends as the hub holds it', async () => {
    const laptop = join(tempDir(), 'stopped.sqlite');
    const db = openDatabase(laptop);
    const address = laptopHubAddress(url, undefined);
    try {
      let applied = 0;
      const stopped = await pullFromHub({
        db,
        dbPath: laptop,
        address,
        pageRows: 40,
        afterPage: ({ rows }) => {
          applied += rows;
          if (applied >= 80) throw new Error('killed between pages');
        },
      });
      expect(stopped.status).toBe('failed');
      expect(stopped.pages).toBe(2);
      const kept = hubSourceOf(db)!;
      expect(kept.lastSeq).toBe(stopped.lastSeq);
      expect(kept.pulledAt).toBeNull();

      let resumedRows = 0;
      const resumed = await pullFromHub({
        db,
        dbPath: laptop,
        address,
        pageRows: 40,
        afterPage: ({ rows }) => {
          resumedRows += rows;
        },
      });
      expect(resumed).toMatchObject({ status: 'ok', fromSeq: kept.lastSeq });
      // Every published row was read once: none of the first two pages again.
      const [total] = await postgres
        .get()
        .query<{ n: string }>('SELECT count(*)::text AS n FROM quayside.published', [], 'pull_main');
      expect(applied + resumedRows).toBe(Number(total!.n));
      const hub = openDatabase(hubDb);
      try {
        const now = new Date().toISOString();
        expect(copyOf(db, now)).toEqual(copyOf(hub, now));
      } finally {
        hub.close();
      }
      expect(readSyncLog(db, 5).map((r) => r.status)).toEqual(['ok', 'failed']);
      expect(history(db).changes).toEqual([]);
    } finally {
      db.close();
    }
  }, 120_000);

  it('says in one sentence that a stopped PostgreSQL cannot be reached, and leaves the copy readable as it was', async () => {
    const own = await startPostgres();
    let stopped = false;
    try {
      const hubUrl = await own.createDatabase('team');
      const ownHub = join(tempDir(), 'own-hub.sqlite');
      expect((await cli(['hub', '--postgres', hubUrl, '--db', ownHub, '--base-url', sandbox.url])).code).toBe(0);
      const laptop = join(tempDir(), 'offline.sqlite');
      expect((await cli(['sync', '--hub', hubUrl, '--db', laptop])).code).toBe(exitCodes.ok);
      const db = openDatabase(laptop);
      const before = { records: storedRecords(db), log: readSyncLog(db, 10), state: listSyncState(db) };
      db.close();

      await own.stop();
      stopped = true;
      const withPassword = hubUrl.replace('postgres@', `postgres:${SECRET}@`);
      const offline = await cli(['sync', '--hub', withPassword, '--db', laptop]);
      expect(offline.code).toBe(exitCodes.network);
      expect(offline.out).toBe('');
      expect(offline.err).toMatch(
        new RegExp(`^PostgreSQL at ${hubUrl.replace(/[.?*+()]/g, '\\$&')} could not be reached \\([^\\n]*\\)\\.\\n$`),
      );
      expect(offline.err).not.toContain(SECRET);

      const after = openDatabase(laptop);
      try {
        expect({ records: storedRecords(after), log: readSyncLog(after, 10), state: listSyncState(after) }).toEqual(
          before,
        );
      } finally {
        after.close();
      }
      const status = await cli(['status', '--db', laptop]);
      expect(status.code).toBe(exitCodes.ok);
      expect(status.out).toContain(`Copy of the team hub ${hubUrl}`);
    } finally {
      if (!stopped) await own.stop();
    }
  }, 180_000);

  it("refuses a newer hub's schema and a database that is no hub, in one sentence each, writing nothing", async () => {
    const laptop = join(tempDir(), 'refused.sqlite');
    expect((await cli(['sync', '--hub', url, '--db', laptop])).code).toBe(exitCodes.ok);
    const db = openDatabase(laptop);
    const before = { records: storedRecords(db), log: readSyncLog(db, 10), state: listSyncState(db) };
    db.close();

    const newer = await postgres.get().createDatabase('pull_newer');
    await postgres.get().query('CREATE SCHEMA quayside', [], 'pull_newer');
    await postgres.get().query('CREATE TABLE quayside.meta (schema_version integer, hub text)', [], 'pull_newer');
    await postgres.get().query('INSERT INTO quayside.meta VALUES (99, NULL)', [], 'pull_newer');
    const refused = await cli(['sync', '--hub', newer, '--db', laptop]);
    expect(refused.code).toBe(exitCodes.failure);
    expect(refused.err).toBe(
      `PostgreSQL at ${newer} holds a team hub schema newer than this Quayside knows (version 99; this one knows 1): update Quayside to use it.\n`,
    );

    const empty = await postgres.get().createDatabase('pull_not_a_hub');
    const notHub = await cli(['sync', '--hub', empty, '--db', laptop]);
    expect(notHub.code).toBe(exitCodes.failure);
    expect(notHub.err).toBe(
      `PostgreSQL at ${empty} holds no team hub (no quayside.meta): point Quayside at the database a hub publishes into.\n`,
    );
    const after = openDatabase(laptop);
    try {
      expect({ records: storedRecords(after), log: readSyncLog(after, 10), state: listSyncState(after) }).toEqual(
        before,
      );
    } finally {
      after.close();
    }
  }, 60_000);
});

describe('sync --hub command line', () => {
  it('refuses bad arguments with exit 2 and one sentence, before reaching anything', async () => {
    for (const [args, sentence] of [
      [['--hub', 'postgres://127.0.0.1/q'], 'sync --hub needs --db PATH'],
      [
        ['--hub', 'postgres://127.0.0.1/q', '--db', 'x.sqlite', '--full'],
        'sync --hub pulls from the hub alone; it takes no --full',
      ],
      [['--hub', 'http://127.0.0.1/q', '--db', 'x.sqlite'], 'The --hub address must start with postgres://'],
      [
        ['--hub', `postgres://reader:${SECRET}@db.example.com/q?sslmode=disable`, '--db', 'x.sqlite'],
        'Quayside will not reach PostgreSQL at db.example.com without TLS',
      ],
    ] as const) {
      const run = await cli(['sync', ...args]);
      expect(run.code).toBe(exitCodes.usage);
      expect(run.err.split('\n')[0]).toContain(sentence);
      expect(run.err).not.toContain(SECRET);
    }
  });
});
