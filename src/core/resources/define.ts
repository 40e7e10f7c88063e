/**
 * What a resource descriptor holds: the JSON:API types it stores, its table and the columns
 * the writer fills (SQL type, how each value is read from the record, references stubbed,
 * index), its search row, its sync walks and the hooks for what is not a plain column. The
 * writer (`store/writer.ts`) and the sync plan (`sync/engine.ts`) are derived from these;
 * migrations stay hand-written, and `test/integration/registry-schema.test.ts` ties the two.
 */
import type { ChangeField } from '../../shared/changes';
import type { Query } from '../sync/types';
import { storedInstant } from '../store/instant';
import { str, type StoredResource } from '../store/resource';

/** A column's SQL type; `ANY` only for a UUID column (`Column.uuid`), bytes or text. */
export type SqlType = 'TEXT' | 'INTEGER' | 'REAL' | 'ANY';

/** Rows a list page asks for. */
export const PAGE_SIZE = 100;
const DAY_MS = 24 * 3_600_000;

/** What a column reader gets besides the record, from the page being written. */
export interface WriteContext {
  /** The record as stored in `raw` (JSON). */
  readonly raw: string;
  /** When this page was written (UTC ISO), for `synced_at`. */
  readonly syncedAt: string;
  /**
   * The context columns another resource declared (`context`) for the row `id`, from this page
   * when it wrote that row, else from the store; an empty row (no members) when there is none.
   */
  contextOf(resource: string, id: string | null): Readonly<Record<string, unknown>>;
}

/** Reads a column's value from the record; `derived` is what the descriptor's `derive` made of it. */
export type Reader<D> = (resource: StoredResource, w: WriteContext, derived: D) => unknown;

export interface Column<D = unknown, T extends string = never> {
  type: SqlType;
  /** Reads the value from the record (a method, so descriptors of any `D` share one erased type). */
  read(resource: StoredResource, w: WriteContext, derived: D): unknown;
  /** The resource (registry name) this column holds an id of: stubbed before the row is written. */
  references?: T;
  /** The column leads an index in the migration (the schema test checks both ways). */
  indexed?: boolean;
  /**
   * The member of the record this column holds, left out of `raw` when the column gives it back
   * exactly (`store/residual.ts`): an attribute (compared as is, `flag`: a boolean as 0/1, `json`:
   * as JSON text), or a to-one relationship's id, of `type`.
   */
  holds?: Holds | readonly Holds[];
  /**
   * The column stores its text (an id, a code such as an event's name) as that text's key in the
   * `interned` table, one row per distinct text: a few bytes where an id takes 36, on tables of
   * hundreds of thousands of rows (transport events). The reader still gives the text: the writer
   * keeps it for the residual and the stubs, and binds the key; a query reads the text back
   * through `interned` (`internedText`).
   */
  interned?: boolean;
  /**
   * The column stores an instant (the reader's text, as `storedInstant` makes it) as integer
   * milliseconds since 1970: six bytes where the text takes twenty or more. Order and NULL are kept;
   * a query reads the text back through `instantText`.
   */
  epochMs?: boolean;
  /**
   * The column (an ANY column) stores an id that is a UUID in its canonical text (lowercase, with
   * dashes) as its 16 bytes, any other id as text (`storedUuid`): 17 bytes where the text takes 37,
   * in the table and again in its index. A query reads the text back through `uuidText`, and
   * finds a row by binding `storedUuid(id)`.
   */
  uuid?: boolean;
}

export type Holds =
  | { attribute: string; as?: 'flag' | 'json' }
  | { relationship: string; type: string }
  /** The relationship's type is held by another column (`typeIn`), of the same descriptor. */
  | { relationship: string; typeIn: string };

/** The column holds attribute `name` (see `Column.holds`). */
export const attribute = (name: string, as?: 'flag' | 'json'): Holds =>
  as ? { attribute: name, as } : { attribute: name };
/** The column holds relationship `name`'s id when it names a record of `type` (`{ typeIn }`: the type another column holds). */
export const relationship = (name: string, type: string | { typeIn: string }): Holds =>
  typeof type === 'string' ? { relationship: name, type } : { relationship: name, typeIn: type.typeIn };

