/**
 * Insights over IPC: `insights:get` computes the figures in the session's reads (a worker thread
 * where one serves: a large account's query does not hold up the window), with the rates and
 * change-history retention from Settings; `insights:export` writes one of its tables where the
 * user picks.
 */
import type { Handlers } from '../../shared/ipc';
import type { InsightsRequest, InsightsResult } from '../../shared/insights';
import type { CoreContext } from '../handlers/context';
import { exportInsightsTable } from './export';
import type { InsightsOptions } from './insights';

export function insightsHandlers(ctx: CoreContext): Pick<Handlers, 'insights:get' | 'insights:export'> {
  const read = async (request: InsightsRequest): Promise<InsightsResult> => {
    const settings = ctx.settings.get();
    const options: InsightsOptions = {
      rates: settings.rates,
      retentionDays: settings.changeRetentionDays,
      now: ctx.options.now?.() ?? Date.now(),
    };
    return (await ctx.session()).reads.run<InsightsResult>({ op: 'insights', request, options });
  };
  return {
    'insights:get': (request) => read(request ?? {}),
    'insights:export': async ({ request, table, byMonth, format = 'csv' }) => {
      const result = await read({ ...request, months: byMonth ?? false, tables: [table] });
      const suggested = `quayside-insights-${table}${byMonth ? '-by-month' : ''}-${new Date().toISOString().slice(0, 10)}.${format}`;
      const path = (await ctx.options.chooseExportPath?.(suggested)) ?? null;
      if (!path) return { path: null, rows: 0, cancelled: true };
      const written = await exportInsightsTable(result, path, { table, byMonth, format });
      return { path: written.path, rows: written.rows, cancelled: false };
    },
  };
}
