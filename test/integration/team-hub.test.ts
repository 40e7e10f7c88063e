/**
 * The team hub against a real PostgreSQL (a throwaway cluster, `helpers/postgres.ts`) and the
 * sandbox: `hub` syncs the account and publishes every record as `raw` prints it, the change
 * history and the sync log, with seqs that only grow; a publish stopped between pages and run
 * again publishes what is missing and nothing twice; deletions become tombstones; a schema of a
 * newer hub is refused; the laptops' role of the setup SQL can read and not write; a remote
 * address without TLS is refused before anything is sent.
 */
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index';
import { exitCodes } from '../../src/cli/exit-codes';
import { openDatabase, type Db } from '../../src/core/store/database';
import { rawTypes, readRaw, storedRecordIds } from '../../src/core/store/queries/raw';
import { deleteWebhook } from '../../src/core/store/queries/webhooks';
import { writeResources } from '../../src/core/store/writer';
import { readState } from '../../src/core/store/sync-state';
import { PUBLISH_CURSOR_KEY, Publisher, type PublishCursor } from '../../src/core/team/publisher';
import { setupSql } from '../../src/core/team/setup-sql';
import { DEMO_API_KEY, type Sandbox } from '../../src/sandbox/index';
import { capture } from '../helpers/capture';
import { usePostgres } from '../helpers/postgres';
import { startTestSandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp-dir';

interface Published {
  seq: string;
  kind: string;
  type: string;
  id: string;
  body: string | null;
}

const postgres = usePostgres();

async function hub(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const saved = process.env.T49_API_TOKEN;
  process.env.T49_API_TOKEN = DEMO_API_KEY;
  const out = capture();
  const err = capture();
  try {
    const code = await runCli(['hub', ...args], { out: out.stream, err: err.stream });
    return { code, out: out.text(), err: err.text() };
  } finally {
    if (saved === undefined) delete process.env.T49_API_TOKEN;
    else process.env.T49_API_TOKEN = saved;
  }
}

/** Every published row, by kind/type/id, its body as text (json keeps the text as sent). */
async function published(database: string): Promise<Map<string, Published>> {
  const rows = await postgres
    .get()
    .query<Published>(
      'SELECT seq::text AS seq, kind, type, id, body::text AS body FROM quayside.published ORDER BY seq',
      [],
      database,
    );
  return new Map(rows.map((r) => [`${r.kind}/${r.type}/${r.id}`, r]));
}

/** Every record the store keeps, as `raw` prints it, by record/type/id. */
function storedRecords(db: Db): Map<string, string> {
  const records = new Map<string, string>();
  for (const type of rawTypes) {
    for (const id of storedRecordIds(db, type)) {
      const raw = readRaw(db, type, id);
      if (raw.found === 'record') records.set(`record/${type}/${id}`, raw.raw);
    }
  }
  return records;
}

function liveRecords(rows: Map<string, Published>): Map<string, string> {
  return new Map(
    [...rows.entries()].flatMap(([key, r]) => (r.kind === 'record' && r.body !== null ? [[key, r.body] as const] : [])),
  );
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

describe.skipIf(!postgres.available)('team hub', () => {
  let sandbox: Sandbox;
  let dbPath = '';

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 'team-hub', shipments: 15 });
    dbPath = join(tempDir(), 'hub.sqlite');
  }, 60_000);
  afterAll(() => sandbox.close());

  const hubArgs = (url: string) => ['--postgres', url, '--db', dbPath, '--base-url', sandbox.url];

  it('syncs the account and publishes every record as raw prints it, then only what changed, at higher seqs', async () => {
    const url = await postgres.get().createDatabase('hub_main');
    const first = await hub([...hubArgs(url), '--json']);
    expect(first.err).toBe('');
    expect(first.code).toBe(exitCodes.ok);
    const round = JSON.parse(first.out);
    expect(round.sync.status).toBe('ok');
    expect(round.publish.records).toBeGreaterThan(15);

    const db = openDatabase(dbPath);
    try {
      const before = await published('hub_main');
      const records = storedRecords(db);
      expect(records.size).toBe(round.publish.records);
      expect(liveRecords(before)).toEqual(records);
      // What `raw` prints, byte for byte, for a shipment.
      const [shipmentKey] = [...records.keys()].filter((k) => k.startsWith('record/shipment/'));
      const printed = capture();
      const shipmentId = shipmentKey!.split('/')[2]!;
      expect(await runCli(['raw', 'shipment', shipmentId, '--db', dbPath], { out: printed.stream })).toBe(0);
      expect(before.get(shipmentKey!)?.body).toBe(printed.text().trimEnd());
      const runs = [...before.values()].filter((r) => r.kind === 'sync_run');
      expect(runs.map((r) => JSON.parse(r.body!).status)).toEqual(['ok']);

      // The service moves on: the next round publishes what changed, at seqs above the last.
      sandbox.advance(3 * 24 * 3600);
      const second = await hub(hubArgs(url));
      expect(second.code).toBe(exitCodes.ok);
      const after = await published('hub_main');
      const lastBefore = Math.max(...[...before.values()].map((r) => Number(r.seq)));
      const changed = [...after.values()].filter((r) => before.get(`${r.kind}/${r.type}/${r.id}`)?.body !== r.body);
      expect(changed.length).toBeGreaterThan(0);
      for (const row of after.values()) {
        const old = before.get(`${row.kind}/${row.type}/${row.id}`);
        if (old?.body === row.body) expect(row.seq).toBe(old.seq);
        else expect(Number(row.seq)).toBeGreaterThan(lastBefore);
      }
      expect(liveRecords(after)).toEqual(storedRecords(db));
      const changes = db.prepare<[], number>('SELECT count(*) FROM record_changes').pluck().get();
      expect(changes).toBeGreaterThan(0);
      expect([...after.values()].filter((r) => r.kind === 'change')).toHaveLength(changes!);
      expect([...after.values()].filter((r) => r.kind === 'sync_run')).toHaveLength(2);
    } finally {
      db.close();
    }
  }, 120_000);

  it('stopped between pages and run again, publishes what was missing and nothing twice', async () => {
    const clean = await postgres.get().createDatabase('hub_clean');
    const stopped = await postgres.get().createDatabase('hub_stopped');
    const db = openDatabase(dbPath);
    try {
      await withClient(clean, (client) => new Publisher(db, client, 'clean').publish());
      let pages = 0;
      let rowsBeforeStop = 0;
      const failing = withClient(stopped, (client) =>
        new Publisher(db, client, 'stopped', {
          pageRows: 7,
          afterPage: ({ rows }) => {
            rowsBeforeStop += rows;
            if (++pages === 3) throw new Error('killed between pages');
          },
        }).publish(),
      );
      await expect(failing).rejects.toThrow('killed between pages');
      const partial = await published('hub_stopped');
      expect(partial.size).toBe(rowsBeforeStop);
      expect(rowsBeforeStop).toBeGreaterThan(0);
      // The cursor PostgreSQL confirmed with the third page is the store's copy too.
      const [meta] = await postgres
        .get()
        .query<{ cursor: PublishCursor }>('SELECT cursor FROM quayside.meta', [], 'hub_stopped');
      expect(readState<PublishCursor>(db, PUBLISH_CURSOR_KEY)).toEqual(meta!.cursor);

      const resumed = await withClient(stopped, (client) =>
        new Publisher(db, client, 'stopped', { pageRows: 7 }).publish(),
      );
      const whole = await published('hub_stopped');
      // Rows published before the stop kept their seq: none was published again.
      for (const [key, row] of partial) expect(whole.get(key)?.seq).toBe(row.seq);
      expect(resumed.records + resumed.changes + resumed.syncRuns).toBe(whole.size - partial.size);
      const strip = (rows: Map<string, Published>) => new Map([...rows].map(([key, r]) => [key, r.body] as const));
      expect(strip(whole)).toEqual(strip(await published('hub_clean')));

      // Published again with nothing new: nothing is written.
      const again = await withClient(stopped, (client) => new Publisher(db, client, 'stopped').publish());
      expect(again).toMatchObject({ records: 0, deletions: 0, changes: 0, syncRuns: 0, lastSeq: resumed.lastSeq });
    } finally {
      db.close();
    }
  }, 120_000);

  it('publishes a record the store no longer keeps as a tombstone at a new seq', async () => {
    const url = await postgres.get().createDatabase('hub_deletions');
    const db = openDatabase(dbPath);
    try {
      // A webhook kept as the app keeps the one it creates, then deleted as the app deletes it.
      const id = 'a1b2c3d4-0000-4000-8000-00000000d31e';
      const webhook = {
        type: 'webhook',
        id,
        attributes: { url: 'https://example.com/hook', active: true, events: [] },
      };
      writeResources(db, [webhook], { syncedAt: new Date().toISOString() });
      await withClient(url, (client) => new Publisher(db, client, 'deletions').publish());
      const key = `record/webhook/${id}`;
      const before = (await published('hub_deletions')).get(key);
      expect(JSON.parse(before?.body ?? 'null')).toMatchObject({ id, attributes: { url: 'https://example.com/hook' } });
      deleteWebhook(db, id);
      const summary = await withClient(url, (client) => new Publisher(db, client, 'deletions').publish());
      expect(summary.deletions).toBe(1);
      const after = (await published('hub_deletions')).get(key);
      expect(after?.body).toBeNull();
      expect(Number(after?.seq)).toBeGreaterThan(Number(before?.seq));
      expect(liveRecords(await published('hub_deletions'))).toEqual(storedRecords(db));
    } finally {
      db.close();
    }
  }, 60_000);

  it('refuses a schema written by a newer hub with one sentence, writing nothing', async () => {
    const url = await postgres.get().createDatabase('hub_newer');
    expect((await hub(hubArgs(url))).code).toBe(exitCodes.ok);
    await postgres.get().query('UPDATE quayside.meta SET schema_version = 99', [], 'hub_newer');
    const before = await published('hub_newer');
    sandbox.advance(24 * 3600);
    const run = await hub(hubArgs(url));
    expect(run.code).toBe(exitCodes.failure);
    expect(run.err).toMatch(
      /^PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:\d+\/hub_newer holds a team hub schema newer than this Quayside knows \(version 99; this one knows 1\): update Quayside to use it\.\n$/,
    );
    expect(await published('hub_newer')).toEqual(before);
  }, 60_000);

  it("gives the laptops' role of the setup SQL reading and no writing", async () => {
    await postgres.get().createDatabase('hub_roles');
    const sql = setupSql({ hub: 'hub-secret', reader: 'reader-secret' });
    await postgres.get().query(sql, [], 'hub_roles');
    const asHub = postgres.get().url('hub_roles', 'quayside_hub');
    expect((await hub(hubArgs(asHub))).code).toBe(exitCodes.ok);

    const asReader = postgres.get().url('hub_roles', 'quayside_reader');
    await withClient(asReader, async (client) => {
      const rows = await client.query('SELECT seq FROM quayside.published WHERE seq > $1 ORDER BY seq LIMIT 10', [0]);
      expect(rows.rowCount).toBe(10);
      // Its transactions are read-only by default; turned off, the grants still refuse every write.
      await client.query('SET default_transaction_read_only = off');
      for (const write of [
        "INSERT INTO quayside.published (seq, kind, type, id) VALUES (-1, 'record', 'x', 'y')",
        'UPDATE quayside.published SET body = NULL',
        'DELETE FROM quayside.published',
        'UPDATE quayside.meta SET schema_version = 0',
        'CREATE TABLE quayside.mine (x int)',
      ]) {
        await expect(client.query(write)).rejects.toMatchObject({ code: '42501' });
      }
    });
  }, 60_000);

  it('refuses a remote PostgreSQL without TLS before reading the key or sending anything', async () => {
    const run = await hub(['--postgres', 'postgres://team@db.example.com/quayside?sslmode=disable', '--db', dbPath]);
    expect(run.code).toBe(exitCodes.usage);
    expect(run.err).toBe(
      "Quayside will not reach PostgreSQL at db.example.com without TLS (the address says sslmode=disable); only this computer's PostgreSQL may be reached unencrypted.\n",
    );
    expect(run.out).toBe('');
  });
});

