/**
 * Publishes what the hub's SQLite store holds into PostgreSQL (`schema.ts` for the tables and how
 * a reader pulls): after each sync run, the records written since the last publish (every row
 * whose synced_at is at or after the cursor's instant, read back as `quayside raw` prints it),
 * the records gone from the store (tombstones), new change history rows and the sync log. It reads
 * only the SQLite file: publishing sends no API request.
 *
 * Pages of at most `pageRows` rows, each in one transaction that also writes the cursor into
 * `quayside.meta`: a reader never sees half a page, and the cursor PostgreSQL holds always
 * matches the rows it holds. The same cursor is then kept in the store's sync state (`status`
 * reads it); where the two differ (killed between the commit and that write), PostgreSQL's wins.
 * A row whose body is unchanged is left as it is (its seq too), so publishing again what was
 * published already, after a kill or over a margin of time, writes nothing twice.
 *
 * Deletions: after the scan, each table's count of records is compared with PostgreSQL's live
 * records of its types (the published set holds every stored record once the scan is done, so
 * equal counts mean nothing is gone); only a table whose counts differ has its published ids
 * checked against the store, and what the store lacks is published as a tombstone. A table with
 * fewer published records than stored (a store whose clock went back) is scanned whole again.
 */
import { randomUUID } from 'node:crypto';
import type { ClientBase } from 'pg';
import { z } from 'zod';
import { descriptors, type ResourceDescriptor } from '../resources';
import type { Db } from '../store/database';
import { changesAfter, keepsRecord, syncLogFrom, writtenRecordIds } from '../store/queries/hub-publish';
import { storedRecord } from '../store/queries/raw';
import { countResources, readState, writeState } from '../store/sync-state';
import { HubError } from './errors';
import { ensureSchema } from './schema';

/** The store's sync state keys: this database's hub id, and the publish cursor's copy. */
export const HUB_ID_KEY = 'hub:id';
export const PUBLISH_CURSOR_KEY = 'hub:publish';

/** Rows a scan looks at again before the last scan's start: a clock that stepped back, a page stamped before it committed. */
const MARGIN_MS = 60_000;
const DEFAULT_PAGE_ROWS = 500;

export interface PublishCursor {
  /** Records written at or after this instant are looked at: the last whole scan's start less the margin; null: all. */
  since: string | null;
  /** The scan under way: its start, the table (index in `tables`) and the last id published in it. */
  scan: { start: string; table: number; after: string | null } | null;
  /** The last change history row published. */
  changesAfter: number;
  /** The first sync log row that may still change (a run under way when last published). */
  logFrom: number;
}

export interface PublishOptions {
  /** Rows per page and transaction (default 500). */
  pageRows?: number;
  /** Called after each page has committed and the cursor is kept (tests stop a publish there). */
  afterPage?: (page: { kind: 'record' | 'change' | 'sync_run'; rows: number }) => void | Promise<void>;
  now?: () => number;
  signal?: AbortSignal;
}

export interface PublishSummary {
  /** Rows PostgreSQL took as new or changed, by what they are. */
  records: number;
  deletions: number;
  changes: number;
  syncRuns: number;
  pages: number;
  /** The highest seq in PostgreSQL after this publish. */
  lastSeq: string | null;
  durationMs: number;
}

interface Row {
  kind: 'record' | 'change' | 'sync_run';
  type: string;
  id: string;
  body: string | null;
}

const tables = descriptors.filter((d) => 'raw' in d.columns && 'synced_at' in d.columns);

/** Far more than a cursor takes (a few hundred bytes): a larger one is not read. */
const MAX_CURSOR_BYTES = 64 * 1024;
const instant = z.string().refine((text) => !Number.isNaN(Date.parse(text)));
const row = z.number().int().nonnegative();
/** The cursor as this build writes it; any other (a broken or edited meta row) starts a whole scan again. */
const cursorSchema = z.object({
  since: instant.nullable(),
  scan: z.object({ start: instant, table: row.max(tables.length), after: z.string().max(200).nullable() }).nullable(),
  changesAfter: row,
  logFrom: row,
});

const UPSERT = `INSERT INTO quayside.published AS p (seq, kind, type, id, body)
SELECT nextval('quayside.published_seq'), r.kind, r.type, r.id, r.body::json
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS r (kind, type, id, body)
ON CONFLICT (kind, type, id) DO UPDATE SET seq = excluded.seq, body = excluded.body
  WHERE p.body::text IS DISTINCT FROM excluded.body::text`;

