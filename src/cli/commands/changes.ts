import { changeLabel, changeValueText, toChangeRow } from '../../core/history/change-history';
import { iterateChanges } from '../../core/store/queries/changes';
import type { ChangeRow } from '../../shared/changes';
import { withReadableDatabase } from '../database-files';
import { exitCodes } from '../exit-codes';
import { UsageError, type CommandIo, parseCommandLine } from '../io';
import { chunked, plain, writeTable } from '../text-output';

export const changesUsage = `changes --db PATH [--since ISO] [--json]
                      What the syncs saw change, oldest first: ETA and ATA, status, last free days,
                      holds put on or released, availability, fees, terminal, vessel, tracking stopped,
                      each with its old and new value and when it was seen. --since: a date and time
                      with its zone (2026-05-01T08:00:00Z) or a day (2026-05-01, from midnight UTC).`;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** `--since` as a UTC instant, or a usage error in one sentence. */
export function sinceOf(value: string | undefined): string | null {
  if (value === undefined) return null;
  const text = value.trim();
  const ms = DAY.test(text) ? Date.parse(`${text}T00:00:00Z`) : DATE_TIME.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms) || !isCalendarDay(text.slice(0, 10))) {
    throw new UsageError(
      `--since must be a date and time with its zone, such as 2026-05-01T08:00:00Z, or a day such as 2026-05-01; "${value}" is neither.`,
    );
  }
  return new Date(ms).toISOString();
}

/** Whether YYYY-MM-DD is a day of the calendar (Date.parse rolls 2026-02-30 over to March 2). */
function isCalendarDay(day: string): boolean {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === day;
}

/** One change as scripts read it: the contract of `changes --json`. */
function jsonOf(c: ChangeRow): Record<string, unknown> {
  return {
    resource: c.resource,
    number: c.number,
    field: c.field,
    detail: c.detail,
    old: c.old,
    new: c.new,
    seen_at: c.seenAt,
    record_id: c.recordId,
  };
}

export function runChanges(args: string[], io: CommandIo): Promise<number> {
  return Promise.resolve(printChanges(args, io));
}

function printChanges(args: string[], io: CommandIo): number {
  const values = parseCommandLine({
    args,
    strict: true,
    options: { db: { type: 'string' }, since: { type: 'string' }, json: { type: 'boolean' } },
  }).values;
  if (!values.db) throw new UsageError('changes needs --db PATH');
  const since = sinceOf(values.since);
  return withReadableDatabase({ file: values.db, io, missingAdvice: 'run sync first' }, ({ db }) => {
    const changes = iterateChanges(db, { from: since, to: null }, 'oldest');
    const out = chunked(io.out);
    if (values.json) {
      out.write('{"changes":[');
      let first = true;
      for (const stored of changes) {
        if (out.gone) break;
        const change = toChangeRow(stored);
        if (!change) continue;
        out.write(`${first ? '' : ','}${JSON.stringify(jsonOf(change))}`);
        first = false;
      }
      out.write(']}\n');
      out.end();
      return exitCodes.ok;
    }
    const rows: string[][] = [];
    for (const stored of changes) {
      const c = toChangeRow(stored);
      if (!c) continue;
      rows.push(
        [
          c.seenAt.slice(0, 16).replace('T', ' '),
          c.resource,
          c.number ?? c.recordId,
          changeLabel(c.field, c.detail),
          `${changeValueText(c.field, c.old) || '—'} → ${changeValueText(c.field, c.new) || '—'}`,
        ].map(plain),
      );
    }
    if (rows.length === 0) {
      io.out.write(since ? `No changes seen since ${since}.\n` : 'No changes recorded yet.\n');
      return exitCodes.ok;
    }
    writeTable(out, ['Seen (UTC)', 'Record', 'Number', 'Change', 'Was → now'], rows);
    out.write(`${rows.length} change${rows.length === 1 ? '' : 's'}.\n`);
    out.end();
    return exitCodes.ok;
  });
}
