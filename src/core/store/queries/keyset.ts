/**
 * Keyset paging that stays on an index: rows with a value in the sort column come first, in
 * order of (value, tie), then rows without one, by tie. The tie is the listed row's rowid (every
 * SQLite index ends in it, so a sort index on the column alone gives that order), or, for a value
 * from another table, what that table's sort index ends in. The cursor names the phase and the last (value, tie), so a
 * deep page costs what the first does (no OFFSET).
 */
import { QuaysideError } from '../../errors';
import type { Db } from '../database';

export interface KeysetQuery {
  select: string;
  from: string;
  where: string[];
  params: unknown[];
  sortColumn: string;
  /**
   * A condition a row's value counts under: rows where it does not hold sort with the rows
   * without a value (after them, by id), either way round. Lets a sort leave out rows it does not
   * apply to (boxes already picked up, by last free day) and still walk the column's index.
   */
  sortWhen?: string;
  /** A sort column read from another table (a custom field's values): see SortJoin. */
  sortJoin?: SortJoin;
  /** The listed row's id: what a sort join's `on` and a list of ids read first name. */
  idColumn: string;
  /**
   * What rows with the same value are ordered by (and the cursor carries): the listed table's
   * rowid, so its sort indexes need not hold the id (migration 0010). Defaults to `idColumn`.
   * Rows with a value through a sort join tie by the join's `tie` instead.
   */
  tieColumn?: string;
  direction: 'asc' | 'desc';
  limit: number;
  after?: string;
}

/**
 * The table a sort's column comes from when it is not the listed row's own (one custom field's
 * values, at most one per row). `table` is walked in the order of its index on (sort column,
 * `tie`), each of its rows finding its listed row through `walkOn`; `byRow` is the same table
 * read from a listed row through `on` (an index named with INDEXED BY: without statistics SQLite
 * would look a row's value up by walking the sort index, once per row). Both carry `params`.
 */
export interface SortJoin {
  table: string;
  byRow: string;
  on: string;
  walkOn: string;
  params: unknown[];
  /** What the join's index orders rows with the same value by (the listed row's key, as the joined table holds it). */
  tie: string;
  /** The same tie, computed from the listed row (for rows read by their ids). */
  rowTie: string;
}

/**
 * Up to this many matching rows, a page sorted through a join reads those rows' ids, then each
 * row and its value by its id, and sorts them; beyond, it walks the join's sort index and checks each row it meets against
 * the filters (the matches are then dense enough to fill a page soon).
 */
const FEW_ROWS = 2000;

interface Cursor {
  phase: 0 | 1;
  value: string | number | null;
  /** The last row's tie: an id (text) or a rowid (an integer). */
  id: string | number;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.phase, cursor.value, cursor.id])).toString('base64url');
}

function decodeCursor(raw: string): Cursor {
  try {
    const [phase, value, id] = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown[];
    if (
      (phase === 0 || phase === 1) &&
      (typeof id === 'string' || Number.isSafeInteger(id)) &&
      (value === null || ['string', 'number'].includes(typeof value))
    ) {
      return { phase, value: value as Cursor['value'], id: id as Cursor['id'] };
    }
  } catch {
    // falls through to the error below
  }
  throw new QuaysideError(
    'invalid_argument',
    'The page cursor is not one this list gave out; start from the first page.',
  );
}

/** What rows with equal values (or none) are ordered by, but rows with a value through a sort join (its `tie`). */
const tieOf = (q: Pick<KeysetQuery, 'idColumn' | 'tieColumn'>): string => q.tieColumn ?? q.idColumn;

