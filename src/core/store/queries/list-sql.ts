/**
 * Filter SQL for list declarations (src/core/resources/*: `defineList`): the common shapes of a
 * filter condition, each given its column or expression. A filter that fits none writes its own
 * `(value, q) => …` beside them.
 */
import { instantsOf, resolveDays, type DaysFilter } from '../../../shared/date-filters';
import type { CustomFieldFilters } from '../../../shared/views';
import { internedText } from '../../resources/define';
import type { FilterSql } from '../../resources/define-list';
import { inList, searchMatch } from './keyset';

/** `column IN (…)` the values (none given: no condition). */
export const oneOf =
  (column: string): FilterSql<readonly string[]> =>
  (values, q) =>
    inList(column, values, q.where, q.params);

/** `expression >= value`, for the start of a range. */
export const from =
  (expression: string): FilterSql<string> =>
  (value, q) => {
    q.where.push(`${expression} >= ?`);
    q.params.push(value);
  };

/** `expression <= value`, for the end of a range. */
export const to =
  (expression: string): FilterSql<string> =>
  (value, q) => {
    q.where.push(`${expression} <= ?`);
    q.params.push(value);
  };

/**
 * A date filter (src/shared/date-filters.ts) on `expression`, resolved to days at the query's
 * moment in its zone: an instant from the first day's start to the last day's end, or a calendar
 * date (`date`: YYYY-MM-DD as the day where it falls, such as a last free day) between the two.
 * `overdue` is the field's "overdue" condition, its one parameter the query's moment; beside
 * days, a row that is either counts.
 */
export const daysIn =
  (expression: string, kind: 'instant' | 'date', overdue?: string): FilterSql<DaysFilter> =>
  (value, q) => {
    const { days, overdue: late } = resolveDays(value, Date.parse(q.now), q.zone);
    const either: string[] = [];
    const params: unknown[] = [];
    if (late && overdue !== undefined) {
      either.push(`(${overdue})`);
      params.push(q.now);
    }
    if (days !== null) {
      const instants = kind === 'instant' ? instantsOf(days, q.zone) : null;
      const ends: string[] = [];
      if (days.first !== null) {
        ends.push(`${expression} >= ?`);
        params.push(instants?.from ?? days.first);
      }
      if (days.last !== null) {
        ends.push(instants ? `${expression} < ?` : `${expression} <= ?`);
        params.push(instants?.until ?? days.last);
      }
      either.push(`(${ends.join(' AND ')})`);
    }
    // "Overdue" on a date without an overdue condition matches nothing (its schema refuses it).
    if (either.length === 0) either.push('0');
    q.where.push(either.length === 1 ? either[0]! : `(${either.join(' OR ')})`);
    q.params.push(...params);
  };

/** A yes/no filter: one condition for yes, another for no. */
export const flag =
  (yes: string, no: string): FilterSql<boolean> =>
  (value, q) => {
    q.where.push(value ? yes : no);
  };

/**
 * An FTS5 search table and which of its columns a search reads: `name` as the table declares it
 * (for MATCH), `stored` as its `_content` table keeps it (`c0`, `c1`…, for LIKE). Default: its
 * one column, `body`.
 */
export interface SearchText {
  table: string;
  columns?: readonly { name: string; stored: string }[];
}

const bodyOnly = [{ name: 'body', stored: 'c0' }] as const;

/**
 * The LIKE conditions of short words on a search table's texts: each word in one of the
 * search's columns, read as `alias.<stored>` (its `_content` table) or, with no alias, by the
 * FTS5 table's own column names.
 */
function textLikes(search: SearchText, likes: readonly string[], alias?: string) {
  const columns = (search.columns ?? bodyOnly).map((c) => (alias ? `${alias}.${c.stored}` : c.name));
  const each = columns.map((column) => `${column} LIKE ? ESCAPE '\\'`);
  const one = each.length === 1 ? each[0]! : `(${each.join(' OR ')})`;
  return {
    sql: likes.map(() => one).join(' AND '),
    params: likes.flatMap((like) => columns.map(() => like)),
  };
}

/** The trigram match of the long words, over the search's columns only where it names them. */
const matchOf = (search: SearchText, match: string) =>
  search.columns ? `{${search.columns.map((c) => c.name).join(' ')}} : (${match})` : match;

/**
 * The rowids of an FTS5 search table's rows matching the search text (null: no word to match).
 * Short words alone are read from the text the table stores (a scan either way; through the
 * FTS5 table it costs half as much again).
 */
