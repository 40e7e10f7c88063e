/**
 * Writes API resources into the store: one transaction per page, upserts keyed by the API id
 * (so a page written twice changes nothing), stub rows for references not synced yet, derived
 * container columns, and the search rows of every record a page touched. What each type's row
 * holds comes from its descriptor in the resource registry (`src/core/resources`): columns and
 * how each is read, references to stub, write order, search row, list table, context columns.
 * Date columns take only real instants (`instant.ts`): a bad date is stored as NULL, its text
 * kept in `raw`. The upsert SQL, write order and reference cache are in `writer-columns.ts`.
 */
import type Database from 'better-sqlite3';
import {
  descriptors,
  resources as registry,
  storedUuid,
  type ResourceDescriptor,
  type WriteContext,
} from '../resources';
import type { Db } from './database';
import type { StoredResource } from './resource';
import { residualOf, residualSpec, type ResidualSpec } from './residual';
import { prepareHistory, readBefore, recordChanges, type HistoryPlan } from './writer-changes';
import { rank, rememberReferences, syncSearchRow, unchangedReference, upsertSql } from './writer-columns';

export interface WriteCounts {
  [type: string]: number;
}

type Row = Readonly<Record<string, unknown>>;
/** Resources written between two looks at the clock in a slice with a deadline (`writeSlice`). */
const BLOCK = 16;
const noRow: Row = {};

/** One descriptor's statements and column plan, for one database. */
interface TablePlan {
  d: ResourceDescriptor;
  columns: ResourceDescriptor['columns'][string][];
  /** Reference columns: where the id sits in the row, and the resource it is stubbed in. */
  refs: { index: number; target: string }[];
  upsert: Database.Statement;
  /** Whether other rows reference this resource (its written ids join the page's present set). */
  referenced: boolean;
  /** Context columns' names and places in the row (`WriteContext.contextOf`). */
  context: { name: string; index: number }[];
  readContext: Database.Statement | null;
  list: { remove: Database.Statement; insert: Database.Statement } | null;
  search: {
    rowid: Database.Statement;
    body: Database.Statement;
    remove: Database.Statement;
    insert: Database.Statement;
  } | null;
  /** The change history's statements, when the descriptor watches fields (`history`). */
  history: HistoryPlan | null;
  /** Where `raw` sits in the row and what the columns hold, when raw keeps only the rest (`residual.ts`). */
  residual: { index: number; spec: ResidualSpec } | null;
  /** Whether the row was written at or after an instant (its synced_at): `countOncePerRun`. */
  writtenSince: Database.Statement | null;
  /** Where the columns that hold a text's key in `interned` sit in the row (`Column.interned`). */
  interned: number[];
  /** Where the instants kept as epoch milliseconds sit in the row (`Column.epochMs`). */
  epochMs: number[];
  /** Whether `synced_at` is one of them (`writtenSince` then compares milliseconds). */
  syncedAtMs: boolean;
  /** Where the UUIDs kept as bytes sit in the row (`Column.uuid`); the id's own is bound so too. */
  uuid: number[];
  idUuid: boolean;
}

