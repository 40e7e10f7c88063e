/**
 * A recorded change told as the event it is: "Arrived Nov 29, 10:52 AM", "Last free day set: Sat,
 * Dec 5, 2026 (terminal)", "Customs hold put on", "ETA moved 2.3 days later, to …", rather than
 * a field's old and new values. The Changes view tells one change a row; a record's page tells a
 * sync's changes together, where one event recorded as several changes is told once (an arrival
 * clears the ETA; a box picked up is no longer available; the terminal's and the line's last free
 * day set to the same day). The raw values stay in the CSV export.
 */
import { arrivalOf, type ChangeField, type ChangeRow, type ChangeValue } from '../../../shared/changes';
import { holdLabel } from '../../../shared/labels';
import { containerStatusLabels, type ContainerStatus } from '../../../shared/status';
import { formatMoney } from './format';

/** How the caller writes an instant (in the zone it shows dates in) and a calendar date. */
export interface EventFormats {
  instant: (iso: string, zone: string | null) => string;
  date: (day: string) => string;
}

type Change = Pick<ChangeRow, 'field' | 'detail' | 'old' | 'new' | 'zone'>;

/**
 * How far apart two instants are, in the words a slip or a move reads in: "2.3 days later",
 * "6 h earlier", or null under an hour. Days to one decimal, as the lists' ETA slip.
 */
export function shiftWords(hours: number): string | null {
  if (!Number.isFinite(hours) || Math.abs(hours) < 1) return null;
  const direction = hours > 0 ? 'later' : 'earlier';
  const size = Math.abs(hours);
  if (size < 24) return `${Math.round(size)} h ${direction}`;
  const days = Math.round((size / 24) * 10) / 10;
  return `${days} ${days === 1 ? 'day' : 'days'} ${direction}`;
}

/** Hours from one instant to another; NaN when either does not read as one. */
export function hoursBetween(from: string, to: string): number {
  return (Date.parse(to) - Date.parse(from)) / 3_600_000;
}

/** A slip against the service's first ETA: "4.9 days later than first said", "as first said". */
export function slipWords(hours: number): string {
  const shift = shiftWords(hours);
  return shift ? `${shift} than first said` : 'as first said';
}

const lfdSources: Partial<Record<ChangeField, string>> = {
  lfd_terminal: 'terminal',
  lfd_rail: 'rail ramp',
  lfd_line: 'shipping line',
};

function statusWords(value: ChangeValue): string {
  return value === null ? 'no status' : (containerStatusLabels[value as ContainerStatus] ?? String(value));
}

function money(value: ChangeValue): string {
  return typeof value === 'number' ? formatMoney(value) : String(value);
}

/** One change as an event, in a sentence. */
export function changeSentence(change: Change, f: EventFormats): string {
  const { field, old: was, new: now } = change;
  const at = (value: ChangeValue) => f.instant(String(value), change.zone);
  switch (field) {
    case 'eta':
    case 'destination_eta': {
      const what = field === 'eta' ? 'ETA' : 'ETA at destination';
      if (now === null) return `${what} no longer given${was === null ? '' : ` (was ${at(was)})`}`;
      if (was === null) return `${what} given: ${at(now)}`;
      const shift = shiftWords(hoursBetween(String(was), String(now)));
      return shift ? `${what} moved ${shift}, to ${at(now)}` : `${what} moved under an hour, to ${at(now)}`;
    }
    case 'ata':
    case 'destination_ata': {
      const where = field === 'ata' ? '' : ' at destination';
      if (now === null) return `Arrival${where} withdrawn by the carrier${was === null ? '' : ` (was ${at(was)})`}`;
      if (was === null) return `Arrived${where} ${at(now)}`;
      return `Arrival${where} corrected to ${at(now)} (was ${at(was)})`;
    }
    case 'status':
      return was === null ? statusWords(now) : `${statusWords(now)} (was ${statusWords(was)})`;
    case 'lfd_terminal':
    case 'lfd_rail':
    case 'lfd_line':
      return lfdSentence([lfdSources[field]!], was, now, f);
    case 'hold':
    case 'facility_hold': {
      const where = field === 'facility_hold' ? ' at the inland facility' : '';
      const type = holdLabel(change.detail ?? 'hold');
      return now === 'hold' ? `${type} hold put on${where}` : `${type} hold released${where}`;
    }
    case 'available':
      if (now === true) return 'Released for pickup by the terminal';
      if (now === false) return was === true ? 'No longer available for pickup' : 'Not available for pickup yet';
      return 'The terminal no longer says whether it is available';
    case 'fees':
      if (now === null) return `Fees no longer reported${was === null ? '' : ` (were ${money(was)})`}`;
      if (was === null) return `Fees reported: ${money(now)}`;
      return `Fees now ${money(now)} (were ${money(was)})`;
    case 'terminal':
    case 'vessel': {
      const noun = field === 'terminal' ? 'Terminal' : 'Vessel';
      if (now === null) return `${noun} no longer named${was === null ? '' : ` (was ${String(was)})`}`;
      if (was === null) return `${noun} named: ${String(now)}`;
      return `${noun} changed to ${String(now)} (was ${String(was)})`;
    }
    case 'tracking_stopped':
      return now === null ? 'Tracking resumed' : 'Tracking stopped';
  }
}

