import { alertRuleLabels, type AlertRow } from '../../shared/alerts';
import { knownAlerts } from '../../core/alerts/raise-alerts';
import { listAlerts } from '../../core/store/queries/alerts';
import { withReadableDatabase } from '../database-files';
import { exitCodes } from '../exit-codes';
import { UsageError, type CommandIo, parseCommandLine } from '../io';
import { chunked, plain, writeTable } from '../text-output';
import { sinceOf } from './changes';

export const alertsUsage = `alerts --db PATH [--since ISO] [--run N] [--json]
                      The alerts the syncs raised under the rules in Settings (last free day coming and
                      not picked up, available for pickup, holds put on or released, ETA slipped,
                      tracking request failed), oldest first. --run: one sync's (its number in the
                      sync log); --since as for changes.`;

/** One alert as scripts read it: the contract of `alerts --json`. */
function jsonOf(a: AlertRow): Record<string, unknown> {
  return {
    rule: a.rule,
    resource: a.resource,
    number: a.number,
    detail: a.detail,
    raised_at: a.raisedAt,
    run_id: a.runId,
    record_id: a.recordId,
  };
}

export function runAlerts(args: string[], io: CommandIo): Promise<number> {
  return Promise.resolve(printAlerts(args, io));
}

function printAlerts(args: string[], io: CommandIo): number {
  const values = parseCommandLine({
    args,
    strict: true,
    options: {
      db: { type: 'string' },
      since: { type: 'string' },
      run: { type: 'string' },
      json: { type: 'boolean' },
    },
  }).values;
  if (!values.db) throw new UsageError('alerts needs --db PATH');
  const since = sinceOf(values.since) ?? undefined;
  let runId: number | undefined;
  if (values.run !== undefined) {
    runId = Number(values.run);
    if (!/^\d+$/.test(values.run.trim()) || !Number.isSafeInteger(runId) || runId <= 0)
      throw new UsageError(`--run must be a sync's number, such as 12; "${values.run}" is not.`);
  }
  return withReadableDatabase({ file: values.db, io, missingAdvice: 'run sync first' }, ({ db }) => {
    const alerts = knownAlerts(listAlerts(db, { runId, since, limit: Number.MAX_SAFE_INTEGER, order: 'oldest' }));
    // In chunks, quiet when the reader goes away (`alerts | head`).
    const out = chunked(io.out);
    if (values.json) {
      out.write('{"alerts":[');
      alerts.forEach((a, i) => out.write(`${i === 0 ? '' : ','}${JSON.stringify(jsonOf(a))}`));
      out.write(']}\n');
      out.end();
      return exitCodes.ok;
    }
    if (alerts.length === 0) {
      io.out.write(
        runId ? `Sync ${runId} raised no alerts.\n` : since ? `No alerts since ${since}.\n` : 'No alerts yet.\n',
      );
      return exitCodes.ok;
    }
    const rows = alerts.map((a) =>
      [a.raisedAt.slice(0, 16).replace('T', ' '), alertRuleLabels[a.rule], a.number ?? a.recordId, a.detail].map(plain),
    );
    writeTable(out, ['Raised (UTC)', 'Alert', 'Number', 'What'], rows);
    out.write(`${rows.length} alert${rows.length === 1 ? '' : 's'}.\n`);
    out.end();
    return exitCodes.ok;
  });
}
