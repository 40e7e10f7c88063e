/**
 * Change history end to end: two syncs of the sandbox with its clock moved on
 * between them (ETAs revised, boxes discharged and given last free days, holds put on and
 * released), then `npm run cli -- changes --db PATH --json`. The first sync records nothing; the
 * second records exactly what moved in the store, each change with the value before and after.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index';
import { exitCodes } from '../../src/cli/exit-codes';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../src/core/store/database';
import { writeResources } from '../../src/core/store/writer';
import { capture } from '../helpers/capture';
import { useSandbox } from '../helpers/sandbox';
import { shipmentResource } from '../helpers/resources';
import { syncOf } from '../helpers/sync';
import { tempDir } from '../helpers/temp-dir';

const DAY = 86_400;

async function cli(args: string[]) {
  const out = capture();
  const err = capture();
  const code = await runCli(args, { out: out.stream, err: err.stream });
  return { code, out: out.text(), err: err.text() };
}

interface CliChange {
  resource: 'shipment' | 'container';
  number: string | null;
  field: string;
  detail: string | null;
  old: unknown;
  new: unknown;
  seen_at: string;
  record_id: string;
}

/** What the store holds of each synced record's watched columns, by id. */
function snapshot(db: Db) {
  const read = (sql: string) =>
    new Map((db.prepare(sql).all() as { id: string }[]).map((row) => [row.id, row as Record<string, unknown>]));
  return {
    shipments: read(
      'SELECT id, bill_of_lading, pod_eta_at, pod_ata_at, pod_vessel_name FROM shipments WHERE raw IS NOT NULL',
    ),
    containers: read(
      'SELECT id, number, status, last_free_day, lfd_source, holds, available_for_pickup FROM containers WHERE raw IS NOT NULL',
    ),
  };
}

/** The [record id, old, new] of every record whose column moved between two snapshots. */
function moved(
  before: Map<string, Record<string, unknown>>,
  after: Map<string, Record<string, unknown>>,
  column: string,
) {
  const out: [string, unknown, unknown][] = [];
  for (const [id, row] of after) {
    const was = before.get(id);
    if (was && was[column] !== row[column]) out.push([id, was[column], row[column]]);
  }
  return out.sort();
}