describe('hub command line', () => {
  it('prints the setup SQL: a writing role for the hub, a reading one for the laptops', async () => {
    const run = await hub(['--print-setup']);
    expect(run.code).toBe(exitCodes.ok);
    expect(run.out).toContain('CREATE SCHEMA quayside AUTHORIZATION quayside_hub;');
    expect(run.out).toContain('GRANT SELECT ON ALL TABLES IN SCHEMA quayside TO quayside_reader;');
    expect(run.out).not.toMatch(/GRANT (INSERT|UPDATE|DELETE|ALL)/);
  });

  it('refuses bad arguments with exit 2 and one sentence', async () => {
    for (const [args, sentence] of [
      [['--db', 'x.sqlite'], 'hub needs --postgres URL (or --print-setup)'],
      [['--postgres', 'postgres://127.0.0.1/q'], 'hub needs --db PATH or --profile NAME'],
      [
        ['--postgres', 'postgres://127.0.0.1/q', '--db', 'x.sqlite', '--every', 'soon'],
        '--every takes a number of minutes',
      ],
      [['--print-setup', '--db', 'x.sqlite'], 'hub --print-setup takes no other option'],
    ] as const) {
      const run = await hub([...args]);
      expect(run.code).toBe(exitCodes.usage);
      expect(run.err.split('\n')[0]).toContain(sentence);
    }
  });
});