type ColumnOptions = { indexed?: boolean; holds?: Holds | readonly Holds[] };

/**
 * Column builders for a descriptor whose readers get derived values of type `D`. Each keeps the
 * reference target as a literal, so the registry can check it names a resource.
 */
export function columns<D = undefined>() {
  const make =
    (type: SqlType) =>
    (read: Reader<D>, options: ColumnOptions = {}): Column<D> => ({ type, read, ...options });
  /** A TEXT column holding attribute `name`, read as text or as a stored instant. */
  const holdsText = (as: 'text' | 'instant', name: string, options: ColumnOptions): Column<D> =>
    make('TEXT')(as === 'text' ? (r) => str(r.attributes[name]) : (r) => storedInstant(r.attributes[name]), {
      holds: attribute(name),
      ...options,
    });
  return {
    text: make('TEXT'),
    /**
     * An INTEGER column: a number that is not a whole one SQLite can hold exactly (2.5, 1e300) is
     * kept as none, never bound (a STRICT table refuses it and the whole page with it); the
     * record's own value stays in `raw`.
     */
    integer: (read: Reader<D>, options: ColumnOptions = {}): Column<D> =>
      make('INTEGER')((r, w, d) => {
        const value = read(r, w, d);
        return typeof value === 'number' && !Number.isSafeInteger(value) ? null : value;
      }, options),
    real: make('REAL'),
    /** The attribute `name` as text, in a TEXT column that holds it (residual raw leaves it out). */
    textOf: (name: string, options: ColumnOptions = {}): Column<D> => holdsText('text', name, options),
    /** The attribute `name` as a stored instant, in a TEXT column that holds it (see `textOf`). */
    instantOf: (name: string, options: ColumnOptions = {}): Column<D> => holdsText('instant', name, options),
    /** A TEXT column holding the id of a `target` row, stubbed (`INSERT OR IGNORE … (id)`) when new. */
    ref: <const T extends string>(
      target: T,
      read: Reader<D>,
      options: ColumnOptions = {},
    ): Column<D, T> & { references: T } => ({ type: 'TEXT', read, references: target, ...options }),
    /** A UUID (`Column.uuid`) read by `read`: another row's id in a table of many rows. */
    uuid: (read: Reader<D>, options: ColumnOptions = {}): Column<D> => ({ type: 'ANY', read, uuid: true, ...options }),
    /** As `instantOf`, kept as epoch milliseconds (an INTEGER column, see `Column.epochMs`). */
    epochOf: (name: string, options: ColumnOptions = {}): Column<D> => ({
      ...holdsText('instant', name, options),
      type: 'INTEGER',
      epochMs: true,
    }),
    /** As `ref`, the id kept as its key in `interned` (an INTEGER column, see `Column.interned`). */
    internedRef: <const T extends string>(
      target: T,
      read: Reader<D>,
      options: ColumnOptions = {},
    ): Column<D, T> & { references: T } => ({
      type: 'INTEGER',
      read,
      references: target,
      interned: true,
      ...options,
    }),
    /** A text read by `read`, kept as its key in `interned` (an INTEGER column, see `Column.interned`). */
    interned: (read: Reader<D>, options: ColumnOptions = {}): Column<D> => ({
      type: 'INTEGER',
      read,
      interned: true,
      ...options,
    }),
    /** As `textOf`, the text kept as its key in `interned`: for the few values a big table repeats. */
    internedOf: (name: string, options: ColumnOptions = {}): Column<D> => ({
      ...holdsText('text', name, options),
      type: 'INTEGER',
      interned: true,
    }),
  };
}

/** The columns every synced table has, first (id) and last (raw, synced_at). */
export const idColumn: Column<unknown> = { type: 'TEXT', read: (r) => r.id };
export const rawColumn: Column<unknown> = { type: 'TEXT', read: (_r, w) => w.raw };
export const syncedAtColumn: Column<unknown> = { type: 'TEXT', read: (_r, w) => w.syncedAt };