function prepare(db: Db) {
  const referenced = new Set(
    descriptors.flatMap((d) => Object.values(d.columns).flatMap((c) => (c.references ? [c.references] : []))),
  );
  const stubs = new Map<string, Database.Statement>();
  for (const name of referenced) {
    const table = registry[name as keyof typeof registry].table;
    stubs.set(name, db.prepare(`INSERT OR IGNORE INTO ${table} (id) VALUES (?)`));
  }
  const plans = new Map<string, TablePlan>();
  const byName = new Map<string, TablePlan>();
  for (const d of descriptors) {
    const names = Object.keys(d.columns);
    const columns = Object.values(d.columns);
    const search = d.search?.table;
    const also = d.search?.also;
    const plan: TablePlan = {
      d,
      columns,
      refs: columns.flatMap((c, index) => (c.references ? [{ index, target: c.references }] : [])),
      upsert: db.prepare(upsertSql(d.table, names, d.onConflict)),
      referenced: referenced.has(d.name),
      context: (d.context ?? []).map((name) => ({ name, index: names.indexOf(name) })),
      readContext: d.context ? db.prepare(`SELECT ${d.context.join(', ')} FROM ${d.table} WHERE id = ?`) : null,
      list: d.listTable
        ? {
            remove: db.prepare(`DELETE FROM ${d.listTable.table} WHERE ${d.listTable.parent} = ?`),
            insert: db.prepare(
              `INSERT OR IGNORE INTO ${d.listTable.table} (${d.listTable.parent}, ${d.listTable.column}) VALUES (?, ?)`,
            ),
          }
        : null,
      // A RETURNING rowid on the upserts made them three times slower than this lookup.
      search: search
        ? {
            rowid: db.prepare(`SELECT rowid FROM ${d.table} WHERE id = ?`).pluck(),
            body: db.prepare(`SELECT body FROM ${search} WHERE rowid = ?`).pluck(),
            remove: db.prepare(`DELETE FROM ${search} WHERE rowid = ?`),
            insert: db.prepare(
              also
                ? `INSERT INTO ${search} (rowid, body, ${also.column})
                     SELECT v.r, v.b, ${also.value('v.r')} FROM (SELECT ? AS r, ? AS b) v`
                : `INSERT INTO ${search} (rowid, body) VALUES (?, ?)`,
            ),
          }
        : null,
      history: prepareHistory(db, d, names),
      residual: residualOf_(d, names),
      writtenSince: names.includes('synced_at')
        ? db.prepare(`SELECT 1 FROM ${d.table} WHERE id = ? AND synced_at >= ?`).pluck()
        : null,
      interned: columns.flatMap((c, index) => (c.interned ? [index] : [])),
      epochMs: columns.flatMap((c, index) => (c.epochMs ? [index] : [])),
      syncedAtMs: d.columns.synced_at?.epochMs === true,
      uuid: columns.flatMap((c, index) => (c.uuid ? [index] : [])),
      idUuid: d.columns.id?.uuid === true,
    };
    byName.set(d.name, plan);
    for (const type of d.types) plans.set(type, plan);
  }
  const { table } = registry.containers;
  return {
    plans,
    byName,
    stubs,
    histories: [...byName.values()].flatMap((p) => (p.history ? [p.history] : [])),
    // The events-complete mark, over the placeholder of the same length the box was written with.
    eventsSynced: db.prepare(`UPDATE ${table} SET events_synced_at = ? WHERE id = ?`),
    internedKey: db.prepare<[string], number>('SELECT key FROM interned WHERE text = ?').pluck(),
    intern: db.prepare<[string]>('INSERT INTO interned (text) VALUES (?)'),
  };
}

function residualOf_(d: ResourceDescriptor, names: string[]): TablePlan['residual'] {
  const spec = residualSpec(d);
  return spec ? { index: names.indexOf('raw'), spec } : null;
}

type Statements = ReturnType<typeof prepare>;

const statementCache = new WeakMap<Db, Statements>();
function statements(db: Db): Statements {
  let s = statementCache.get(db);
  if (!s) {
    s = prepare(db);
    statementCache.set(db, s);
  }
  return s;
}

export interface WriteOptions {
  syncedAt: string;
  /** More writes that must commit with the page (a sync checkpoint). */
  alsoInTransaction?: () => void;
  /** Containers whose transport events this page carries in full (their events_synced_at moves). */
  eventsCompleteFor?: Iterable<string>;
}

/** A search row a sliced page writes with its last slice. */
export interface SearchLater {
  search: NonNullable<TablePlan['search']>;
  rowid: number;
  body: string | null;
}

/** What one page's write remembers while it runs, to skip work it has already done. */
class PageWrite implements WriteContext {
  /** The record being written, and its JSON once something asked for it. */
  record: StoredResource | null = null;
  json: string | null = null;
  get raw(): string {
    return (this.json ??= JSON.stringify(this.record));
  }
  /** Ids of each referenced resource already made sure of (stubbed, or written in full) in this page. */
  readonly present = new Map<string, Set<string>>();
  /** Context columns of the rows written in this page, by resource and id. */
  readonly contexts = new Map<string, Map<string, Row>>();
  /** The watched columns of the page's records as stored before it (change history), by plan. */
  before = new Map<HistoryPlan, Map<string, Row>>();
  /** Search rows kept for the page's last slice (`writeSlice`), or null: written at once. */
  searchLater: SearchLater[] | null = null;
  /**
   * The keys of the texts this page interned or looked up. Only for the page: a key given in a
   * page that rolls back is given again to another text.
   */
  readonly keys = new Map<string, number>();

