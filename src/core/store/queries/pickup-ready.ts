/**
 * The containers list's "Ready for pickup" filter, in SQL, on the same rules as the Pickup column
 * (`pickupTruth` in src/shared/pickup.ts), judged at the query's moment with the stale limit from
 * Settings: a box is ready when it is at the terminal (not picked up or returned empty, not booked,
 * at sea, arrived undischarged or on rail), the terminal checked it less than the stale limit ago,
 * it is available, no hold is in force at the terminal or the inland facility, and no terminal fees
 * are owed. "Not ready" is every other box (not ready, can't tell, picked up).
 *
 * The stored `containers.pickup_ready` (derived at sync) reads availability and holds only and
 * cannot know the moment or the setting: the filter does not use it.
 */
import type { FilterQuery, FilterSql } from '../../resources/define-list';

const HOUR = 3_600_000;

/** Statuses at which `pickupTruth` answers without a terminal check: done, or not at the terminal yet. */
const notAtTerminal = ['picked_up', 'empty_returned', 'booked', 'in_transit', 'arrived', 'on_rail'];

/** None of the holds (a JSON list of `{ name, status }`) in `column` is in force; text that is no JSON holds none. */
const noHoldInForce = (column: string) =>
  `NOT EXISTS (SELECT 1 FROM json_each(CASE WHEN json_valid(${column}) THEN ${column} END) h
    WHERE json_extract(h.value, '$.status') IS NOT 'released')`;

/**
 * The condition "the Pickup column says Ready" over the containers row `c`, and its parameters.
 * Fresh means checked less than `staleHours` whole hours before `now` (a check in the future is
 * fresh), compared as text with milliseconds on both sides: the store writes `…:05Z` when an
 * instant has none.
 */
export function pickupReadySql(now: string, staleHours: number): { sql: string; params: unknown[] } {
  const cutoff = new Date(Date.parse(now) - Math.ceil(staleHours) * HOUR).toISOString();
  const checked = `CASE WHEN length(c.terminal_checked_at) = 20
    THEN substr(c.terminal_checked_at, 1, 19) || '.000Z' ELSE c.terminal_checked_at END`;
  const sql = `(c.status NOT IN (${notAtTerminal.map((s) => `'${s}'`).join(', ')})
    AND ${checked} > ?
    AND c.available_for_pickup = 1
    AND ${noHoldInForce('c.holds')}
    AND ${noHoldInForce('c.facility_holds')}
    AND coalesce(c.fees_total, 0) <= 0)`;
  return { sql, params: [cutoff] };
}

/** The filter: ready for pickup (yes), or every other box (no). */
export const pickupReadyFilter: FilterSql<boolean> = (yes: boolean, q: FilterQuery) => {
  const { sql, params } = pickupReadySql(q.now, q.staleHours);
  q.where.push(yes ? sql : `NOT coalesce(${sql}, 0)`);
  q.params.push(...params);
};
