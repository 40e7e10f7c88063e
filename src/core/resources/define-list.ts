/**
 * What a list view's declaration holds, beside its resource's descriptor: the row it selects and
 * from which joins, each sort field's SQL, each filter's SQL (keyed by the shared filter schema
 * of src/shared/list-views.ts, so a filter the schema lacks, or one left out, fails tsc) and its
 * export columns. The store's generic list query (`store/queries/list-view.ts`) makes the page,
 * count, ordered stream and single row from it; the export, the CLI's export names and the IPC
 * `<name>:list`/`:count`/`:get` channels are keyed by the same name.
 */
import type { z } from 'zod';
import type { CustomFieldEntityType } from '../../shared/custom-fields';
import type { ListName, ListTypes, listViews } from '../../shared/list-views';
import type { CustomFieldSortField } from '../../shared/views';
import type { ExportColumn } from '../export/columns';

/** The WHERE being built for one query: conditions and their parameters, in order. */
export interface FilterQuery {
  where: string[];
  params: unknown[];
  /** The instant filters such as "overdue" are judged at. */
  now: string;
  /** The user's time zone: whose calendar "today" and "this week" are days of. */
  zone: string;
  /** Terminal data older than this many hours is too old to call a box ready (Settings' stale limit). */
  staleHours: number;
  /** The data type of each custom field of the listed records, by api_slug (read when a filter needs it). */
  customFieldTypes: ReadonlyMap<string, string>;
  /**
   * Adds `column IN (subquery)`, the subquery selecting one column of ids. For a page or a count,
   * whose statements would each read the subquery again (a page runs up to three), the ids are
   * read once first and, when they are few, given as a list; an export's statements keep the
   * subquery, so they read it in their own snapshot. `many` is the condition to use instead when
   * the ids are many (a test per row that stops with the page, where the set would be most rows),
   * and `many.counted` the one a count uses instead (it reads every row); `many.alone` counts the
   * set by itself where it is the list's only condition (a search table's rows, each a live
   * record's, counted without reading the listed table).
   */
  inSet: (
    column: string,
    subquery: string,
    params: unknown[],
    many?: {
      condition: string;
      params: unknown[];
      counted?: { condition: string; params: unknown[] };
      alone?: { sql: string; params: unknown[] };
    },
  ) => void;
}

/** Adds a filter's conditions for its (present) value. */
export type FilterSql<V> = (value: V, q: FilterQuery) => void;

/** One entry per key of the filter schema, each given the key's value type. */
export type FiltersSql<F> = { [K in keyof F]-?: FilterSql<Exclude<F[K], undefined>> };

export type ListFiltersOf<N extends ListName> = z.output<(typeof listViews)[N]['filters']>;
export type ListSortFieldOf<N extends ListName> = z.output<(typeof listViews)[N]['sort']>['field'];
export type ListRowOf<N extends ListName> = ListTypes[N]['row'];
/** A row as the list's SELECT gives it: its custom field values are read beside, for a page or a row. */
export type BaseRowOf<N extends ListName> =
  ListRowOf<N> extends { customFields: unknown } ? Omit<ListRowOf<N>, 'customFields'> : ListRowOf<N>;
/** The list's own sort fields (each declared as SQL), without the `cf.<api_slug>` of custom fields. */
export type StaticSortFieldOf<N extends ListName> = Exclude<ListSortFieldOf<N>, CustomFieldSortField>;

/**
 * A list whose rows carry custom field values names the record type they are kept under
 * (`shipment`): its page and row read them, and it sorts by `cf.<api_slug>`. The others name none.
 */
type CustomFieldsOf<N extends ListName> = 'customFields' extends keyof ListRowOf<N>
  ? { customFields: CustomFieldEntityType }
  : { customFields?: never };

/**
 * What a sort orders by: a column, or a column whose value counts only for rows where `when`
 * holds (the others sort with the rows that have none: last, by id, either way round).
 */
export type SortSql = string | { column: string; when: string };

export type ListSpec<N extends ListName> = ListSpecBase<N> & CustomFieldsOf<N>;

interface ListSpecBase<N extends ListName> {
  /** The registry name of the resource listed (the key in the shared list map). */
  name: N;
  /** One row, in a forwarder's words ("tracking request"), for messages such as "not found". */
  noun: string;
  /** The SELECT list and FROM (with joins) of a row. */
  select: string;
  from: string;
  /** `alias.id` of the listed table; its `alias.synced_at` marks rows the service has given. */
  idColumn: string;
  /** The FROM of the count: only the joins its conditions need. */
  countFrom: (where: readonly string[]) => string;
  /** Each sort field of the shared schema, as the SQL it orders by (custom fields are the store's). */
  sort: Record<StaticSortFieldOf<N>, SortSql>;
  /**
   * Sort fields whose index follows the order rows are written in (`created_at`: the service
   * lists newest first); a stream in that order walks the index rather than sorting.
   */
  indexOrderedSorts?: readonly NoInfer<StaticSortFieldOf<N>>[];
  /**
   * Sort fields whose index is on (column, id) and so ties rows by id: the other sorts tie by
   * rowid, which ends every index (migration 0010 dropped the id from their indexes). These keep
   * it because a filter reads that index too: a carrier filter beside a tag or custom field
   * filter (`id IN …`) tests each row's id in the index, before its row is read.
   */
  tiesById?: readonly NoInfer<StaticSortFieldOf<N>>[];
  /** Each filter of the shared schema, as SQL; applied in this order for the keys present. */
  filters: FiltersSql<ListFiltersOf<N>>;
  /** A selected row as the list's row type (plain property reads: an export maps every row). */
  toRow: (row: Record<string, unknown>) => BaseRowOf<N>;
  /** The CSV columns, in order: human header, API key, value (custom field columns follow, from the store). */
  export: readonly ExportColumn<BaseRowOf<N>>[];
}

/** A list view declaration, its name kept literal. */
export function defineList<const N extends ListName>(spec: ListSpec<N>): ListSpec<N> {
  return spec;
}

/** Text or null: SQLite hands back null (or, for a damaged row, another type) for "unknown". */
export const rowText = (value: unknown): string | null => (typeof value === 'string' ? value : null);

// `["a","b"]`: strings holding no quote, backslash or control character, no spaces between.
// eslint-disable-next-line no-control-regex -- a raw control character is what JSON refuses
const PLAIN_LIST = /^\["[^"\\\x00-\x1f]*(?:","[^"\\\x00-\x1f]*)*"\]$/;

/**
 * A JSON array of strings as the writer stores it ('[]' for none, the common case). Text in
 * the writer's plain form (PLAIN_LIST: nothing escaped) is split, not parsed, to the same
 * strings: an export reads two of these per shipment, and JSON.parse was a tenth of its time.
 */
export function rowList(value: unknown): string[] {
  if (typeof value !== 'string' || value === '[]') return [];
  if (PLAIN_LIST.test(value)) return value.slice(2, -2).split('","');
  try {
    const parsed = JSON.parse(value) as unknown;
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
