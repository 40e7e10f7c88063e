/**
 * The containers list's "Ready for pickup" filter. It asks the Pickup column's own decision
 * (`pickupState` in src/shared/pickup.ts) of each row, through the SQL function
 * `pickup_state(status, available_for_pickup, holds, facility_holds, fees_total,
 * terminal_checked_at, now, stale_hours)` that every connection registers, reading the row as the
 * list's rows read it (`pickupInputOf`): the filter and the column cannot answer apart. It is
 * judged at the query's moment with the stale limit from Settings: "yes" is every box the column
 * calls Ready, "no" every other box (not ready, can't tell, picked up). Rows at a status the
 * decision never calls ready (`neverReadyStatuses`) are answered in SQL without the call.
 *
 * The stored `containers.pickup_ready` (derived at sync) reads availability and holds only and
 * cannot know the moment or the setting: the filter does not use it.
 */
import type Database from 'better-sqlite3';
import { neverReadyStatuses, pickupState } from '../../../shared/pickup';
import type { ContainerRow } from '../../../shared/rows';
import type { ContainerStatus } from '../../../shared/status';
import type { FilterQuery, FilterSql } from '../../resources/define-list';

type Hold = ContainerRow['holds'][number];
/** What the decision reads of a containers row (`pickupState`'s input), with the row's own types. */
export type PickupFields = Pick<
  ContainerRow,
  'status' | 'availableForPickup' | 'holds' | 'facilityHolds' | 'feesTotal' | 'terminalCheckedAt'
>;

/** A stored JSON list of holds; text that is no JSON list holds `fallback`. */
function holdsOf<F>(text: unknown, fallback: F): Hold[] | F {
  if (typeof text !== 'string') return fallback;
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed.filter((h): h is Hold => typeof h === 'object' && h !== null) : fallback;
  } catch {
    return fallback;
  }
}

/** The pickup decision's input from a containers row's stored columns, as the list's rows carry it. */
export function pickupInputOf(
  status: unknown,
  availableForPickup: unknown,
  holds: unknown,
  facilityHolds: unknown,
  feesTotal: unknown,
  terminalCheckedAt: unknown,
): PickupFields {
  return {
    status: (typeof status === 'string' ? status : 'booked') as ContainerStatus,
    availableForPickup:
      availableForPickup === null || availableForPickup === undefined ? null : availableForPickup === 1,
    holds: holdsOf(holds, []),
    facilityHolds: holdsOf(facilityHolds, null),
    feesTotal: typeof feesTotal === 'number' ? feesTotal : null,
    terminalCheckedAt: typeof terminalCheckedAt === 'string' ? terminalCheckedAt : null,
  };
}

/** Registers `pickup_state(…)` on a connection: the state word `pickupState` answers for the row. */
export function registerPickupFunction(db: Database.Database): void {
  db.function(
    'pickup_state',
    { deterministic: true },
    (status, available, holds, facilityHolds, fees, checkedAt, now, staleHours) =>
      pickupState(
        pickupInputOf(status, available, holds, facilityHolds, fees, checkedAt),
        Number(now),
        Number(staleHours),
      ),
  );
}

// Rows whose status alone rules "ready" out are not handed to JavaScript (most boxes are at sea or
// picked up): the statuses come from the decision itself, and a row with no status reads as booked.
const never = neverReadyStatuses.map((status) => `'${status}'`).join(', ');
const state = `pickup_state(c.status, c.available_for_pickup, c.holds, c.facility_holds, c.fees_total,
  c.terminal_checked_at, ?, ?)`;

/** The filter: ready for pickup (yes), or every other box (no). */
export const pickupReadyFilter: FilterSql<boolean> = (yes: boolean, q: FilterQuery) => {
  q.where.push(
    yes
      ? `(c.status NOT IN (${never}) AND ${state} = 'ready')`
      : `(c.status IS NULL OR c.status IN (${never}) OR ${state} <> 'ready')`,
  );
  q.params.push(Date.parse(q.now), q.staleHours);
};
