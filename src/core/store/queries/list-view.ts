/**
 * The list views' queries, derived from their declarations (src/core/resources/lists.ts): one
 * generic keyset page, count, ordered stream and single row per list, so the four always agree
 * on what the list holds.
 */
import { listNames, type ListName } from '../../../shared/list-views';
import type { Page, Sort } from '../../../shared/views';
import {
  lists,
  type FilterQuery,
  type ListFiltersOf,
  type ListRowOf,
  type ListSortFieldOf,
  type ListSpec,
  type SortSql,
} from '../../resources/lists';
import type { Db } from '../database';
import { iterateOrdered, keysetPage, orderedQueries, type OrderedQuery } from './keyset';

export interface ListOptions<F extends string> {
  sort?: Sort<F>;
  limit?: number;
  after?: string;
  /** The instant filters such as "overdue" are judged at; now by default. */
  now?: string;
}

export interface ListView<Filters, SortField extends string, Row> {
  page: (db: Db, filters: Filters, options?: ListOptions<SortField>) => Page<Row>;
  count: (db: Db, filters: Filters, now?: string) => number;
  /** Every matching row in list order, streamed (it holds its connection: see iterateOrdered). */
  iterate: (db: Db, filters: Filters, sort?: Sort<SortField>) => Generator<Row>;
  /** The statements `iterate` runs, in order (the bench runs them in SQLite's own shell too). */
  orderedSql: (filters: Filters, sort?: Sort<SortField>) => { sql: string; params: unknown[] }[];
  get: (db: Db, id: string) => Row | null;
}

export type ListQueries<N extends ListName> = ListView<ListFiltersOf<N>, ListSortFieldOf<N>, ListRowOf<N>>;

const defaultSort = { field: 'created_at', direction: 'desc' } as const;

/** The conditions of `filters`: rows the service has given, then each filter present, in declaration order. */
function whereOf<N extends ListName>(spec: ListSpec<N>, alias: string, filters: ListFiltersOf<N>, now: string) {
  const q: FilterQuery = { where: [`${alias}.synced_at IS NOT NULL`], params: [], now };
  const given = filters as Record<string, unknown>;
  const sql = spec.filters as Record<string, (value: unknown, q: FilterQuery) => void>;
  for (const key of Object.keys(sql)) {
    if (given[key] !== undefined) sql[key]!(given[key], q);
  }
  return q;
}

const sortOf = (sort: SortSql) =>
  typeof sort === 'string' ? { sortColumn: sort } : { sortColumn: sort.column, sortWhen: sort.when };

export function listView<N extends ListName>(spec: ListSpec<N>): ListQueries<N> {
  type SortField = ListSortFieldOf<N>;
  const alias = spec.idColumn.split('.')[0]!;
  const sortColumns = spec.sort as Record<string, SortSql>;
  const query = (filters: ListFiltersOf<N>, sort: Sort<SortField> | undefined, now: string) => {
    const { where, params } = whereOf(spec, alias, filters, now);
    const order = sort ?? defaultSort;
    return {
      select: spec.select,
      from: spec.from,
      where,
      params,
      ...sortOf(sortColumns[order.field]!),
      idColumn: spec.idColumn,
      direction: order.direction,
    };
  };
  const ordered = (filters: ListFiltersOf<N>, sort: Sort<SortField> | undefined): OrderedQuery => ({
    ...query(filters, sort, new Date().toISOString()),
    walkIndex: spec.indexOrderedSorts?.includes((sort ?? defaultSort).field) === true,
  });
  return {
    page: (db, filters, options = {}) => {
      const page = keysetPage(db, {
        ...query(filters, options.sort, options.now ?? new Date().toISOString()),
        limit: options.limit ?? 100,
        after: options.after,
      });
      return { rows: page.rows.map(spec.toRow), next: page.next };
    },
    count: (db, filters, now = new Date().toISOString()) => {
      const { where, params } = whereOf(spec, alias, filters, now);
      const sql = `SELECT count(*) AS n FROM ${spec.countFrom(where)} WHERE ${where.join(' AND ')}`;
      return (db.prepare(sql).get(...params) as { n: number }).n;
    },
    iterate: (db, filters, sort) => iterateOrdered(db, ordered(filters, sort), spec.toRow),
    orderedSql: (filters, sort) => orderedQueries(ordered(filters, sort)),
    get: (db, id) => {
      const row = db
        .prepare(
          `SELECT ${spec.select} FROM ${spec.from} WHERE ${spec.idColumn} = ? AND ${alias}.synced_at IS NOT NULL`,
        )
        .get(id) as Record<string, unknown> | undefined;
      return row ? spec.toRow(row) : null;
    },
  };
}

const queriesOf = <N extends ListName>(name: N): ListQueries<N> => listView(lists[name]);

/** Every list's queries, by registry name. */
export const listQueries = Object.fromEntries(listNames.map((name) => [name, queriesOf(name)])) as {
  [N in ListName]: ListQueries<N>;
};

/**
 * A list's queries for code that holds a list name only at run time (export, IPC handlers): its
 * filters and sort were checked against that list's shared schema before they get here.
 */
export function checkedListQueries<N extends ListName>(name: N): ListView<unknown, string, ListRowOf<N>> {
  return listQueries[name] as ListView<unknown, string, ListRowOf<N>>;
}
