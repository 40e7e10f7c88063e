/**
 * The list views' queries, derived from their declarations (src/core/resources/lists.ts): one
 * generic keyset page, count, ordered stream and single row per list, so the four always agree
 * on what the list holds. A list whose records carry custom fields also sorts by one
 * (`cf.<api_slug>`, through that field's values: `customFieldSortJoin`), filters by them (its
 * `customFields` filter) and gives each row of a page, and a row by id, its values.
 */
import { computerTimeZone } from '../../../shared/date-formatters';
import { listNames, type ListName } from '../../../shared/list-views';
import { DEFAULT_TERMINAL_STALE_HOURS } from '../../../shared/pickup';
import { isCustomFieldSortField, slugOfSortField, type Page, type Sort } from '../../../shared/views';
import { QuaysideError } from '../../errors';
import { customFieldEntities } from '../../resources/custom-fields';
import {
  lists,
  type BaseRowOf,
  type FilterQuery,
  type ListFiltersOf,
  type ListRowOf,
  type ListSortFieldOf,
  type ListSpec,
  type SortSql,
} from '../../resources/lists';
import type { Db } from '../database';
import { customFieldCellsOf, customFieldDataTypes } from './custom-fields';
import {
  iterateOrdered,
  keysetPage,
  orderedQueries,
  type KeysetQuery,
  type OrderedQuery,
  type OrderedStatement,
  type RowRange,
} from './keyset';
import { customFieldSortJoin } from './list-sql';

/** What filters such as "overdue" and "ready for pickup" are judged at. */
export interface JudgedAt {
  /** The instant; now by default. */
  now?: string;
  /** Terminal data older than this many hours is too old to call a box ready; Settings' default (24) by default. */
  staleHours?: number;
  /** Whose calendar "today" and "next 5 days" count in; this computer's zone by default. */
  zone?: string;
}

export interface ListOptions<F extends string> extends JudgedAt {
  sort?: Sort<F>;
  limit?: number;
  after?: string;
}

export interface ListView<Filters, SortField extends string, Row, BaseRow = Row> {
  page: (db: Db, filters: Filters, options?: ListOptions<SortField>) => Page<Row>;
  count: (db: Db, filters: Filters, at?: JudgedAt) => number;
  /**
   * Every matching row in list order, streamed (it holds its connection: see iterateOrdered),
   * without custom field values (an export reads them once, by record).
   */
  iterate: (
    db: Db,
    filters: Filters,
    sort?: Sort<SortField>,
    at?: JudgedAt,
    range?: RowRange,
    /** Rows grouped by this expression first, each group in list order (see OrderedQuery.groupFirst). */
    groupFirst?: string,
  ) => Generator<BaseRow>;
  /** The statements `iterate` runs, in order (the bench runs them in SQLite's own shell too). */
  orderedSql: (db: Db, filters: Filters, sort?: Sort<SortField>, at?: JudgedAt) => OrderedStatement[];
  get: (db: Db, id: string) => Row | null;
}

export type ListQueries<N extends ListName> = ListView<
  ListFiltersOf<N>,
  ListSortFieldOf<N>,
  ListRowOf<N>,
  BaseRowOf<N>
>;

const defaultSort = { field: 'created_at', direction: 'desc' } as const;
const noTypes: ReadonlyMap<string, string> = new Map();

/** The definitions' `entity_type` (`Shipment`) of a values' record type (`shipment`). */
const definitionTypeOf = (entityType: string) => customFieldEntities.find((e) => e.type === entityType)!.filter;

/** Ids a set's subquery selects, when there are at most this many: given to the statements as a list. */
const FEW_IDS = 2000;

/** The ids `subquery` selects, or null when there are more than FEW_IDS (read no further). */
function fewIds(db: Db, subquery: string, params: unknown[]): unknown[] | null {
  const ids = db
    .prepare(`${subquery} LIMIT ${FEW_IDS + 1}`)
    .pluck()
    .all(...params);
  return ids.length > FEW_IDS ? null : ids;
}