/** The id of a table of many rows, kept as 16 bytes when it is a UUID (`Column.uuid`). */
export const uuidIdColumn: Column<unknown> = { type: 'ANY', read: (r) => r.id, uuid: true };

const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An id as a UUID column stores it (`Column.uuid`): a canonical UUID's 16 bytes, anything else as it is. */
export function storedUuid<T>(id: T): T | Buffer {
  return typeof id === 'string' && CANONICAL_UUID.test(id) ? Buffer.from(id.replaceAll('-', ''), 'hex') : id;
}

/**
 * SQL giving back the text of a UUID column (`Column.uuid`) of `table` (an alias): 16 bytes as
 * the canonical UUID, text as it is. Byte order is the text's order, so sorts and `min` agree.
 */
export const uuidText = (table: string, column: string): string => {
  const x = `${table}.${column}`;
  const hex = `hex(${x})`;
  const part = (from: number, length?: number) => `substr(${hex}, ${from}${length ? `, ${length}` : ''})`;
  return `(CASE WHEN typeof(${x}) = 'blob' THEN lower(${part(1, 8)} || '-' || ${part(9, 4)} || '-' || ${part(13, 4)} || '-' ||
    ${part(17, 4)} || '-' || ${part(21)}) ELSE ${x} END)`;
};

/** `synced_at` kept as epoch milliseconds (`Column.epochMs`), for a table of many rows. */
export const syncedAtEpochColumn: Column<unknown> = { type: 'INTEGER', read: (_r, w) => w.syncedAt, epochMs: true };

/**
 * SQL giving back the stored instant's text from an epoch-milliseconds column (`Column.epochMs`)
 * of `table` (an alias): UTC to the second, milliseconds only when there are some (as
 * `formatInstant`), in integer arithmetic (floored, so instants before 1970 too); NULL stays NULL.
 */
export const instantText = (table: string, column: string): string => {
  const ms = `${table}.${column}`;
  const part = `((${ms} % 1000) + 1000) % 1000`;
  return `(strftime('%Y-%m-%dT%H:%M:%S', (${ms} - ${part}) / 1000, 'unixepoch') ||
    CASE ${part} WHEN 0 THEN 'Z' ELSE printf('.%03dZ', ${part}) END)`;
};

/** SQL giving back the text an interned column (`Column.interned`) of `table` (an alias) holds the key of. */
export const internedText = (table: string, column: string): string =>
  `(SELECT text FROM interned WHERE key = ${table}.${column})`;

/**
 * A field whose changes the writer records (change history): the column compared (its
 * stored value is the old value, the value being written the new) and how its values are told.
 */
export interface TrackedField<K extends string = string> {
  /** The kind of change (`src/shared/changes.ts`). */
  field: ChangeField;
  column: K;
  /**
   * `value` (default): as stored. `flag`: a 0/1 column, told as true/false. `holds`: a JSON list
   * of holds, compared per hold type (a change when one is put on or released; `detail` names the
   * type). `{ nameIn }`: an id, told by the name of the row it names in that resource's table.
   */
  as?: 'value' | 'flag' | 'holds' | { nameIn: string };
  /** The kind is named by another column's value (`lfd_source`: the terminal's or the rail's last free day). */
  fieldBy?: { column: K; fields: Readonly<Record<string, ChangeField>> };
}

/** What a resource's change history records: its tracked fields and the shipment each record belongs to. */
export interface ChangeHistory<K extends string = string> {
  /** The column holding the record's shipment (`id` for a shipment itself), for filters by customer and carrier. */
  shipment: K;
  fields: readonly TrackedField<K>[];
  /** A column whose equal value means nothing tracked changed (the container's hash): the fields are not compared. */
  unchangedWhenEqual?: K;
}

/** When a walk is part of a run. */
export type WalkWhen =
  /** every run */
  | { kind: 'always' }
  /** full runs, and any run that finds the walk interrupted */
  | { kind: 'full' }
  /**
   * Full runs, and runs at least `every` ms after the time kept under `doneKey` (or with no
   * such time), and runs that find the checkpoint `resumeWith` saved. The walk whose key is
   * `markedBy` writes the time when it ends.
   */
  | { kind: 'every'; every: number; doneKey: string; resumeWith: string; markedBy: string };