function searchRows(search: SearchText, text: string): { sql: string; params: unknown[] } | null {
  const { match, likes } = searchMatch(text);
  if (match === null && likes.length === 0) return null;
  const { table } = search;
  if (match === null) {
    const stored = textLikes(search, likes, 't');
    return { sql: `SELECT id FROM ${table}_content t WHERE ${stored.sql}`, params: stored.params };
  }
  const also = likes.length > 0 ? textLikes(search, likes) : null;
  return {
    sql: `SELECT rowid FROM ${table} WHERE ${table} MATCH ?${also ? ` AND ${also.sql}` : ''}`,
    params: [matchOf(search, match), ...(also?.params ?? [])],
  };
}

/** Whether the stored text of the search row `rowid` holds every short word. */
function storedTextHolds(search: SearchText, rowid: string, likes: readonly string[]) {
  const stored = textLikes(search, likes, 't');
  return {
    sql: `EXISTS (SELECT 1 FROM ${search.table}_content t WHERE t.id = ${rowid} AND ${stored.sql})`,
    params: stored.params,
  };
}

/**
 * The search text matching a row's own search table, or also a related table's: `ownRow IN (own
 * matches UNION ALL rows the related matches reach)`, a set of the listed table's rowids (an FTS5
 * table's rowid is its record's; `related.rowsOf` joins the related table's matching rowids to
 * them).
 *
 * A page or a count reads the set's first rowids (`inSet`): few, they are the list, each row read
 * by its rowid. Many, the page tests each row it walks in its sort order and stops when full, as
 * reading and sorting 11k matches of three letters at 100k shipments took 150 ms: the row's own
 * rowid in its table's matches, else one of its related rows (`relatedRows`, given the test of a
 * related rowid) in theirs. A count of many tests the set's rowids against the table's live
 * index instead, never reading the wide rows; where every word is one character (a LIKE in most
 * rows' text) the count also tests row by row, its related rows only where its own text fails.
 *
 * A word of three characters or more is a trigram match (SQLite builds each set once, with a
 * Bloom filter, and `+` keeps the set a test rather than the way in); shorter words are a LIKE no
 * trigram narrows (`searchMatch`), tested on the text an FTS5 table stores (its `_content`
 * table).
 */
export function searchEither(
  own: SearchText & { ownRow: string },
  related?: SearchText & {
    rowsOf: (matching: string) => string;
    relatedRows: (test: (rowid: string) => string) => string;
  },
): FilterSql<string> {
  return (text, q) => {
    const ownRows = searchRows(own, text);
    if (ownRows === null) return;
    const relatedRows = related ? searchRows(related, text) : null;
    const subquery = relatedRows ? `${ownRows.sql} UNION ALL ${related!.rowsOf(relatedRows.sql)}` : ownRows.sql;
    const params = relatedRows ? [...ownRows.params, ...relatedRows.params] : ownRows.params;
    const { match, likes } = searchMatch(text);
    const inSetOf = { condition: `+${own.ownRow} IN (${subquery})`, params };
    // Searched alone, its own table's matches are the count: the writer keeps a search row for
    // each record the service has given, and a record deleted takes its row with it.
    const alone = related ? undefined : { sql: `SELECT count(*) FROM (${ownRows.sql})`, params: ownRows.params };
    if (match !== null) {
      const ownTest = `+${own.ownRow} IN (${ownRows.sql})`;
      const walked =
        related && relatedRows
          ? `(${ownTest} OR ${related.relatedRows((rowid) => `+${rowid} IN (${relatedRows.sql})`)})`
          : ownTest;
      q.inSet(own.ownRow, subquery, params, { condition: walked, params, counted: inSetOf, alone });
      return;
    }
    const ownHolds = storedTextHolds(own, own.ownRow, likes);
    let walked: { condition: string; params: unknown[] } = { condition: ownHolds.sql, params: ownHolds.params };
    if (related) {
      const relatedTest = related.relatedRows((rowid) => storedTextHolds(related, rowid, likes).sql);
      const relatedParams = textLikes(related, likes, 't').params;
      walked = { condition: `(${ownHolds.sql} OR ${relatedTest})`, params: [...ownHolds.params, ...relatedParams] };
    }
    const oneCharacter = likes.every((like) => [...like].length === 3);
    q.inSet(own.ownRow, subquery, params, { ...walked, counted: oneCharacter ? walked : inSetOf, alone });
  };
}

/**
 * The typed value of a custom field row (`alias.value` is JSON text): a number for numbers, the
 * ISO text of dates, 1 or 0 for yes/no, the text of text. Written exactly as migration 0006's
 * `custom_fields_list_value` index is, so SQLite walks that index for it.
 */