/**
 * The conditions of `filters`: rows the service has given, then each filter present, in
 * declaration order. With `readFirst`, a set's ids (`inSet`) are read on it beforehand; `counting`
 * says they are for a count (which reads every row, not a page's first).
 */
function whereOf<N extends ListName>(
  spec: ListSpec<N>,
  alias: string,
  filters: ListFiltersOf<N>,
  at: JudgedAt,
  customFieldTypes: ReadonlyMap<string, string>,
  readFirst?: Db,
  counting = false,
) {
  const set: { alone: { sql: string; params: unknown[]; at: number } | null } = { alone: null };
  const q: FilterQuery = {
    where: [`${alias}.synced_at IS NOT NULL`],
    params: [],
    now: at.now ?? new Date().toISOString(),
    staleHours: at.staleHours ?? DEFAULT_TERMINAL_STALE_HOURS,
    zone: at.zone ?? computerTimeZone(),
    customFieldTypes,
    inSet: (column, subquery, params, many) => {
      if (counting && many?.alone) set.alone = { ...many.alone, at: q.where.length + 1 };
      if (readFirst !== undefined) {
        const ids = fewIds(readFirst, subquery, params);
        if (ids !== null) {
          q.where.push(`${column} IN (SELECT value FROM json_each(?))`);
          q.params.push(JSON.stringify(ids));
          return;
        }
        if (many !== undefined) {
          const test = counting ? (many.counted ?? many) : many;
          q.where.push(test.condition);
          q.params.push(...test.params);
          return;
        }
      }
      q.where.push(`${column} IN (${subquery})`);
      q.params.push(...params);
    },
  };
  const given = filters as Record<string, unknown>;
  const sql = spec.filters as Record<string, (value: unknown, q: FilterQuery) => void>;
  for (const key of Object.keys(sql)) {
    if (given[key] !== undefined) sql[key]!(given[key], q);
  }
  // A count whose only condition (beside the rows the service has given) is one set that counts alone.
  const countAlone = set.alone?.at === 2 && q.where.length === 2 ? set.alone : null;
  return { ...q, countAlone };
}

const sortOf = (sort: SortSql) =>
  typeof sort === 'string' ? { sortColumn: sort } : { sortColumn: sort.column, sortWhen: sort.when };