export interface WalkDef {
  /** Checkpoint key (`walk:<key>` in sync_state) and progress step key, e.g. "shipments:active". */
  key: string;
  /** Where walks start, lowest first (a few run at once, in this order). */
  order: number;
  /** The progress step shown while this walk runs. */
  step: string;
  /** What the list holds, in a forwarder's words, for messages. */
  noun: string;
  /** The list's query besides `include` (from the descriptor's `api.includes`). */
  query: Query;
  when: WalkWhen;
  /** Pages expected before any run counted them: one, or the stored rows of the table over a page. */
  estimate: 'one page' | 'stored rows';
  /**
   * An incremental cursor: incremental runs ask `filter` from the time kept under `key` (less
   * `overlapMs`); after the walk the newest `updated_at` seen becomes the cursor.
   */
  cursor?: { key: string; filter: string; overlapMs: number };
  /** The walk's pages include container events (`eventsComplete` hook of the engine). */
  carriesEvents?: boolean;
  /**
   * The walk carries what a forwarder needs today (boxes with a last free day, a hold or an
   * arrival close): urgent walks run to the end before any other walk of the run starts, so a
   * first sync of a large account fills the dashboard from its first minutes.
   */
  urgent?: boolean;
  /**
   * The list may answer a server error for good (the live service's `/custom_fields` does): then
   * the run goes on without it, this sentence is said once (`SyncSummary.notices`) until the list
   * works again, and `unavailable:<key>` in sync_state tells the views to read records one by one.
   */
  unavailableNotice?: string;
}

/**
 * A list the service keeps under each record of another resource (options under a custom field
 * definition, a container's raw events): one request per parent, so what it costs and how fresh
 * it stays are declared here, and checked (`registry-schema.test.ts`, the request pin). Each
 * parent row whose `where.column` is one of `where.values` (every synced parent without `where`)
 * has its list read when `fresh` says, at most `budget` parents a run, in `order`; its records
 * are given the `relationship` to the parent the list leaves out, held in the `key` column, and
 * rows of a parent that its list no longer names are deleted. Reads are kept in
 * `child_list_reads` (parent, when, the parent's change it saw).
 */
export interface ChildList {
  parent: string;
  path: string;
  relationship: string;
  /** The child's column that holds its parent's id (a reference to the parent's table). */
  key: string;
  where?: { column: string; values: readonly string[] };
  /**
   * A parent's list is read when it never was, when the parent's `changed` column moved since
   * (containers: `changed_at`, the box's own data changed), on full runs when `full`, and when
   * the last read is older than `every` ms (null: never for age alone).
   */
  fresh: { changed: string; full: boolean; every: number | null };
  /** Most parents whose list one run reads (one request each, at background priority). */
  budget: number;
  /** `urgent`: boxes a forwarder needs today first, as container events are fetched; `stored`: as stored. */
  order: 'urgent' | 'stored';
  /** The progress step shown while the lists are read. */
  step: string;
}

/** The reference lists: walked once a day (and whenever the parties walk was interrupted). */
export const referenceWalks: WalkWhen = {
  kind: 'every',
  every: DAY_MS,
  doneKey: 'reference:completed_at',
  resumeWith: 'reference:parties',
  markedBy: 'reference:custom_field_definitions',
};
export const DAILY = DAY_MS;

export interface ResourceSpec<
  N extends string,
  D,
  C extends Record<string, Column<D, string>>,
  T extends string = string,
