/**
 * `insights`: carrier, lane and terminal figures from the account's own history, offline, as the
 * app's Insights view computes them (src/core/insights). Arrivals in the days given, read in the
 * computer's zone (or --zone); one table per `--by`.
 */
import { byRank, flatArrival, flatDwell, type FlatRow } from '../../core/insights/flat';
import { computeInsights } from '../../core/insights/insights';
import { computerTimeZone, isTimeZone } from '../../shared/date-formatters';
import { insightsDimensions, type InsightsDimension, type InsightsTable } from '../../shared/insights';
import { withReadableDatabase } from '../database-files';
import { exitCodes } from '../exit-codes';
import { UsageError, parseCommandLine, type CommandIo } from '../io';
import { chunked, plain, writeTable } from '../text-output';

export const insightsUsage = `insights --db PATH [--from DAY] [--to DAY] [--customer NAME] [--by carrier|lane|carrier-lane|terminal]
                     [--zone ZONE] [--min N] [--json]
                      Reliability of arrivals (on time: within a day of the first ETA; slip p50/p90;
                      ETA moves) per carrier, lane or carrier on a lane, or dwell per terminal and
                      rail terminal (days p50/p90, picked up after the last free day), for the
                      shipments arrived from --from to --to (days, both included, in --zone, default
                      this computer's). Each figure with its count; groups under --min (5) are small.`;

function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}

function dayOf(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (!isCalendarDay(text)) throw new UsageError(`--${flag} must be a day such as 2026-05-01; "${value}" is not one.`);
  return text;
}

interface Parsed {
  db: string;
  from?: string;
  to?: string;
  customer?: string;
  by: InsightsDimension;
  zone: string;
  minimum?: number;
  json: boolean;
}

