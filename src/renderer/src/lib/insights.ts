/**
 * The Insights view's helpers (InsightsView.svelte): the range presets as days, figures in the
 * words and units that read best (a slip in hours or days, a share in percent), the list behind
 * each bar as a link, and the reads (the table shown first alone, then every table with its
 * months; only the newest request's answers land).
 */
import { addDays, resolveDays } from '../../../shared/date-filters';
import type {
  ArrivalGroup,
  DwellGroup,
  InsightsRequest,
  InsightsResult,
  InsightsTable,
} from '../../../shared/insights';
import { localDate } from '../../../shared/zoned-time';
import { messageOf } from './errors';
import { hrefOf } from './router.svelte';

export const rangePresets = ['last30', 'last90', 'last365', 'thisYear', 'custom'] as const;
export type RangePreset = (typeof rangePresets)[number];
export const rangePresetLabels: Record<RangePreset, string> = {
  last30: 'Last 30 days',
  last90: 'Last 90 days',
  last365: 'Last 365 days',
  thisYear: 'This year',
  custom: 'Custom days',
};

export interface DaySpan {
  from: string;
  to: string;
}

/** The arrival days a preset covers at `now` in `zone`'s calendar, both included ("last 30 days" as the lists count it). */
export function spanOf(preset: Exclude<RangePreset, 'custom'>, now: number, zone: string): DaySpan {
  if (preset === 'thisYear') {
    const today = localDate(now, zone);
    return { from: `${today.slice(0, 4)}-01-01`, to: today };
  }
  const days = resolveDays({ last: preset === 'last30' ? 30 : preset === 'last90' ? 90 : 365 }, now, zone).days!;
  return { from: days.first!, to: days.last! };
}

export const tableLabels: Record<InsightsTable, string> = {
  carriers: 'Carriers',
  lanes: 'Lanes',
  carrierLanes: 'Carrier × lane',
  terminals: 'Terminals',
};

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
export const shipmentsText = (n: number) => plural(n, 'shipment');
export const boxesText = (n: number) => plural(n, 'box', 'boxes');

/** 0.834 → "83%"; null → "–". */
export const shareText = (share: number | null) => (share === null ? '–' : `${Math.round(share * 100)}%`);

/**
 * An arrival slip against the first ETA as it reads best: hours under two days ("+5.2 h",
 * "−3 h"), days from there ("+3.4 d"); late is positive.
 */
export function slipText(hours: number | null): string {
  if (hours === null) return '–';
  const sign = hours > 0 ? '+' : hours < 0 ? '−' : '';
  const size = Math.abs(hours);
  if (size < 48) return `${sign}${trim(size, 1)} h`;
  return `${sign}${trim(size / 24, 1)} d`;
}

/** Days with one decimal where it says something ("2.5 d", "3 d"). */
export const daysText = (days: number | null) => (days === null ? '–' : `${trim(days, 1)} d`);

function trim(value: number, places: number): string {
  const rounded = Math.round(value * 10 ** places) / 10 ** places;
  return rounded.toLocaleString('en-US', { maximumFractionDigits: places });
}

/** The group's name as a forwarder reads it: the carrier's name, "Shanghai → Rotterdam", both. */
export function arrivalName(g: ArrivalGroup): string {
  const carrier = g.carrier ? (g.carrierName ?? g.carrier) : 'Carrier not known';
  const port = (code: string | null, name: string | null) => (code ? (name ?? code) : 'not known');
  const lane = `${port(g.pol, g.polName)} → ${port(g.pod, g.podName)}`;
  return g.dimension === 'carrier' ? carrier : g.dimension === 'lane' ? lane : `${carrier}: ${lane}`;
}

/** The codes beside the name (SCAC, UN/LOCODEs), when they say more than it. */
export function arrivalCodes(g: ArrivalGroup): string {
  const lane = `${g.pol ?? '?'} → ${g.pod ?? '?'}`;
  return g.dimension === 'carrier' ? (g.carrier ?? '') : g.dimension === 'lane' ? lane : `${g.carrier ?? '?'} ${lane}`;
}

export function dwellName(g: DwellGroup): string {
  const name = g.key ? (g.name ?? g.key) : 'Terminal not known';
  return g.kind === 'rail' ? `${name} (rail)` : name;
}