export function listView<N extends ListName>(spec: ListSpec<N>): ListQueries<N> {
  type SortField = ListSortFieldOf<N>;
  const alias = spec.idColumn.split('.')[0]!;
  const sortColumns = spec.sort as Record<string, SortSql>;
  const entityType = spec.customFields;

  /** The data types of the records' custom fields, read only when the filters or the sort name one. */
  function typesFor(db: Db, filters: ListFiltersOf<N>, sort: Sort<SortField> | undefined): ReadonlyMap<string, string> {
    const named = (filters as { customFields?: object }).customFields;
    const needed = (named !== undefined && Object.keys(named).length > 0) || isCustomFieldSortField(sort?.field);
    return needed && entityType !== undefined ? customFieldDataTypes(db, definitionTypeOf(entityType)) : noTypes;
  }

  function sortSql(
    field: string,
    types: ReadonlyMap<string, string>,
  ): Pick<KeysetQuery, 'sortColumn' | 'sortWhen' | 'sortJoin'> {
    if (!isCustomFieldSortField(field)) return sortOf(sortColumns[field]!);
    if (entityType === undefined) {
      throw new QuaysideError('invalid_argument', `The ${spec.noun} list has no custom fields to sort by.`);
    }
    const slug = slugOfSortField(field);
    const { sortColumn, join } = customFieldSortJoin(entityType, slug, spec.idColumn, types.get(slug));
    return { sortColumn, sortJoin: join };
  }

  const query = (
    db: Db,
    filters: ListFiltersOf<N>,
    sort: Sort<SortField> | undefined,
    at: JudgedAt,
    readSetsFirst: boolean,
  ) => {
    const types = typesFor(db, filters, sort);
    const { where, params } = whereOf(spec, alias, filters, at, types, readSetsFirst ? db : undefined);
    const order = sort ?? defaultSort;
    return {
      select: spec.select,
      from: spec.from,
      where,
      params,
      ...sortSql(order.field, types),
      idColumn: spec.idColumn,
      // The listed table's sort indexes end in its rowid, not its id (migration 0010), but for a
      // few that a filter reads too.
      tieColumn:
        (spec.tiesById as readonly string[] | undefined)?.includes(order.field) === true
          ? spec.idColumn
          : `${alias}.rowid`,
      direction: order.direction,
    };
  };
  const ordered = (
    db: Db,
    filters: ListFiltersOf<N>,
    sort: Sort<SortField> | undefined,
    at: JudgedAt = {},
  ): OrderedQuery => ({
    ...query(db, filters, sort, at, false),
    walkIndex:
      (spec.indexOrderedSorts as readonly string[] | undefined)?.includes((sort ?? defaultSort).field) === true,
    countFrom: spec.countFrom,
  });

  /** Rows with their custom field values (a list whose records carry none: its rows as they are). */
  function withValues(db: Db, rows: BaseRowOf<N>[]): ListRowOf<N>[] {
    if (entityType === undefined) return rows as ListRowOf<N>[];
    const ids = rows.map((row) => (row as { id: string }).id);
    const cells = customFieldCellsOf(db, entityType, ids);
    return rows.map((row, i) => ({ ...row, customFields: cells.get(ids[i]!) ?? {} }) as ListRowOf<N>);
  }

  return {
    page: (db, filters, options = {}) => {
      const page = keysetPage(db, {
        ...query(db, filters, options.sort, options, true),
        limit: options.limit ?? 100,
        after: options.after,
      });
      return { rows: withValues(db, page.rows.map(spec.toRow)), next: page.next };
    },
    count: (db, filters, at = {}) => {
      const types = typesFor(db, filters, undefined);
      // Made first without reading any set: a count that one set makes alone needs no other statement.
      const { countAlone } = whereOf(spec, alias, filters, at, types, undefined, true);
      if (countAlone)
        return db
          .prepare(countAlone.sql)
          .pluck()
          .get(...countAlone.params) as number;
      const { where, params } = whereOf(spec, alias, filters, at, types, db, true);
      const sql = `SELECT count(*) AS n FROM ${spec.countFrom(where)} WHERE ${where.join(' AND ')}`;
      return (db.prepare(sql).get(...params) as { n: number }).n;
    },
    iterate: (db, filters, sort, at, range, groupFirst) =>
      iterateOrdered(db, { ...ordered(db, filters, sort, at), groupFirst }, spec.toRow, range),
    orderedSql: (db, filters, sort, at) => orderedQueries(ordered(db, filters, sort, at)),
    get: (db, id) => {
      const row = db
        .prepare(
          `SELECT ${spec.select} FROM ${spec.from} WHERE ${spec.idColumn} = ? AND ${alias}.synced_at IS NOT NULL`,
        )
        .get(id) as Record<string, unknown> | undefined;
      return row ? withValues(db, [spec.toRow(row)])[0]! : null;
    },
  };
}

/** Every list's queries, by registry name (each made from that name's declaration). */
const queriesOf = <N extends ListName>(name: N): ListQueries<N> => listView(lists[name]);
export const listQueries = Object.fromEntries(listNames.map((name) => [name, queriesOf(name)])) as Record<
  ListName,
  unknown
> as { [N in ListName]: ListQueries<N> };

/**
 * A list's queries for code that holds a list name only at run time (export, IPC handlers): its
 * filters and sort were checked against that list's shared schema before they get here.
 */
export function checkedListQueries<N extends ListName>(name: N): ListView<unknown, string, ListRowOf<N>, BaseRowOf<N>> {
  return listQueries[name] as ListView<unknown, string, ListRowOf<N>, BaseRowOf<N>>;
}