/** The conditions of the two phases (rows with a value, rows without) and the value a row sorts by. */
function phasesOf(q: Pick<KeysetQuery, 'sortColumn' | 'sortWhen' | 'sortJoin'>): {
  has: string;
  lacks: string;
  lacksParams: unknown[];
  value: string;
} {
  if (q.sortJoin !== undefined) {
    const join = q.sortJoin;
    return {
      has: `${q.sortColumn} IS NOT NULL`,
      lacks: `NOT EXISTS (SELECT 1 FROM ${join.byRow} WHERE ${join.on} AND ${q.sortColumn} IS NOT NULL)`,
      lacksParams: join.params,
      value: q.sortColumn,
    };
  }
  if (q.sortWhen === undefined) {
    return {
      has: `${q.sortColumn} IS NOT NULL`,
      lacks: `${q.sortColumn} IS NULL`,
      lacksParams: [],
      value: q.sortColumn,
    };
  }
  const when = `coalesce((${q.sortWhen}), 0)`;
  return {
    has: `${q.sortColumn} IS NOT NULL AND ${when}`,
    lacks: `(${q.sortColumn} IS NULL OR NOT ${when})`,
    lacksParams: [],
    value: `CASE WHEN ${when} THEN ${q.sortColumn} END`,
  };
}

/**
 * The statement of rows with a value through a sort join: for few matching rows (FEW_ROWS, their
 * ids read first), each of those rows read by its id with its value, and sorted; otherwise the
 * join's sort index walked in order, outermost (CROSS JOIN keeps it there), each row it names
 * checked against the filters.
 */
function joinedValues(
  db: Db,
  q: KeysetQuery & { sortJoin: SortJoin },
  filters: string[],
  cursor: Cursor | null,
): { sql: string; params: unknown[] } {
  const join = q.sortJoin;
  const cmp = q.direction === 'asc' ? '>' : '<';
  const dir = q.direction === 'asc' ? 'ASC' : 'DESC';
  const after = cursor ? [cursor.value, cursor.id] : [];
  const ids = db
    .prepare(`SELECT ${q.idColumn} FROM ${q.from} WHERE ${filters.join(' AND ')} LIMIT ${FEW_ROWS + 1}`)
    .pluck()
    .all(...q.params) as string[];
  if (ids.length <= FEW_ROWS) {
    const value = `(SELECT ${q.sortColumn} FROM ${join.byRow} WHERE ${join.on})`;
    const rows = `SELECT ${q.select}, ${value} AS __sort, ${join.rowTie} AS __id FROM ${q.from}
      WHERE ${q.idColumn} IN (SELECT value FROM json_each(?))`;
    const where = cursor ? `__sort IS NOT NULL AND (__sort, __id) ${cmp} (?, ?)` : '__sort IS NOT NULL';
    return {
      sql: `SELECT * FROM (${rows}) WHERE ${where} ORDER BY __sort ${dir}, __id ${dir} LIMIT ?`,
      params: [...join.params, JSON.stringify(ids), ...after],
    };
  }
  const where = [join.walkOn, ...filters, `${q.sortColumn} IS NOT NULL`];
  if (cursor) where.push(`(${q.sortColumn}, ${join.tie}) ${cmp} (?, ?)`);
  return {
    sql: `SELECT ${q.select}, ${q.sortColumn} AS __sort, ${join.tie} AS __id FROM ${join.table} CROSS JOIN ${q.from}
      WHERE ${where.join(' AND ')} ORDER BY ${q.sortColumn} ${dir}, ${join.tie} ${dir} LIMIT ?`,
    params: [...join.params, ...q.params, ...after],
  };
}

