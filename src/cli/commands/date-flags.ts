/**
 * `export`'s relative date flags: `--lfd-within 5` (last free day today to 5 days on),
 * `--overdue` alone (as `--overdue true`), `--eta-within 5` and `--late` (ETA passed, not
 * arrived). Given as days from today, they stay so: a cron job run next Monday exports next
 * Monday's boxes. With `--lfd-within`, `--overdue` adds the overdue boxes (the forwarder's
 * "due in 5 days or overdue"); `--late` likewise beside `--eta-within`.
 */
import type { ListName } from '../../shared/list-views';
import { MAX_DAY_COUNT } from '../../shared/date-filters';
import { UsageError } from '../io';

export const dateFlagsUsage = `--lfd-within DAYS  last free day today to DAYS days on; with --overdue (alone: --overdue true) or overdue
    --eta-within DAYS  arriving today to DAYS days on  --late  ETA passed, not arrived (with --eta-within: or late)`;

/** The flags' `parseArgs` options (`--overdue` stays the export's own, a string). */
export const dateFlagOptions = {
  'lfd-within': { type: 'string' },
  'eta-within': { type: 'string' },
  late: { type: 'boolean' },
} as const;

/** The arguments with `--overdue` given alone read as `--overdue true`, as before when given a value. */
export function withBareOverdue(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const [i, arg] of args.entries()) {
    out.push(arg);
    if (arg === '--overdue' && args[i + 1] !== 'true' && args[i + 1] !== 'false') out.push('true');
  }
  return out;
}

function dayCount(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  const n = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1 && n <= MAX_DAY_COUNT)) {
    throw new UsageError(
      `--${flag} takes a whole number of days from 1 to ${MAX_DAY_COUNT}, such as 5; "${value}" is not one.`,
    );
  }
  return n;
}

interface DateFlagValues {
  'lfd-within'?: string;
  'eta-within'?: string;
  late?: boolean;
  overdue?: string;
}

/**
 * The filters the flags give `list` (to assign over the others: `overdue` goes into the last
 * free day's filter when both are given), or a usage error for a list without that date.
 */
export function dateFlagFilters(values: DateFlagValues, list: ListName, view: string): Record<string, unknown> {
  const lfd = dayCount(values['lfd-within'], 'lfd-within');
  const eta = dayCount(values['eta-within'], 'eta-within');
  const late = values.late === true;
  const out: Record<string, unknown> = {};
  if (lfd !== undefined) {
    if (list !== 'containers') throw new UsageError(`${view} exports do not filter by last free day`);
    const overdue = values.overdue === 'true';
    out.lfdDays = overdue ? { next: lfd, overdue: true } : { next: lfd };
    if (overdue) out.overdue = undefined;
  }
  if (eta !== undefined || late) {
    if (list !== 'containers' && list !== 'shipments') throw new UsageError(`${view} exports do not filter by ETA`);
    out.etaDays = eta === undefined ? { preset: 'overdue' } : late ? { next: eta, overdue: true } : { next: eta };
  }
  return out;
}
