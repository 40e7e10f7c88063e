/**
 * What a forwarder acts on, derived in one place from a container's attributes: its status,
 * the last free day in the port's time zone with the instant it ends, holds, and whether the
 * box can be picked up now. Stored beside the raw resource for sorting and filtering.
 */
import type { ContainerStatus } from '../../shared/status';
import { isTimeZone } from '../../shared/date-formatters';
import { endOfLocalDay, localDate } from '../../shared/zoned-time';

export { endOfLocalDay, localDate };

type Attributes = Record<string, unknown>;

export interface ShipmentContext {
  polAtdAt: string | null;
  podTimezone: string | null;
  destinationTimezone: string | null;
}

export interface Hold {
  name: string;
  status: string;
  description: string | null;
}

export interface DerivedContainer {
  status: ContainerStatus;
  /** The last free day as a calendar date where the box waits (YYYY-MM-DD), or null. */
  lastFreeDay: string | null;
  /** When that day ends (local midnight after it), as an instant; "overdue" is after this. */
  lfdDeadlineAt: string | null;
  lfdTimezone: string | null;
  /** Whose deadline the last free day is: the port terminal's, or the rail ramp's (inland); null without one. */
  lfdSource: 'terminal' | 'rail' | null;
  holds: Hold[];
  holdTypes: string[];
  /** The shipping line's own last free day (`ssl_lfd`), a calendar date where the box waits, or null. */
  lineLfd: string | null;
  /** Holds at the inland facility (`ind_facility_holds`), as `holds`; null when the service sent none. */
  facilityHolds: Hold[] | null;
  feesTotal: number | null;
  pickupReady: boolean;
}

const fromApi: Record<string, ContainerStatus> = {
  new: 'booked',
  loaded: 'booked',
  on_ship: 'in_transit',
  not_available: 'discharged',
  grounded: 'discharged',
  awaiting_inland_transfer: 'discharged',
  available: 'available',
  on_rail: 'on_rail',
  picked_up: 'picked_up',
  off_dock: 'picked_up',
  delivered: 'picked_up',
  dropped: 'picked_up',
  empty_returned: 'empty_returned',
};

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A list of holds as the service sends them, each with a name and a status; null when no list. */
function holdsOf(list: unknown): Hold[] | null {
  if (!Array.isArray(list)) return null;
  return list
    .filter((h): h is Attributes => typeof h === 'object' && h !== null)
    .map((h) => ({ name: text(h.name) ?? 'hold', status: text(h.status) ?? 'hold', description: text(h.description) }));
}

/** A last free day as a calendar date in `zone`: a date as sent, an instant by where it falls there. */
function calendarDay(value: string | null, zone: string): string | null {
  if (value === null) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : localDate(parsed, zone);
}

/** The status from milestones alone, for payloads without current_status. */
function statusFromMilestones(a: Attributes, shipment: ShipmentContext): ContainerStatus {
  if (text(a.empty_terminated_at)) return 'empty_returned';
  if (text(a.pod_full_out_at) || text(a.final_destination_full_out_at)) return 'picked_up';
  if ((text(a.pod_rail_loaded_at) || text(a.pod_rail_departed_at)) && !text(a.ind_rail_unloaded_at)) return 'on_rail';
  if (a.available_for_pickup === true) return 'available';
  if (text(a.pod_discharged_at) || text(a.ind_rail_unloaded_at)) return 'discharged';
  if (text(a.pod_arrived_at)) return 'arrived';
  if (shipment.polAtdAt) return 'in_transit';
  return 'booked';
}

/** A list of fees as the service sends them: its `total` entry, else the sum of the amounts; none when no list. */
export function totalOfFees(list: unknown): number | null {
  const fees = Array.isArray(list) ? list.filter((f): f is Attributes => typeof f === 'object' && f !== null) : [];
  const total = fees.find((f) => f.type === 'total');
  if (typeof total?.amount === 'number') return total.amount;
  return fees.length > 0 ? fees.reduce((sum, f) => sum + (typeof f.amount === 'number' ? f.amount : 0), 0) : null;
}

