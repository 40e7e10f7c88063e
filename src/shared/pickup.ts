/**
 * Pickup truth: one answer per container to "can a trucker pick this box up?", from availability,
 * holds (the terminal's and the inland facility's), fees and the last free day, told with how old
 * the terminal's data is. Pure (no clock of its own, no I/O), shared by core (the export, and the
 * containers list's "Ready for pickup" filter, which asks `pickupState` of each row in SQL) and
 * the renderer (the container page's pickup card, the list column), so all answer alike.
 *
 * - **done**: picked up or returned empty; nothing to decide.
 * - **not_ready** without terminal data: the box is not at the terminal yet (booked, at sea,
 *   arrived but not discharged, on rail): that does not depend on a fresh terminal check.
 * - **unknown**: the box is at the terminal (discharged or available) but the terminal was never
 *   checked, or last checked longer ago than the stale setting (default 24 h): availability and
 *   holds may have changed, so neither "ready" nor any urgency is claimed.
 * - **ready**: fresh data, available for pickup, no hold in force at the terminal or the inland
 *   facility, no terminal fees owed.
 * - **not_ready**: fresh data and one or more reasons, each in words (not released yet, a hold,
 *   fees owed).
 *
 * The last free day shown is the terminal's or the rail ramp's (`lfd_source`), else the line's
 * (`ssl_lfd`), with its source. Urgency (overdue, last day today, within 3 days) is given only when
 * the data is fresh, or when the box is not at the terminal yet (where the clock has not started).
 */
import { z } from 'zod';
import type { ContainerStatus } from './status';
import { holdLabel } from './labels';
import { isTimeZone } from './date-formatters';
import { localDate } from './zoned-time';

export const DEFAULT_TERMINAL_STALE_HOURS = 24;
/** Hours after which a terminal check is too old to support "ready" or "overdue": 1 h to 14 days. */
export const terminalStaleHoursSchema = z
  .number({ error: 'Enter a number of hours.' })
  .int('Enter whole hours.')
  .min(1, 'At least 1 hour.')
  .max(24 * 14, 'At most 336 hours (14 days).');

export type PickupState = 'ready' | 'not_ready' | 'unknown' | 'done';
export type LfdSourceName = 'terminal' | 'rail' | 'line';
export type Urgency = 'overdue' | 'today' | 'soon';

export interface PickupHold {
  name: string;
  status: string;
}

/** What the decision reads: fields of the containers list's row (`ContainerRow`). */
export interface PickupInput {
  status: ContainerStatus;
  availableForPickup: boolean | null;
  holds: PickupHold[];
  facilityHolds: PickupHold[] | null;
  feesTotal: number | null;
  /** The terminal's or rail ramp's last free day (YYYY-MM-DD) and which it is. */
  lastFreeDay: string | null;
  lfdSource: 'terminal' | 'rail' | null;
  lfdTimezone: string | null;
  lineLastFreeDay: string | null;
  podTimezone: string | null;
  /** When the service last checked the terminal for this box (`terminal_checked_at`). */
  terminalCheckedAt: string | null;
}

/** What the state alone reads (`pickupState`): no last free day, no zone. */
export type PickupStateInput = Pick<
  PickupInput,
  'status' | 'availableForPickup' | 'holds' | 'facilityHolds' | 'feesTotal' | 'terminalCheckedAt'
>;

export interface PickupTruth {
  state: PickupState;
  /** One line: "Ready for pickup", "Not ready: Customs hold", "Can't tell: terminal data 31 h old". */
  headline: string;
  /** Why not ready, each a short phrase; empty otherwise. */
  reasons: string[];
  lastFreeDay: { date: string; source: LfdSourceName; zone: string } | null;
  /** Whole days from today to the last free day in its zone (negative when past); null without one. */
  daysLeft: number | null;
  /** Shown only when the data supports it (fresh, or the box is not at the terminal yet). */
  urgency: Urgency | null;
  checkedAt: string | null;
  /** Hours since the terminal check, rounded down; null when never checked. */
  ageHours: number | null;
  stale: boolean;
  /** Said plainly when stale: "Terminal last checked 31 h ago — availability may have changed". */
  staleNote: string | null;
}

export const lfdSourceLabels: Record<LfdSourceName, string> = {
  terminal: 'Terminal',
  rail: 'Rail ramp',
  line: 'Shipping line',
};

export const pickupStateLabels: Record<PickupState, string> = {
  ready: 'Ready',
  not_ready: 'Not ready',
  unknown: 'Can’t tell',
  done: 'Picked up',
};

const HOUR = 3_600_000;
const SOON_DAYS = 3;

/** "31 h" under two days, else "3 days". */
export function formatAge(hours: number): string {
  if (hours < 1) return 'under 1 h';
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}

const feesFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
function formatFees(amount: number): string {
  return `${feesFormat.format(amount)} USD`;
}

function inForce(holds: PickupHold[] | null): PickupHold[] {
  return Array.isArray(holds) ? holds.filter((h) => h.status !== 'released') : [];
}

/** Nothing left to decide: the box has left the terminal. */
const doneStatuses: ReadonlySet<ContainerStatus> = new Set(['picked_up', 'empty_returned']);
/** Not at the terminal yet, and why in words: the answer does not rest on a terminal check. */
const notThere: Partial<Record<ContainerStatus, string>> = {
  booked: 'Not loaded at origin yet',
  in_transit: 'At sea',
  arrived: 'Vessel arrived; not discharged yet',
  on_rail: 'On rail to the inland ramp',
};
/** Statuses at which no box is ready, whatever the terminal says: what a SQL filter may skip unasked. */
export const neverReadyStatuses: readonly ContainerStatus[] = [
  ...doneStatuses,
  ...(Object.keys(notThere) as ContainerStatus[]),
];