function parse(args: string[]): Parsed {
  const { values } = parseCommandLine({
    args,
    strict: true,
    options: {
      db: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      customer: { type: 'string' },
      by: { type: 'string' },
      zone: { type: 'string' },
      min: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  if (!values.db) throw new UsageError('insights needs --db PATH.');
  const by = values.by ?? 'carrier';
  if (!(insightsDimensions as readonly string[]).includes(by)) {
    throw new UsageError(`--by takes ${insightsDimensions.join(', ')}; "${by}" is none of them.`);
  }
  const from = dayOf(values.from, 'from');
  const to = dayOf(values.to, 'to');
  if (from !== undefined && to !== undefined && from > to) {
    throw new UsageError(`--from ${from} is after --to ${to}: give the first day first.`);
  }
  const zone = values.zone ?? computerTimeZone();
  if (!isTimeZone(zone)) {
    throw new UsageError(`--zone must be a time zone such as Europe/Amsterdam; "${values.zone}" is not one.`);
  }
  let minimum: number | undefined;
  if (values.min !== undefined) {
    minimum = /^\d{1,4}$/.test(values.min.trim()) ? Number(values.min.trim()) : NaN;
    if (!(minimum >= 1 && minimum <= 1000)) {
      throw new UsageError(`--min takes a whole number from 1 to 1000; "${values.min}" is not one.`);
    }
  }
  const customer = values.customer?.trim();
  if (values.customer !== undefined && (!customer || customer.length > 200)) {
    throw new UsageError('--customer takes a customer’s name, 1 to 200 characters.');
  }
  return { db: values.db, from, to, customer, by: by as InsightsDimension, zone, minimum, json: values.json ?? false };
}

const tableAsked: Record<InsightsDimension, InsightsTable> = {
  carrier: 'carriers',
  lane: 'lanes',
  'carrier-lane': 'carrierLanes',
  terminal: 'terminals',
};

const text = (v: number | null, suffix = '') => (v === null ? '—' : `${v}${suffix}`);
const percent = (v: number | null) => (v === null ? '—' : `${Math.round(v * 100)}%`);

function tableOf(by: InsightsDimension, rows: FlatRow[]): { head: string[]; rows: string[][] } {
  const n = (row: FlatRow, key: string) => row[key] as number | null;
  const mark = (row: FlatRow) => (row.small ? ' (small)' : '');
  if (by === 'terminal') {
    return {
      head: [
        '#',
        'Terminal',
        'Kind',
        'Boxes',
        'Disch→avail p50/p90 d',
        'Avail→pickup',
        'Disch→pickup',
        'Pickup→empty',
        'After LFD',
      ],
      rows: rows.map((r) => [
        text(n(r, 'rank')),
        plain(`${(r.name as string | null) ?? (r.key || 'Not known')}${mark(r)}`),
        String(r.kind),
        String(r.containers),
        ...[
          'discharge_to_available',
          'available_to_picked_up',
          'discharge_to_picked_up',
          'picked_up_to_empty_returned',
        ].map((m) => `${text(n(r, `${m}_days_p50`))}/${text(n(r, `${m}_days_p90`))} (${n(r, `${m}_count`)})`),
        `${percent(n(r, 'picked_up_after_lfd_share'))} of ${n(r, 'picked_up_after_lfd_count')}`,
      ]),
    };
  }
  return {
    head: [
      '#',
      by === 'carrier' ? 'Carrier' : by === 'lane' ? 'Lane' : 'Carrier, lane',
      'Arrived',
      'On time',
      'Slip p50/p90 h',
      'ETA moves',
    ],
    rows: rows.map((r) => [
      text(n(r, 'rank')),
      plain(`${(r.key as string) || 'Not known'}${mark(r)}`),
      String(r.shipments),
      `${percent(n(r, 'on_time_share'))} of ${n(r, 'on_time_count')}`,
      `${text(n(r, 'slip_hours_p50'))}/${text(n(r, 'slip_hours_p90'))}`,
      n(r, 'eta_moves_count') === 0
        ? 'not covered'
        : `${text(n(r, 'eta_moves_mean'))} avg of ${n(r, 'eta_moves_count')}`,
    ]),
  };
}

export function runInsights(args: string[], io: CommandIo): Promise<number> {
  return Promise.resolve(printInsights(args, io));
}

function printInsights(args: string[], io: CommandIo): number {
  const asked = parse(args);
  return withReadableDatabase({ file: asked.db, io, missingAdvice: 'run sync first' }, ({ db }) => {
    const result = computeInsights(db, {
      from: asked.from,
      to: asked.to,
      customer: asked.customer,
      zone: asked.zone,
      minimum: asked.minimum,
      months: false,
      tables: [tableAsked[asked.by]],
    });
    const groups =
      asked.by === 'terminal'
        ? byRank(result.terminals, (g) => g.containers).map(flatDwell)
        : byRank(
            asked.by === 'carrier' ? result.carriers : asked.by === 'lane' ? result.lanes : result.carrierLanes,
            (g) => g.shipments,
          ).map(flatArrival);
    const out = chunked(io.out);
    if (asked.json) {
      out.write(
        `${JSON.stringify({
          by: asked.by,
          zone: result.zone,
          from: result.from,
          to: result.to,
          customer: result.customer,
          minimum: result.minimum,
          history_from: result.historyFrom,
          groups,
        })}\n`,
      );
      out.end();
      return exitCodes.ok;
    }
    if (groups.length === 0) {
      io.out.write('No shipments arrived in that range.\n');
      return exitCodes.ok;
    }
    const table = tableOf(asked.by, groups);
    writeTable(out, table.head, table.rows);
    const range = `${result.from ?? 'the first arrival'} to ${result.to ?? 'the last'} (${result.zone})`;
    out.write(
      `${groups.length} group${groups.length === 1 ? '' : 's'}, arrivals from ${range}${result.customer ? ` for ${plain(result.customer)}` : ''}. ` +
        `Groups under ${result.minimum} are small and not ranked.\n`,
    );
    out.end();
    return exitCodes.ok;
  });
}