  constructor(
    readonly s: Statements,
    readonly syncedAt: string,
  ) {}

  contextOf(resource: string, id: string | null): Row {
    if (id === null) return noRow;
    const known = this.contexts.get(resource)?.get(id);
    if (known !== undefined) return known;
    return (this.s.byName.get(resource)?.readContext?.get(id) as Row | undefined) ?? noRow;
  }

  /** The key of `text` in `interned`, given now if it has none. */
  keyOf(text: string): number {
    let key = this.keys.get(text);
    if (key === undefined) {
      key = this.s.internedKey.get(text) ?? Number(this.s.intern.run(text).lastInsertRowid);
      this.keys.set(text, key);
    }
    return key;
  }

  presentIn(resource: string): Set<string> {
    let ids = this.present.get(resource);
    if (ids === undefined) {
      ids = new Set();
      this.present.set(resource, ids);
    }
    return ids;
  }
}

/** The start of the sync run counting on each database (`countOncePerRun`). */
const runStarts = new WeakMap<Db, string>();

/**
 * Until the answered function is called, the counts of writes to `db` name each record once: a
 * record whose row was written at or after `since` (its synced_at, which every write sets) is
 * written again but not counted again. A sync run calls it with its start, so its summary says
 * how many distinct records of each type it wrote, however many walks, includes and pages
 * brought them (the shipments walk, then the tracking requests' `tracked_object`; a vessel on
 * many pages). One look-up by primary key per resource written, only while a run counts.
 */
export function countOncePerRun(db: Db, since: string): () => void {
  runStarts.set(db, since);
  return () => {
    if (runStarts.get(db) === since) runStarts.delete(db);
  };
}

/** The start of the run counting on `db` (`countOncePerRun`), if one is. */
export function countingSince(db: Db): string | null {
  return runStarts.get(db) ?? null;
}

/** Writes one page (data plus included) in a single transaction; returns counts by type. */
export function writeResources(db: Db, resources: StoredResource[], options: WriteOptions): WriteCounts {
  const sorted = [...resources].sort((a, b) => rank(a.type) - rank(b.type));
  return writeSlice(db, sorted, 0, Infinity, options).counts;
}

/**
 * Writes `sorted` (in write order) from `from` in one transaction, until its end or until
 * `deadline` (a `performance.now()` time) has passed, whichever comes first (at least one
 * resource); `next` is where the next slice starts. The page's last writes (events-complete
 * marks, `alsoInTransaction`) go only with the slice that reaches the end (`writer-steps.ts`).
 */
export function writeSlice(
  db: Db,
  sorted: readonly StoredResource[],
  from: number,
  deadline: number,
  options: WriteOptions,
  searchLater: SearchLater[] | null = null,
): { counts: WriteCounts; next: number; done: boolean } {
  const s = statements(db);
  const counts: WriteCounts = {};
  const written = new Map<string, string>();
  const runStart = runStarts.get(db);
  let next = from;
  let done = false;
  // Without a deadline the whole page is one block; with one, blocks of BLOCK resources (their
  // history read together), the clock read before each resource: a slice ends at its deadline
  // whatever the resources cost (a container with its changes costs far more than a port).
  const block = deadline === Infinity ? sorted.length : BLOCK;
  const late = () => deadline !== Infinity && performance.now() > deadline;
  const write = db.transaction(() => {
    const page = new PageWrite(s, options.syncedAt);
    page.searchLater = searchLater;
    blocks: while (next < sorted.length) {
      const resources = from === 0 && block === sorted.length ? sorted : sorted.slice(next, next + block);
      page.before = readBefore(s.histories, resources);
      for (const resource of resources) {
        if (next > from && late()) break blocks;
        next++;
        page.record = resource;
        page.json = null;
        if (unchangedReference(db, resource, () => page.raw, written)) continue;
        // Read before the write, which moves synced_at: written already in this run, not counted again.
        const plan = s.plans.get(resource.type);
        const since = plan?.syncedAtMs && runStart !== undefined ? Date.parse(runStart) : runStart;
        const id = plan?.idUuid ? storedUuid(resource.id) : resource.id;
        const again = since !== undefined && plan?.writtenSince?.get(id, since) !== undefined;
        if (writeOne(page, resource) && !again) {
          counts[resource.type] = (counts[resource.type] ?? 0) + 1;
        }
      }
    }
    if (next < sorted.length) return;
    // What commits with the whole page (its search rows, its marks, the caller's checkpoint) gets
    // a slice of its own when this one has used its time.
    if (next > from && late()) return;
    done = true;
    // Every commit would leave the search indexes a segment of its own, to merge later: a sliced
    // page writes its search rows with its last slice, one segment a page as when it was whole.
    for (const later of searchLater ?? []) {
      const { body, remove, insert } = later.search;
      syncSearchRow(body, remove, insert, later.rowid, later.body);
    }
    for (const id of options.eventsCompleteFor ?? []) s.eventsSynced.run(options.syncedAt, id);
    options.alsoInTransaction?.();
  });
  // Every reference gets a stub row before the row that points at it, so the page keeps the
  // foreign keys by construction; SQLite's own per-row checks made a page of events ~15x
  // slower, so they are off for this write (tests run foreign_key_check after syncs).
  // The pragma cannot change inside a transaction: a caller's transaction keeps the checks.
  const toggle = !db.inTransaction && db.pragma('foreign_keys', { simple: true }) === 1;
  if (toggle) db.pragma('foreign_keys = OFF');
  try {
    // IMMEDIATE: the write lock taken before the first read, so a writer on another connection
    // (the sync pages' worker, the CLI) that commits meanwhile makes this wait, never fail.
    write.immediate();
  } finally {
    if (toggle) db.pragma('foreign_keys = ON');
  }
  // Inside a caller's transaction the page may still roll back: remember nothing then.
  if (!db.inTransaction) rememberReferences(db, written);
  return { counts, next, done };
}