export function deriveContainer(a: Attributes, shipment: ShipmentContext): DerivedContainer {
  const api = text(a.current_status);
  let status = api !== null && api in fromApi ? fromApi[api]! : statusFromMilestones(a, shipment);
  // The API says "on ship" until discharge; a known arrival is worth showing.
  if (status === 'in_transit' && text(a.pod_arrived_at)) status = 'arrived';

  const holds = holdsOf(a.holds_at_pod_terminal) ?? [];
  const facilityHolds = holdsOf(a.ind_facility_holds);

  const feesTotal = totalOfFees(a.fees_at_pod_terminal);

  const deadlines =
    typeof a.import_deadlines === 'object' && a.import_deadlines !== null ? (a.import_deadlines as Attributes) : {};
  const railLfd = text(deadlines.pickup_lfd_rail) ?? text(a.ind_facility_lfd_on);
  const lfdInstant = text(a.pickup_lfd) ?? text(deadlines.pickup_lfd_terminal) ?? railLfd;
  // The rail facility's deadline is a day on the ramp's calendar, also when pickup_lfd repeats it
  // (the service coalesces the deadlines into pickup_lfd): read in the port's zone, a Chicago
  // midnight is the evening before in Los Angeles, a day early.
  const atRamp = lfdInstant !== null && lfdInstant === railLfd;
  const zoneCandidate = atRamp
    ? (text(a.final_destination_timezone) ?? shipment.destinationTimezone)
    : (text(a.pod_timezone) ?? shipment.podTimezone);
  const zone = isTimeZone(zoneCandidate) ? zoneCandidate : 'UTC';
  let lastFreeDay: string | null = null;
  let lfdDeadlineAt: string | null = null;
  const parsed = lfdInstant === null ? NaN : Date.parse(lfdInstant);
  if (!Number.isNaN(parsed)) {
    lastFreeDay = /^\d{4}-\d{2}-\d{2}$/.test(lfdInstant!) ? lfdInstant : localDate(parsed, zone);
    lfdDeadlineAt = new Date(endOfLocalDay(lastFreeDay!, zone)).toISOString().replace('.000Z', 'Z');
  }

  // The line's own last free day, on the calendar where the box waits: the ramp for a box that
  // rides the rail inland, the port otherwise.
  const inland =
    text(a.final_destination_timezone) !== null ||
    text(a.ind_rail_carrier_scac) !== null ||
    text(a.ind_rail_unloaded_at) !== null;
  const lineZoneCandidate = inland
    ? (text(a.final_destination_timezone) ?? shipment.destinationTimezone)
    : (text(a.pod_timezone) ?? shipment.podTimezone);
  const lineLfd = calendarDay(
    text(a.ssl_lfd) ?? text(deadlines.pickup_lfd_line),
    isTimeZone(lineZoneCandidate) ? lineZoneCandidate : 'UTC',
  );

  // A hold at the inland facility keeps the box there as a terminal hold does at the port: the
  // ramp releases a box to a trucker only once its facility holds are lifted.
  const facilityHeld = (facilityHolds ?? []).some((h) => h.status !== 'released');
  const pickedUp = status === 'picked_up' || status === 'empty_returned';
  return {
    status,
    lastFreeDay,
    lfdDeadlineAt,
    lfdTimezone: lastFreeDay ? zone : null,
    lfdSource: lastFreeDay ? (atRamp ? 'rail' : 'terminal') : null,
    holds,
    holdTypes: [...new Set(holds.map((h) => h.name))],
    feesTotal,
    lineLfd,
    facilityHolds,
    pickupReady: !pickedUp && a.available_for_pickup === true && holds.length === 0 && !facilityHeld,
  };
}

/** Whole days from today (in the zone) to the last free day; negative when past. */
export function daysLeft(lastFreeDay: string, zone: string, now: number): number {
  const today = localDate(now, isTimeZone(zone) ? zone : 'UTC');
  return Math.round((Date.parse(`${lastFreeDay}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}
