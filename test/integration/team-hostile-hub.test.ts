/**
 * A team hub publishing into a PostgreSQL whose quayside.meta holds a cursor this build never
 * wrote (edited by hand, broken, or of 20 MB): the hub reads none of it, scans the store whole
 * again, publishes the record that changed since and nothing twice (every other row keeps its
 * seq), against a real PostgreSQL (`helpers/postgres.ts`) and the sandbox.
 */
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodes } from '../../src/cli/exit-codes';
import { openDatabase } from '../../src/core/store/database';
import { readRaw, storedRecordIds } from '../../src/core/store/queries/raw';
import type { StoredResource } from '../../src/core/store/resource';
import { writeResources } from '../../src/core/store/writer';
import { Publisher } from '../../src/core/team/publisher';
import type { Sandbox } from '../../src/sandbox/index';
import { usePostgres } from '../helpers/postgres';
import { startTestSandbox } from '../helpers/sandbox';
import { cli } from '../helpers/team-pull';
import { tempDir } from '../helpers/temp-dir';

const postgres = usePostgres();

describe.skipIf(!postgres.available)('a hub publishing over a cursor it never wrote', () => {
  let sandbox: Sandbox;
  let hubDb = '';
  let url = '';

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 'team-hostile-hub', shipments: 6 });
    hubDb = join(tempDir(), 'hub.sqlite');
    url = await postgres.get().createDatabase('hostile_hub');
    const first = await cli(['hub', '--postgres', url, '--db', hubDb, '--base-url', sandbox.url]);
    expect(first.code).toBe(exitCodes.ok);
  }, 120_000);
  afterAll(() => sandbox.close());

  const seqs = () =>
    postgres
      .get()
      .query<{ key: string; seq: string }>(
        "SELECT kind || '/' || type || '/' || id AS key, seq::text AS seq FROM quayside.published ORDER BY 1",
        [],
        'hostile_hub',
      );

  it.each([
    [
      'values of the wrong kinds',
      `'{"since":"nonsense","scan":{"start":"x","table":-1,"after":5},"changesAfter":"z","logFrom":-5}'::jsonb`,
    ],
    [
      'a scan past the last table',
      `'{"since":null,"scan":{"start":"2026-01-01T00:00:00Z","table":999,"after":null},"changesAfter":0,"logFrom":0}'::jsonb`,
    ],
    ['a bare text', `'"resume here"'::jsonb`],
    ['20 MB of JSON', `jsonb_build_object('pad', repeat('x', 20000000))`],
  ])('publishes what changed and nothing twice over a cursor of %s', async (what, cursor) => {
    const before = await seqs();
    await postgres.get().query(`UPDATE quayside.meta SET cursor = ${cursor}`, [], 'hostile_hub');
    const db = openDatabase(hubDb);
    // A shipment the hub's store changed since its last publish.
    const id = storedRecordIds(db, 'shipment')[0]!;
    const raw = readRaw(db, 'shipment', id);
    if (raw.found !== 'record') throw new Error('no shipment stored');
    const record = JSON.parse(raw.raw) as StoredResource;
    record.attributes = { ...record.attributes, ref_numbers: [what] };
    writeResources(db, [record], { syncedAt: new Date().toISOString() });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const summary = await new Publisher(db, client, 'the test hub').publish();
      expect(summary).toMatchObject({ records: 1, deletions: 0, syncRuns: 0 });
      const after = await seqs();
      const moved = after.filter((row, i) => row.seq !== before[i]?.seq).map((row) => row.key);
      // The shipment, and the history rows its change recorded.
      expect(moved).toContain(`record/shipment/${id}`);
      expect(moved.filter((key) => key.startsWith('record/'))).toEqual([`record/shipment/${id}`]);
      expect(moved.filter((key) => !key.startsWith('record/') && !key.startsWith('change/'))).toEqual([]);
      // What it wrote back is a whole scan's cursor of its own.
      const [meta] = await postgres.get().query('SELECT cursor FROM quayside.meta', [], 'hostile_hub');
      expect(meta?.cursor).toMatchObject({ since: expect.any(String), scan: null });
    } finally {
      await client.end();
      db.close();
    }
  });
});