interface Judgement {
  state: PickupState;
  /** Why not ready, each a short phrase: where the box is, or what keeps it at the terminal. */
  reasons: string[];
  /** Hours since the terminal check, rounded down; null when never checked (or unreadable). */
  ageHours: number | null;
  stale: boolean;
}

/** The decision itself, which `pickupTruth` tells in full and `pickupState` answers in a word. */
function judge(input: PickupStateInput, now: number, staleHours: number): Judgement {
  const checked = input.terminalCheckedAt === null ? NaN : Date.parse(input.terminalCheckedAt);
  const ageHours = Number.isNaN(checked) ? null : Math.max(0, Math.floor((now - checked) / HOUR));
  const stale = ageHours === null || ageHours >= staleHours;
  const at = { ageHours, stale };
  if (doneStatuses.has(input.status)) return { ...at, state: 'done', reasons: [] };
  const away = notThere[input.status];
  if (away) return { ...at, state: 'not_ready', reasons: [away] };
  if (stale) return { ...at, state: 'unknown', reasons: [] };
  const reasons: string[] = [];
  if (input.availableForPickup === false) reasons.push('Not released by the terminal');
  if (input.availableForPickup === null) reasons.push('The terminal does not say whether it is available');
  for (const hold of inForce(input.holds)) reasons.push(`${holdLabel(hold.name)} hold`);
  for (const hold of inForce(input.facilityHolds)) reasons.push(`${holdLabel(hold.name)} hold at the inland facility`);
  if (input.feesTotal !== null && input.feesTotal > 0)
    reasons.push(`${formatFees(input.feesTotal)} in terminal fees to pay`);
  return { ...at, state: reasons.length === 0 ? 'ready' : 'not_ready', reasons };
}

/** The state alone, as `pickupTruth(input, now, staleHours).state` answers it. */
export function pickupState(
  input: PickupStateInput,
  now: number,
  staleHours = DEFAULT_TERMINAL_STALE_HOURS,
): PickupState {
  return judge(input, now, staleHours).state;
}

/** Calendar days from today (the local date of `now` in `zone`) to `date`. */
function daysBetween(date: string, zone: string, now: number): number {
  const today = localDate(now, zone);
  return Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}

/** The pickup answer for one container at `now`, data older than `staleHours` counting as stale. */
export function pickupTruth(input: PickupInput, now: number, staleHours = DEFAULT_TERMINAL_STALE_HOURS): PickupTruth {
  const zoneOf = (candidate: string | null): string =>
    isTimeZone(candidate) ? candidate : isTimeZone(input.podTimezone) ? input.podTimezone : 'UTC';
  const lastFreeDay =
    input.lastFreeDay !== null
      ? { date: input.lastFreeDay, source: input.lfdSource ?? 'terminal', zone: zoneOf(input.lfdTimezone) }
      : input.lineLastFreeDay !== null
        ? { date: input.lineLastFreeDay, source: 'line' as const, zone: zoneOf(input.lfdTimezone) }
        : null;
  const daysLeft = lastFreeDay ? daysBetween(lastFreeDay.date, lastFreeDay.zone, now) : null;

  const { state, reasons, ageHours, stale } = judge(input, now, staleHours);
  const staleNote =
    ageHours === null
      ? 'The terminal has not been checked for this box — availability and holds are unknown'
      : stale
        ? `Terminal last checked ${formatAge(ageHours)} ago — availability may have changed`
        : null;
  const base = {
    state,
    reasons,
    lastFreeDay,
    daysLeft,
    checkedAt: ageHours === null ? null : input.terminalCheckedAt,
    ageHours,
    stale,
  };
  const urgency: Urgency | null =
    daysLeft === null
      ? null
      : daysLeft < 0
        ? 'overdue'
        : daysLeft === 0
          ? 'today'
          : daysLeft <= SOON_DAYS
            ? 'soon'
            : null;

  switch (state) {
    case 'done':
      return { ...base, headline: 'Picked up', urgency: null, staleNote: null };
    case 'unknown':
      return {
        ...base,
        headline:
          ageHours === null
            ? 'Can’t tell: the terminal has not been checked'
            : `Can’t tell: terminal data ${formatAge(ageHours)} old`,
        urgency: null,
        staleNote,
      };
    case 'ready':
      return { ...base, headline: 'Ready for pickup', urgency, staleNote };
    case 'not_ready':
      // Not at the terminal yet: the answer does not rest on a terminal check, nor does a stale one matter.
      return notThere[input.status]
        ? { ...base, headline: `Not ready: ${reasons[0]}`, urgency: null, staleNote: null }
        : { ...base, headline: `Not ready: ${reasons.join('; ')}`, urgency, staleNote };
  }
}

/** The urgency in words for a badge: "Overdue 2 days", "Last day today", "2 days left". */
export function urgencyText(truth: PickupTruth): string | null {
  if (truth.urgency === null || truth.daysLeft === null) return null;
  if (truth.urgency === 'overdue') {
    const days = -truth.daysLeft;
    return `Overdue ${days} day${days === 1 ? '' : 's'}`;
  }
  if (truth.urgency === 'today') return 'Last day today';
  return `${truth.daysLeft} day${truth.daysLeft === 1 ? '' : 's'} left`;
}