/** Calendar days of a month (YYYY-MM) within the asked span. */
export function monthSpan(month: string, span: { from: string | null; to: string | null }): DaySpan {
  const first = `${month}-01`;
  const last = addDays(`${nextMonth(month)}-01`, -1);
  return {
    from: span.from && span.from > first ? span.from : first,
    to: span.to && span.to < last ? span.to : last,
  };
}

function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/** The days an answer covers (or a month of them), as the lists' arrival filter takes them. */
function ataDays(result: InsightsResult, month: string | null): { from: string; to?: string } {
  if (month) return monthSpan(month, result);
  return { from: result.from ?? '2000-01-01', ...(result.to ? { to: result.to } : {}) };
}

const customer = (result: InsightsResult) => (result.customer ? { customers: [result.customer] } : {});

/**
 * The shipments behind an arrival group (its carrier, lane or both, arrived on the range's days or
 * the month's): null where a part is not known, which no list filter can name.
 */
export function arrivalHref(g: ArrivalGroup, result: InsightsResult): string | null {
  const carrier = g.dimension !== 'lane';
  const lane = g.dimension !== 'carrier';
  if ((carrier && !g.carrier) || (lane && (!g.pol || !g.pod))) return null;
  const filters = {
    ...(carrier ? { carriers: [g.carrier!] } : {}),
    ...(lane ? { portsOfLading: [g.pol!], portsOfDischarge: [g.pod!] } : {}),
    ...customer(result),
    ataDays: ataDays(result, g.month),
  };
  return hrefOf('shipments', null, { filters: JSON.stringify(filters), sort: 'ata:desc' });
}

/**
 * The containers behind a terminal group (by the terminal, of the shipments arrived on the days):
 * null for a rail terminal or one not known, which the containers list cannot filter by.
 */
export function dwellHref(g: DwellGroup, result: InsightsResult): string | null {
  if (g.kind === 'rail' || !g.key) return null;
  const filters = { terminals: [g.key], ...customer(result), ataDays: ataDays(result, g.month) };
  return hrefOf('containers', null, { filters: JSON.stringify(filters) });
}

/** Why a figure left a group's records out, in words. */
export const unknownWhy = {
  onTime: 'no first ETA',
  etaMoves: 'departed before the change history starts',
  dischargeToAvailable: 'no discharge or availability recorded',
  availableToPickedUp: 'no availability or pickup recorded',
  dischargeToPickedUp: 'no discharge or pickup recorded',
  pickedUpToEmptyReturned: 'no pickup or empty return recorded',
  pickedUpAfterLfd: 'no pickup or last free day recorded',
} as const;

/** "12 not known: no discharge recorded"; '' when none. */
export const unknownText = (unknown: number, why: keyof typeof unknownWhy) =>
  unknown > 0 ? `${unknown.toLocaleString('en-US')} not known: ${unknownWhy[why]}` : '';

/** A group under the minimum, in words. */
export const smallText = (minimum: number) => `fewer than ${minimum}: not ranked`;
/** A group large enough whose ranked figure is known for too few of its boxes or shipments. */
export const thinText = (minimum: number) => `figure known for fewer than ${minimum}: not ranked`;

/** Ranked groups first (by rank), then the others by size: the order of the tables and the bars. */
export function ordered<G extends { rank: number | null }>(groups: G[], size: (g: G) => number): G[] {
  return [...groups].sort(
    (a, b) => (a.rank ?? Number.MAX_SAFE_INTEGER) - (b.rank ?? Number.MAX_SAFE_INTEGER) || size(b) - size(a),
  );
}

/**
 * The view's reads: the table shown first alone, without months (its figures at once), then
 * every table with its months. A newer request ends the older: none of its answers land after.
 */
export function insightsReader(
  invoke: (request: InsightsRequest) => Promise<InsightsResult>,
  show: (result: InsightsResult, complete: boolean) => void,
  fail: (message: string) => void,
) {
  let asked = 0;
  return async (request: InsightsRequest, first: InsightsTable): Promise<void> => {
    const mine = ++asked;
    try {
      const quick = await invoke({ ...request, tables: [first], months: false });
      if (mine !== asked) return;
      show(quick, false);
      const full = await invoke({ ...request, months: true });
      if (mine !== asked) return;
      show(full, true);
    } catch (failure) {
      if (mine === asked) fail(messageOf(failure));
    }
  };
}