/**
 * Makes sure a referenced row exists (as a stub if not synced yet). Within a page each id is
 * seen to once: a page names the same ports and shipments hundreds of times.
 */
function stubRef(page: PageWrite, target: string, id: unknown): void {
  if (typeof id !== 'string' || id === '') return;
  const ids = page.presentIn(target);
  if (!ids.has(id)) {
    page.s.stubs.get(target)!.run(id);
    ids.add(id);
  }
}

function writeOne(page: PageWrite, r: StoredResource): boolean {
  const plan = page.s.plans.get(r.type);
  if (plan === undefined) return false; // a type the store does not keep; the page's other resources still land
  const { d } = plan;
  if (d.accept && !d.accept(r)) return false;
  const derived = d.derive ? d.derive(r, page) : undefined;
  const values = new Array<unknown>(plan.columns.length);
  const residual = plan.residual;
  for (let i = 0; i < values.length; i++) {
    if (i !== residual?.index) values[i] = plan.columns[i]!.read(r, page, derived);
  }
  if (residual) values[residual.index] = residualOf(residual.spec, r, r.id, values);
  for (const ref of plan.refs) stubRef(page, ref.target, values[ref.index]);
  if (plan.history) recordChanges(plan.history, page.before.get(plan.history), r.id, values, page.syncedAt);
  // Texts stored as keys: read, kept in the residual and stubbed as texts, bound as keys.
  for (const i of plan.interned) {
    const text = values[i];
    values[i] = typeof text === 'string' ? page.keyOf(text) : null;
  }
  // Instants stored as epoch milliseconds (a stored instant's text always parses).
  for (const i of plan.epochMs) {
    const text = values[i];
    const ms = typeof text === 'string' ? Date.parse(text) : NaN;
    values[i] = Number.isFinite(ms) ? ms : null;
  }
  for (const i of plan.uuid) values[i] = storedUuid(values[i]);
  plan.upsert.run(values);
  if (plan.referenced) page.presentIn(d.name).add(r.id);
  if (plan.context.length > 0) {
    let rows = page.contexts.get(d.name);
    if (rows === undefined) page.contexts.set(d.name, (rows = new Map<string, Row>()));
    rows.set(r.id, Object.fromEntries(plan.context.map((c) => [c.name, values[c.index]])));
  }
  if (plan.list && d.listTable) {
    plan.list.remove.run(r.id);
    for (const value of d.listTable.values(r, derived)) plan.list.insert.run(r.id, value);
  }
  if (plan.search && d.search) {
    const { rowid, body, remove, insert } = plan.search;
    const id = rowid.get(r.id) as number;
    if (page.searchLater) page.searchLater.push({ search: plan.search, rowid: id, body: d.search.body(r, derived) });
    else syncSearchRow(body, remove, insert, id, d.search.body(r, derived));
  }
  return true;
}