> {
  /** Registry name (camelCase plural, as the IPC channels spell it). */
  name: N;
  /** JSON:API types written into this table (the first is the resource's own). */
  types: readonly [string, ...string[]];
  table: T;
  /**
   * The API list this resource is walked from (`path`), with what its pages include; and `get`,
   * the path of one record (`{id}`), when the sync fetches the stubs no page included (`fill`
   * names that step of the plan).
   */
  api?: { path?: string; includes?: readonly string[]; get?: string; fill?: string; under?: ChildList };
  /**
   * Looked up by id for a view (`<name>:get`, listed in src/shared/lookups.ts): the column that
   * names a record (`title`), another column that finds it (`alt`: a UN/LOCODE, a SCAC, matched in
   * upper case) and the service's path of one record, asked when it is missing here or to refresh it.
   */
  lookup?: { title: string; alt?: string; path: string };
  /** Where this resource's rows are written in a page, lowest first (references before rows using them). */
  writeRank: number;
  /** Computed once per record before the columns are read (e.g. the container's derived fields). */
  derive?(resource: StoredResource, w: WriteContext): D;
  /** Columns the writer fills, in upsert order. */
  columns: C;
  /**
   * Members no column holds with the value they nearly always have (null, `[]`): left out of the
   * residual `raw` when they have it, given back with it (`store/residual.ts`).
   */
  usual?: { attributes?: Readonly<Record<string, unknown>>; relationships?: Readonly<Record<string, unknown>> };
  /** The start of the records' `links.self` before their id (`/v2/containers/`): left out of the residual when it is all `links` holds. */
  selfLink?: string;
  /** Records this returns false for are not written (not counted either). */
  accept?: (resource: StoredResource) => boolean;
  /** On conflict, columns set by these SQL expressions instead of the new value. */
  onConflict?: Partial<Record<keyof C & string, string>>;
  /** Table columns the upsert leaves alone (written elsewhere, named in `writtenBy`). */
  keptColumns?: Readonly<Record<string, { type: SqlType; writtenBy: string }>>;
  /** Small rows repeated on every page: one unchanged since the last committed page is skipped. */
  cacheUnchanged?: boolean;
  /** Columns other resources read through `WriteContext.contextOf` (kept per page, else read back). */
  context?: readonly (keyof C & string)[];
  /**
   * A trigram search row per record, keyed by the table's rowid; null body: no row. `also`: a
   * column of the search table the row is inserted with, from SQL over the record's rowid (the
   * expression `value` is given), kept afterwards by the migration that added it (its triggers).
   */
  search?: {
    table: string;
    body(resource: StoredResource, derived: D): string | null;
    also?: { column: string; value(rowid: string): string };
  };
  /**
   * A child table replaced with the record's values on each write (`DELETE` by parent, then
   * `INSERT OR IGNORE`), e.g. shipment_tags.
   */
  listTable?: { table: string; parent: string; column: string; values(resource: StoredResource, derived: D): string[] };
  /** Walks that sync this resource. */
  walks?: readonly WalkDef[];
  /**
   * Fields whose changes are recorded as the writer upserts a record already stored (change
   * history): the writer reads their stored values for the page's records in one query.
   */
  history?: ChangeHistory<keyof C & string>;
}

/**
 * A registry entry of another kind: a SQL view over synced tables (e.g. `locations`, ports and
 * metro areas as one place). No JSON:API type, no writer, not walked: the migration creates the
 * view, the schema test checks it has exactly these columns and reads every source's table,
 * and queries read names through it.
 */
export interface ViewSpec<N extends string, S extends string, C extends string, T extends string = string> {
  /** Registry name, as for resources. */
  name: N;
  /** The SQL view and the resources (registry names) whose tables it unites. */
  view: { table: T; sources: readonly S[] };
  /** The view's columns, in order, each read from the source table's column of that name (or made by the view). */
  columns: readonly C[];
}

export function defineView<
  const N extends string,
  const S extends string,
  const C extends string,
  const T extends string,
>(spec: ViewSpec<N, S, C, T>): ViewSpec<N, S, C, T> {
  return spec;
}

/** Any descriptor, its derived values and column names erased (what the writer iterates). */
export type ResourceDescriptor = ResourceSpec<string, unknown, Record<string, Column<unknown, string>>>;

/** A descriptor, its name and column names kept literal. */
export function defineResource<
  const N extends string,
  D,
  C extends Record<string, Column<D, string>>,
  const T extends string,
>(spec: ResourceSpec<N, D, C, T>): ResourceSpec<N, D, C, T> {
  return spec;
}