/** Runs one page of a keyset query; rows carry `__sort` and `__id` for the next cursor. */
export function keysetPage<Row extends Record<string, unknown>>(
  db: Db,
  q: KeysetQuery,
): { rows: Row[]; next: string | null } {
  const cursor = q.after ? decodeCursor(q.after) : null;
  const cmp = q.direction === 'asc' ? '>' : '<';
  const dir = q.direction === 'asc' ? 'ASC' : 'DESC';
  const phases = phasesOf(q);
  const tie = tieOf(q);
  const rows: Row[] = [];
  const filters = q.where.length > 0 ? q.where : ['1'];

  if (!cursor || cursor.phase === 0) {
    let statement: { sql: string; params: unknown[] };
    if (q.sortJoin !== undefined) {
      statement = joinedValues(db, { ...q, sortJoin: q.sortJoin }, filters, cursor);
    } else {
      const where = [...filters, phases.has];
      const params = [...q.params];
      if (cursor) {
        where.push(`(${q.sortColumn}, ${tie}) ${cmp} (?, ?)`);
        params.push(cursor.value, cursor.id);
      }
      statement = {
        sql: `SELECT ${q.select}, ${phases.value} AS __sort, ${tie} AS __id FROM ${q.from} WHERE ${where.join(' AND ')} ORDER BY ${q.sortColumn} ${dir}, ${tie} ${dir} LIMIT ?`,
        params,
      };
    }
    rows.push(...(db.prepare(statement.sql).all(...statement.params, q.limit + 1) as Row[]));
  }
  if (rows.length <= q.limit) {
    const where = [...filters, phases.lacks];
    const params = [...q.params, ...phases.lacksParams];
    if (cursor?.phase === 1) {
      where.push(`${tie} ${cmp} ?`);
      params.push(cursor.id);
    }
    // Rows without a value sort by none (the sort join's table is not read here).
    const sql = `SELECT ${q.select}, NULL AS __sort, ${tie} AS __id FROM ${q.from} WHERE ${where.join(' AND ')} ORDER BY ${tie} ${dir} LIMIT ?`;
    rows.push(...(db.prepare(sql).all(...params, q.limit + 1 - rows.length) as Row[]));
  }
  const hasMore = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const next =
    hasMore && last
      ? encodeCursor({
          phase: last.__sort === null ? 1 : 0,
          value: (last.__sort ?? null) as Cursor['value'],
          id: last.__id as Cursor['id'],
        })
      : null;
  return { rows: page, next };
}

export type OrderedQuery = Omit<KeysetQuery, 'limit' | 'after'> & {
  /**
   * Walk the sort column's index in two phases (values, then rows without one) instead of
   * sorting every row first. Only worth it when the index order follows the table's own order
   * (rows are written as the service lists them, newest first, so `created_at` does): elsewhere
   * each row is a jump to another page of a table too big for the cache, and sorting wins
   * (220k containers by last free day: 1.1 s sorted, 2.0 s by the index).
   */
  walkIndex?: boolean;
  /** The FROM of a count of rows meeting `conditions`: only the joins they need (default: `from`). */
  countFrom?: (conditions: readonly string[]) => string;
  /**
   * An expression the rows are grouped by before the sort (an export's file per customer): rows
   * with one value together, by it, those without one last, each group in the query's order.
   * One sorted statement, never an index walk.
   */
  groupFirst?: string;
};

const countFrom = (q: OrderedQuery, conditions: readonly string[]) => q.countFrom?.(conditions) ?? q.from;

/**
 * One statement of an ordered query, with `count`: how many rows it gives, asked without its
 * columns, order and the joins only its columns read (a count of the statement wrapped whole
 * read every row and its joins: 60 ms for 100k shipments alone, 130-240 beside the export's other
 * worker).
 */
export interface OrderedStatement {
  sql: string;
  params: unknown[];
  count: { sql: string; params: unknown[] };
}

/**
 * The whole ordered list in the order keyset pages give it (values first, then rows without
 * one): one sorted statement, or with `walkIndex` one statement per phase, each in index order.
 */
export function orderedQueries(q: OrderedQuery): OrderedStatement[] {
  const dir = q.direction === 'asc' ? 'ASC' : 'DESC';
  const where = q.where.length > 0 ? q.where.join(' AND ') : '1';
  const phases = phasesOf(q);
  const tie = tieOf(q);
  // A sort join is one sorted statement, each row's value read by its id (as sorting beats jumping).
  if (q.walkIndex !== true || q.sortJoin !== undefined || q.groupFirst !== undefined) {
    const join = q.sortJoin;
    const from = join ? `${q.from} LEFT JOIN ${join.byRow} ON ${join.on}` : q.from;
    // Rows with a value by it and the join's tie, then the rest by the listed table's tie: as the pages give them.
    const joinTie = join ? `CASE WHEN ${phases.value} IS NOT NULL THEN ${join.tie} END ${dir}, ` : '';
    const group = q.groupFirst === undefined ? '' : `(${q.groupFirst}) IS NULL, (${q.groupFirst}), `;
    return [
      {
        sql: `SELECT ${q.select} FROM ${from} WHERE ${where} ORDER BY ${group}(${phases.value} IS NULL), ${phases.value} ${dir}, ${joinTie}${tie} ${dir}`,
        params: [...(join?.params ?? []), ...q.params],
        // The sort join holds at most one value a row: left out, it changes no count.
        count: { sql: `SELECT count(*) FROM ${countFrom(q, q.where)} WHERE ${where}`, params: q.params },
      },
    ];
  }
  const base = `SELECT ${q.select} FROM ${q.from} WHERE ${where}`;
  const count = (phase: string) => ({
    sql: `SELECT count(*) FROM ${countFrom(q, [...q.where, phase])} WHERE ${where} AND ${phase}`,
    params: q.params,
  });
  return [
    {
      sql: `${base} AND ${phases.has} ORDER BY ${q.sortColumn} ${dir}, ${tie} ${dir}`,
      params: q.params,
      count: count(phases.has),
    },
    { sql: `${base} AND ${phases.lacks} ORDER BY ${tie} ${dir}`, params: q.params, count: count(phases.lacks) },
  ];
}