export const customFieldValueKey = (alias: string): string =>
  `(CASE WHEN json_valid(${alias}.value) THEN json_extract(${alias}.value, '$') END)`;

/** What a list orders a custom field by: the typed value of numbers, dates and yes/no, else the text shown. */
export function customFieldSortKey(alias: string, dataType: string | undefined): string {
  return dataType === 'number' || dataType === 'date' || dataType === 'datetime' || dataType === 'boolean'
    ? customFieldValueKey(alias)
    : `${alias}.display_value`;
}

/** The key `interned` gives a text (a bound parameter by default): NULL for a text never interned. */
export const keyOfText = (text = '?'): string => `(SELECT key FROM interned WHERE text = ${text})`;

/** The values of one field on one record type (bound first, its slug second): as their keys (migration 0010). */
export const ofField = (alias: string): string =>
  `${alias}.entity_type_key = ${keyOfText()} AND ${alias}.api_slug_key = ${keyOfText()}`;

/**
 * A sort by one custom field (`cf.<api_slug>`) of the listed records (`idColumn`): the values'
 * table joined for rows with a value, walked in the order of its list index (migration 0006),
 * each value finding its record by the text of its record's key; and read by the key of the
 * record's id (the entity index, named: a lookup by record must never walk a field's whole list)
 * for rows without one and for an export's one sorted statement. Values tie by their record's key.
 */
export function customFieldSortJoin(entityType: string, slug: string, idColumn: string, dataType: string | undefined) {
  return {
    sortColumn: customFieldSortKey('cfs', dataType),
    join: {
      table: 'custom_fields cfs',
      byRow: 'custom_fields cfs INDEXED BY custom_fields_entity',
      on: `cfs.entity_key = ${keyOfText(idColumn)} AND ${ofField('cfs')}`,
      walkOn: `${idColumn} = ${internedText('cfs', 'entity_key')} AND ${ofField('cfs')}`,
      params: [entityType, slug],
      tie: 'cfs.entity_key',
      rowTie: keyOfText(idColumn),
    },
  };
}

const LOWEST = -Number.MAX_VALUE;
const HIGHEST = Number.MAX_VALUE;
/** The day after a calendar day (`2026-02-28` → `2026-03-01`): the end of a range of days, excluded. */
function dayAfter(day: string): string {
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/**
 * The custom field filters of a list whose records (`idColumn`) are of `entityType`: for each
 * field, the records holding a matching value, read from the field's list index. A record
 * without a value matches no filter. `q.customFieldTypes` says how a field holds its values (a
 * multi pick list holds a list of options); a field not defined here is read as one value.
 */
export const customFieldFilters =
  (entityType: string, idColumn: string): FilterSql<CustomFieldFilters> =>
  (filters, q) => {
    for (const [slug, filter] of Object.entries(filters)) {
      if (filter === undefined) continue;
      // The records' ids: the text of each value's record key.
      const values = `SELECT i.text FROM custom_fields v JOIN interned i ON i.key = v.entity_key WHERE ${ofField('v')}`;
      const key = customFieldValueKey('v');
      const params: unknown[] = [entityType, slug];
      let condition: string;
      switch (filter.kind) {
        case 'options': {
          const marks = filter.values.map(() => '?').join(', ');
          condition =
            q.customFieldTypes.get(slug) === 'enum_multi'
              ? `SELECT i.text FROM custom_fields v JOIN interned i ON i.key = v.entity_key,
                  json_each(CASE WHEN json_valid(v.value) THEN v.value END) j
                  WHERE ${ofField('v')} AND j.value IN (${marks})`
              : `${values} AND ${key} IN (${marks})`;
          params.push(...filter.values);
          break;
        }
        case 'text':
          condition = `${values} AND v.display_value LIKE ? ESCAPE '\\'`;
          params.push(`%${filter.contains.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
          break;
        case 'number':
          // Both ends always: a value of another type (text) falls outside either way.
          condition = `${values} AND ${key} >= ? AND ${key} <= ?`;
          params.push(filter.min ?? LOWEST, filter.max ?? HIGHEST);
          break;
        case 'date':
          // ISO text: a date-time on the last day is before the day after it.
          condition = `${values} AND ${key} >= ? AND ${key} < ?`;
          params.push(filter.from ?? '0000-01-01', filter.to === undefined ? '9999-12-32' : dayAfter(filter.to));
          break;
        case 'flag':
          condition = `${values} AND ${key} = ?`;
          params.push(filter.is ? 1 : 0);
          break;
      }
      q.inSet(idColumn, condition, params);
    }
  };