/** A last free day set, moved or withdrawn, for one or more sources that moved alike. */
function lfdSentence(sources: string[], was: ChangeValue, now: ChangeValue, f: EventFormats): string {
  const whose = sources.join(' and ');
  if (now === null) return `Last free day withdrawn (${whose}; was ${f.date(String(was))})`;
  if (was === null) return `Last free day set: ${f.date(String(now))} (${whose})`;
  return `Last free day moved to ${f.date(String(now))} (${whose}; was ${f.date(String(was))})`;
}

/** The order a sync's events are told in: where the box is first, then its dates, holds and money. */
const order: ChangeField[] = [
  'status',
  'ata',
  'destination_ata',
  'eta',
  'destination_eta',
  'lfd_terminal',
  'lfd_rail',
  'lfd_line',
  'hold',
  'facility_hold',
  'available',
  'fees',
  'terminal',
  'vessel',
  'tracking_stopped',
];

/** Statuses that already say the box is, or is not, available for pickup. */
const saysAvailable: Partial<Record<ContainerStatus, boolean>> = {
  available: true,
  discharged: false,
  picked_up: false,
  empty_returned: false,
};

/**
 * One sync's changes of one record (all seen at once) as its events, each event told once: an
 * ETA cleared by the arrival given with it is the arrival; an availability the new status
 * already says is left out; last free days of several sources set alike are one sentence.
 */
export function syncEvents(changes: readonly Change[], f: EventFormats): string[] {
  const given = new Set(changes.filter((c) => c.new !== null).map((c) => c.field));
  const status = changes.find((c) => c.field === 'status');
  const told = changes.filter((c) => {
    const arrival = arrivalOf[c.field];
    if (arrival && c.new === null && given.has(arrival)) return false;
    if (c.field === 'available' && status && saysAvailable[status.new as ContainerStatus] === c.new) return false;
    return true;
  });
  told.sort((a, b) => order.indexOf(a.field) - order.indexOf(b.field));
  type Lfd = { sources: string[]; was: ChangeValue; now: ChangeValue };
  const out: (string | Lfd)[] = [];
  const lfds = new Map<string, Lfd>();
  for (const c of told) {
    const source = lfdSources[c.field];
    if (!source) {
      out.push(changeSentence(c, f));
      continue;
    }
    const key = JSON.stringify([c.old, c.new]);
    const same = lfds.get(key);
    if (same) {
      same.sources.push(source);
    } else {
      // Its place in the list is kept; the sentence is written once every source has joined.
      const entry = { sources: [source], was: c.old, now: c.new };
      lfds.set(key, entry);
      out.push(entry);
    }
  }
  return out.map((line) => (typeof line === 'string' ? line : lfdSentence(line.sources, line.was, line.now, f)));
}