export class Publisher {
  readonly #db: Db;
  readonly #client: ClientBase;
  readonly #where: string;
  readonly #pageRows: number;
  readonly #options: PublishOptions;
  #cursor: PublishCursor = { since: null, scan: null, changesAfter: 0, logFrom: 0 };
  #hubId = '';
  #summary: PublishSummary = {
    records: 0,
    deletions: 0,
    changes: 0,
    syncRuns: 0,
    pages: 0,
    lastSeq: null,
    durationMs: 0,
  };

  /** `where`: the PostgreSQL address without its password, for messages. */
  constructor(db: Db, client: ClientBase, where: string, options: PublishOptions = {}) {
    this.#db = db;
    this.#client = client;
    this.#where = where;
    this.#pageRows = Math.max(1, options.pageRows ?? DEFAULT_PAGE_ROWS);
    this.#options = options;
  }

  async publish(): Promise<PublishSummary> {
    const started = Date.now();
    this.#summary = { records: 0, deletions: 0, changes: 0, syncRuns: 0, pages: 0, lastSeq: null, durationMs: 0 };
    await ensureSchema(this.#client, this.#where);
    this.#hubId = readState<string>(this.#db, HUB_ID_KEY) ?? '';
    if (!this.#hubId) writeState(this.#db, HUB_ID_KEY, (this.#hubId = randomUUID()));
    const meta = await this.#client.query<{ hub: string | null; cursor: unknown }>(
      `SELECT hub, CASE WHEN octet_length(cursor::text) <= $1 THEN cursor END AS cursor FROM quayside.meta`,
      [MAX_CURSOR_BYTES],
    );
    const held = meta.rows[0];
    if (held?.hub && held.hub !== this.#hubId) throw this.#otherHub();
    // A cursor this build cannot read is dropped: the whole scan that follows publishes nothing twice.
    const cursor = held?.hub ? cursorSchema.safeParse(held.cursor) : null;
    this.#cursor = cursor?.success ? cursor.data : { since: null, scan: null, changesAfter: 0, logFrom: 0 };

    const now = this.#options.now ?? Date.now;
    const scan = (this.#cursor.scan ??= { start: new Date(now() - MARGIN_MS).toISOString(), table: 0, after: null });
    await this.#scanRecords(scan);
    await this.#publishDeletions();
    await this.#publishChanges();
    await this.#publishSyncLog();
    // The scan is whole: the next one starts from its start (less the margin, taken already).
    await this.#commit([], { ...this.#cursor, since: scan.start, scan: null });
    const last = await this.#client.query<{ seq: string | null }>(
      'SELECT max(seq)::text AS seq FROM quayside.published',
    );
    this.#summary.lastSeq = last.rows[0]?.seq ?? null;
    this.#summary.durationMs = Date.now() - started;
    return this.#summary;
  }

  #otherHub(): HubError {
    return new HubError(
      'failure',
      `PostgreSQL at ${this.#where} already holds what another hub database publishes; publish this one into a PostgreSQL database of its own.`,
    );
  }

  /** The records written since the cursor's instant, table by table, in id order. */
  async #scanRecords(scan: NonNullable<PublishCursor['scan']>): Promise<void> {
    for (; scan.table < tables.length; scan.table++, scan.after = null) {
      const d = tables[scan.table]!;
      for (;;) {
        const ids = writtenRecordIds(this.#db, d, this.#cursor.since, scan.after, this.#pageRows);
        if (ids.length === 0) break;
        const rows = ids.flatMap((id) => this.#recordRow(d, id));
        scan.after = ids[ids.length - 1]!;
        const written = await this.#commit(rows, this.#cursor);
        this.#summary.records += written;
        await this.#options.afterPage?.({ kind: 'record', rows: rows.length });
        if (ids.length < this.#pageRows) break;
      }
    }
  }

  /** A stored record as a row to publish (none for a row that is only a reference, a stub). */
  #recordRow(d: ResourceDescriptor, id: string): Row[] {
    const record = storedRecord(this.#db, d, id);
    if (!record) return [];
    const type = typeof record.type === 'string' ? record.type : d.types[0];
    return [{ kind: 'record', type, id, body: JSON.stringify(record) }];
  }

  /** Tombstones for the published records the store no longer has (see the header). */
  async #publishDeletions(): Promise<void> {
    const stored = countResources(this.#db);
    for (const d of tables) {
      const live = await this.#client.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM quayside.published WHERE kind = 'record' AND type = ANY($1) AND body IS NOT NULL`,
        [d.types],
      );
      const published = Number(live.rows[0]?.n ?? 0);
      const here = stored[d.table] ?? 0;
      if (published < here) await this.#rescan(d);
      else if (published > here) await this.#tombstones(d);
    }
  }

  async #rescan(d: ResourceDescriptor): Promise<void> {
    for (let after: string | null = null; ;) {
      const ids = writtenRecordIds(this.#db, d, null, after, this.#pageRows);
      if (ids.length === 0) return;
      this.#summary.records += await this.#commit(
        ids.flatMap((id) => this.#recordRow(d, id)),
        this.#cursor,
      );
      after = ids[ids.length - 1]!;
    }
  }

  async #tombstones(d: ResourceDescriptor): Promise<void> {
    let after: [string, string] = ['', ''];
    for (;;) {
      const page = await this.#client.query<{ type: string; id: string }>(
        `SELECT type, id FROM quayside.published
          WHERE kind = 'record' AND type = ANY($1) AND body IS NOT NULL AND (type, id) > ($2, $3)
          ORDER BY type, id LIMIT $4`,
        [d.types, after[0], after[1], this.#pageRows],
      );
      if (page.rows.length === 0) return;
      const gone = page.rows.filter((r) => {
        if (!keepsRecord(this.#db, d, r.id)) return true;
        // A table of several types: a record now of another type is gone under this one.
        return d.types.length > 1 && storedRecord(this.#db, d, r.id)?.type !== r.type;
      });
      const last = page.rows[page.rows.length - 1]!;
      after = [last.type, last.id];
      if (gone.length > 0) {
        const rows = gone.map((r): Row => ({ kind: 'record', type: r.type, id: r.id, body: null }));
        this.#summary.deletions += await this.#commit(rows, this.#cursor);
      }
    }
  }

  async #publishChanges(): Promise<void> {
    for (;;) {
      const changes = changesAfter(this.#db, this.#cursor.changesAfter, this.#pageRows);
      if (changes.length === 0) return;
      const rows = changes.map(({ id, ...columns }): Row => ({
        kind: 'change',
        type: columns.resource,
        id: String(id),
        body: JSON.stringify(columns),
      }));
      this.#cursor.changesAfter = changes[changes.length - 1]!.id;
      this.#summary.changes += await this.#commit(rows, this.#cursor);
      await this.#options.afterPage?.({ kind: 'change', rows: rows.length });
    }
  }

  async #publishSyncLog(): Promise<void> {
    let from = this.#cursor.logFrom;
    let stillRunning: number | null = null;
    for (;;) {
      const runs = syncLogFrom(this.#db, from, this.#pageRows);
      if (runs.length === 0) break;
      const rows = runs.map(({ id, counts, ...columns }): Row => ({
        kind: 'sync_run',
        type: 'sync_run',
        id: String(id),
        body: JSON.stringify({ ...columns, counts: parseCounts(counts) }),
      }));
      stillRunning ??= runs.find((r) => r.status === 'running')?.id ?? null;
      from = runs[runs.length - 1]!.id + 1;
      this.#cursor.logFrom = stillRunning ?? from;
      this.#summary.syncRuns += await this.#commit(rows, this.#cursor);
      await this.#options.afterPage?.({ kind: 'sync_run', rows: rows.length });
    }
  }

  /**
   * One page: the rows and the cursor in one transaction, holding the meta row's lock (so pages
   * of two hubs never interleave their seqs); then the cursor's copy in the store. Returns how
   * many rows PostgreSQL took as new or changed.
   */
  async #commit(rows: Row[], cursor: PublishCursor): Promise<number> {
    if (this.#options.signal?.aborted) throw new HubError('failure', 'Publishing was stopped.');
    const client = this.#client;
    let written = 0;
    await client.query('BEGIN');
    try {
      const meta = await client.query<{ hub: string | null }>('SELECT hub FROM quayside.meta FOR UPDATE');
      const hub = meta.rows[0]?.hub ?? null;
      if (hub !== null && hub !== this.#hubId) throw this.#otherHub();
      if (rows.length > 0) {
        const result = await client.query(UPSERT, [
          rows.map((r) => r.kind),
          rows.map((r) => r.type),
          rows.map((r) => r.id),
          rows.map((r) => r.body),
        ]);
        written = result.rowCount ?? 0;
      }
      await client.query('UPDATE quayside.meta SET hub = $1, cursor = $2', [this.#hubId, JSON.stringify(cursor)]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    writeState(this.#db, PUBLISH_CURSOR_KEY, cursor);
    this.#summary.pages++;
    return written;
  }
}

function parseCounts(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {};
  }
}
