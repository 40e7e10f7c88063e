/**
 * One list view (shipments, containers, tracking requests) defined once: its columns, joins,
 * filters and sort columns give the page, the count, the ordered stream and the single row, so
 * the four always agree on what the list holds.
 */
import type { Page, Sort } from '../../../shared/views';
import type { Db } from '../database';
import { iterateOrdered, keysetPage } from './keyset';

export interface ListOptions<F extends string> {
  sort?: Sort<F>;
  limit?: number;
  after?: string;
  /** The instant filters such as "overdue" are judged at; now by default. */
  now?: string;
}

export interface ListViewDefinition<Filters, SortField extends string, Row> {
  select: string;
  from: string;
  /** `alias.id` of the listed table; its `alias.synced_at` marks rows the service has given. */
  idColumn: string;
  sortColumns: Record<SortField, string>;
  /**
   * Sort fields whose index follows the order rows are written in (`created_at`: the service
   * lists newest first); a stream in that order walks the index rather than sorting (see
   * OrderedQuery.walkIndex).
   */
  indexOrderedSorts?: readonly NoInfer<SortField>[];
  where: (filters: Filters, where: string[], params: unknown[], now: string) => void;
  /** The FROM of the count: only the joins its conditions need. */
  countFrom: (where: string[]) => string;
  toRow: (row: Record<string, unknown>) => Row;
}

export interface ListView<Filters, SortField extends string, Row> {
  page: (db: Db, filters: Filters, options?: ListOptions<SortField>) => Page<Row>;
  count: (db: Db, filters: Filters, now?: string) => number;
  /** Every matching row in list order, streamed (it holds its connection: see iterateOrdered). */
  iterate: (db: Db, filters: Filters, sort?: Sort<SortField>) => Generator<Row>;
  get: (db: Db, id: string) => Row | null;
}

const defaultSort = { field: 'created_at', direction: 'desc' } as const;

export function defineListView<Filters, SortField extends string, Row>(
  view: ListViewDefinition<Filters, SortField, Row>,
): ListView<Filters, SortField, Row> {
  const alias = view.idColumn.split('.')[0];
  const query = (filters: Filters, sort: Sort<SortField> | undefined, now: string) => {
    const where: string[] = [];
    const params: unknown[] = [];
    view.where(filters, where, params, now);
    const order = sort ?? (defaultSort as Sort<SortField>);
    return {
      select: view.select,
      from: view.from,
      where,
      params,
      sortColumn: view.sortColumns[order.field],
      idColumn: view.idColumn,
      direction: order.direction,
    };
  };
  return {
    page: (db, filters, options = {}) => {
      const page = keysetPage(db, {
        ...query(filters, options.sort, options.now ?? new Date().toISOString()),
        limit: options.limit ?? 100,
        after: options.after,
      });
      return { rows: page.rows.map(view.toRow), next: page.next };
    },
    count: (db, filters, now = new Date().toISOString()) => {
      const where: string[] = [];
      const params: unknown[] = [];
      view.where(filters, where, params, now);
      const sql = `SELECT count(*) AS n FROM ${view.countFrom(where)} WHERE ${where.join(' AND ')}`;
      return (db.prepare(sql).get(...params) as { n: number }).n;
    },
    iterate: (db, filters, sort) =>
      iterateOrdered(
        db,
        {
          ...query(filters, sort, new Date().toISOString()),
          walkIndex: view.indexOrderedSorts?.includes((sort ?? defaultSort).field as SortField) === true,
        },
        view.toRow,
      ),
    get: (db, id) => {
      const row = db
        .prepare(
          `SELECT ${view.select} FROM ${view.from} WHERE ${view.idColumn} = ? AND ${alias}.synced_at IS NOT NULL`,
        )
        .get(id) as Record<string, unknown> | undefined;
      return row ? view.toRow(row) : null;
    },
  };
}