/** A stretch of an ordered query's rows: `limit` rows (all the rest: null) after the first `offset`. */
export interface RowRange {
  offset: number;
  limit: number | null;
}

/** How many rows the statements of an ordered query give, together (each by its own `count`). */
export function countOrdered(db: Db, statements: readonly OrderedStatement[]): number {
  let n = 0;
  for (const { count } of statements)
    n += db
      .prepare(count.sql)
      .pluck()
      .get(...count.params) as number;
  return n;
}

/**
 * Every row of an ordered query (or of a `range` of its rows), mapped, streamed with flat memory.
 * It holds its connection while iterating: give it one of its own (see openReader) when the
 * caller yields in between. Two phases read one snapshot: outside a transaction it opens one for
 * the walk. A range skips its first rows in SQLite (`OFFSET`), never building them here.
 */
export function* iterateOrdered<Row>(
  db: Db,
  q: OrderedQuery,
  toRow: (row: Record<string, unknown>) => Row,
  range?: RowRange,
): Generator<Row> {
  const statements = orderedQueries(q);
  const own = statements.length > 1 && !db.inTransaction;
  if (own) db.exec('BEGIN');
  try {
    let skip = range?.offset ?? 0;
    let left = range?.limit ?? Number.POSITIVE_INFINITY;
    for (let i = 0; i < statements.length && left > 0; i++) {
      const { sql, params } = statements[i]!;
      if (range === undefined) {
        for (const row of db.prepare(sql).iterate(...params)) yield toRow(row as Record<string, unknown>);
        continue;
      }
      if (skip > 0 && i < statements.length - 1) {
        // A phase wholly before the range is passed over; one the range starts in is read from there.
        const n = countOrdered(db, [statements[i]!]);
        if (n <= skip) {
          skip -= n;
          continue;
        }
      }
      const limit = Number.isFinite(left) ? left : -1;
      for (const row of db.prepare(`${sql} LIMIT ? OFFSET ?`).iterate(...params, limit, skip)) {
        left--;
        yield toRow(row as Record<string, unknown>);
      }
      skip = 0;
    }
  } finally {
    if (own && db.inTransaction) db.exec('COMMIT');
  }
}

/** `column IN (?, ?, …)` for a non-empty list. */
export function inList(column: string, values: readonly unknown[], where: string[], params: unknown[]): void {
  if (values.length === 0) return;
  where.push(`${column} IN (${values.map(() => '?').join(', ')})`);
  params.push(...values);
}

/**
 * An FTS5 query for user text: each word becomes a quoted phrase (so quotes, operators and
 * column syntax in the input are just characters), all must match. Trigram tokens need three
 * characters; shorter words are left to a LIKE on the same table. A NUL separates words: FTS5
 * reads its query only up to one (a phrase cut there is "unterminated").
 */
export function searchMatch(input: string): { match: string | null; likes: string[] } {
  const words = input
    .normalize('NFKC')
    .split(/[\s\0]+/)
    .map((w) => w.trim())
    .filter(Boolean)
    .slice(0, 8);
  const long = words.filter((w) => [...w].length >= 3);
  const short = words.filter((w) => [...w].length < 3);
  return {
    match: long.length > 0 ? long.map((w) => `"${w.replaceAll('"', '""')}"`).join(' AND ') : null,
    likes: short.map((w) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`),
  };
}