describe('change history over two syncs, and the CLI', () => {
  // Frozen, then moved on by hand: the clock jumps four days between the syncs.
  const sandbox = useSandbox({ seed: 'changes', shipments: 80, start: Date.parse('2026-03-02T09:00:00Z'), tick: 0 });

  it('records what moved between the syncs, never the first sight, and prints it with changes --json', async () => {
    const sync = syncOf(sandbox.get());
    expect((await sync.engine.run({ mode: 'full' })).status).toBe('ok');
    // Every record was seen for the first time: no change.
    expect(sync.db.prepare('SELECT count(*) FROM record_changes').pluck().get()).toBe(0);
    const before = snapshot(sync.db);
    const firstSyncEnded = new Date().toISOString();

    sandbox.get().advance(4 * DAY);
    expect((await sync.engine.run({ mode: 'incremental' })).status).toBe('ok');
    const after = snapshot(sync.db);
    sync.close();

    const listed = await cli(['changes', '--db', sync.dbPath, '--json']);
    expect(listed.code).toBe(exitCodes.ok);
    const { changes } = JSON.parse(listed.out) as { changes: CliChange[] };
    const of = (field: string) =>
      changes
        .filter((c) => c.field === field)
        .map((c) => [c.record_id, c.old, c.new])
        .sort();

    // The clock moved ETAs, arrivals, statuses and last free days: each move is one change, with
    // the value the first sync stored and the one the second stored.
    const etas = moved(before.shipments, after.shipments, 'pod_eta_at');
    expect(etas.length).toBeGreaterThan(0);
    expect(of('eta')).toEqual(etas);
    expect(of('ata')).toEqual(moved(before.shipments, after.shipments, 'pod_ata_at'));
    expect(of('vessel')).toEqual(moved(before.shipments, after.shipments, 'pod_vessel_name'));
    const statuses = moved(before.containers, after.containers, 'status');
    expect(statuses.length).toBeGreaterThan(0);
    expect(of('status')).toEqual(statuses);
    const lfds = moved(before.containers, after.containers, 'last_free_day');
    expect(lfds.length).toBeGreaterThan(0);
    expect([...of('lfd_terminal'), ...of('lfd_rail')].sort()).toEqual(lfds);
    for (const change of changes.filter((c) => c.field === 'lfd_rail')) {
      expect(after.containers.get(change.record_id)?.lfd_source).toBe('rail');
    }
    const availability = moved(before.containers, after.containers, 'available_for_pickup').map(([id, was, now]) => [
      id,
      was === null ? null : was === 1,
      now === null ? null : now === 1,
    ]);
    expect(of('available')).toEqual(availability);

    // Each names its record as a forwarder quotes it, and when the second sync saw it.
    for (const change of changes) {
      expect(Object.keys(change).sort()).toEqual(
        ['detail', 'field', 'new', 'number', 'old', 'record_id', 'resource', 'seen_at'].sort(),
      );
      const record =
        change.resource === 'shipment'
          ? after.shipments.get(change.record_id)?.bill_of_lading
          : after.containers.get(change.record_id)?.number;
      expect(change.number).toBe(record);
      expect(change.seen_at > firstSyncEnded).toBe(true);
    }
    // Oldest first.
    expect(changes.map((c) => c.seen_at)).toEqual(changes.map((c) => c.seen_at).sort());

    // --since: from a moment on; after the last change, none.
    const since = await cli(['changes', '--db', sync.dbPath, '--since', firstSyncEnded, '--json']);
    expect((JSON.parse(since.out) as { changes: CliChange[] }).changes).toHaveLength(changes.length);
    const later = await cli(['changes', '--db', sync.dbPath, '--since', '2999-01-01', '--json']);
    expect(JSON.parse(later.out)).toEqual({ changes: [] });

    // Without --json, a table a person reads: one line per change and the total.
    const table = await cli(['changes', '--db', sync.dbPath]);
    expect(table.code).toBe(exitCodes.ok);
    const lines = table.out.trim().split('\n');
    expect(lines[0]).toMatch(/^Seen \(UTC\)\s+Record\s+Number\s+Change\s+Was → now$/);
    expect(lines).toHaveLength(changes.length + 2);
    expect(lines.at(-1)).toBe(`${changes.length} changes.`);
    const eta = changes.find((c) => c.field === 'eta')!;
    expect(table.out).toContain(`${eta.number}`);
    expect(table.out).toMatch(new RegExp(`ETA\\s+${String(eta.old).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} → `));
  });

  it('prints text from the service without the control characters that would drive a terminal', async () => {
    const dbPath = join(tempDir(), 'hostile.sqlite');
    const db = openDatabase(dbPath);
    const vessel = (name: string) =>
      shipmentResource({ bill_of_lading_number: 'MEDU1', pod_vessel_name: name }, { id: 's-1' });
    writeResources(db, [vessel('MSC Aurora')], { syncedAt: '2026-03-01T00:00:00.000Z' });
    writeResources(db, [vessel('\u001b[2J\u001b]0;owned\u0007EVIL\u202eSHIP\nNEXT')], {
      syncedAt: '2026-03-02T00:00:00.000Z',
    });
    db.close();
    const table = await cli(['changes', '--db', dbPath]);
    expect(table.code).toBe(exitCodes.ok);
    expect(table.out).toContain('MSC Aurora → [2J]0;ownedEVILSHIP NEXT');
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(table.out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e]/);
    // JSON keeps the value as sent, escaped by JSON itself.
    const json = await cli(['changes', '--db', dbPath, '--json']);
    expect((JSON.parse(json.out) as { changes: CliChange[] }).changes[0]!.new).toBe(
      '\u001b[2J\u001b]0;owned\u0007EVIL\u202eSHIP\nNEXT',
    );
  });

  it('refuses a --since that is no date with exit 2 and a sentence, and a missing database with exit 1', async () => {
    for (const since of ['yesterday', '2026-02-30', '2026-05-01T08:00', '05/01/2026']) {
      const refused = await cli(['changes', '--db', '/nonexistent.sqlite', '--since', since]);
      expect(refused.code, since).toBe(exitCodes.usage);
      expect(refused.err, since).toContain(
        `--since must be a date and time with its zone, such as 2026-05-01T08:00:00Z, or a day such as 2026-05-01; "${since}" is neither.`,
      );
      expect(refused.out).toBe('');
    }
    expect((await cli(['changes', '--json'])).code).toBe(exitCodes.usage);
    const missing = await cli(['changes', '--db', '/nonexistent/q.sqlite', '--json']);
    expect(missing).toMatchObject({ code: exitCodes.failure, out: '' });
    expect(missing.err).toMatch(/There is no database at \/nonexistent\/q\.sqlite/);
  });
});
