/**
 * Filter SQL for list declarations (src/core/resources/*: `defineList`): the common shapes of a
 * filter condition, each given its column or expression. A filter that fits none writes its own
 * `(value, q) => …` beside them.
 */
import type { FilterSql } from '../../resources/define-list';
import { inList, searchFilter } from './keyset';

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

/** A yes/no filter: one condition for yes, another for no. */
export const flag =
  (yes: string, no: string): FilterSql<boolean> =>
  (value, q) => {
    q.where.push(value ? yes : no);
  };

/** The search text against an FTS5 table (`searchFilter`), matching `rowidColumn`. */
export const searchIn =
  (rowidColumn: string, table: string): FilterSql<string> =>
  (text, q) =>
    searchFilter(rowidColumn, table, text, q.where, q.params);

/**
 * The search text matching a row's own search table or a related table's, as
 * `idColumn IN (SELECT … own UNION SELECT … related)`; `related` gets the related table's
 * conditions (its `rowid IN (…)`) and returns the SELECT of ids they reach.
 */
export function searchEither(
  idColumn: string,
  own: { table: string; select: (conditions: string[]) => string },
  related: { table: string; select: (conditions: string[]) => string },
): FilterSql<string> {
  return (text, q) => {
    const ownWhere: string[] = [];
    const ownParams: unknown[] = [];
    const relatedWhere: string[] = [];
    const relatedParams: unknown[] = [];
    searchFilter('rowid', own.table, text, ownWhere, ownParams);
    searchFilter('rowid', related.table, text, relatedWhere, relatedParams);
    if (ownWhere.length === 0) return;
    q.where.push(`${idColumn} IN (${own.select(ownWhere)} UNION ${related.select(relatedWhere)})`);
    q.params.push(...ownParams, ...relatedParams);
  };
}
