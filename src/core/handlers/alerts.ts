/**
 * Alerts over IPC: one sync's alerts (what its desktop notification opens),
 * those raised since an instant, every one kept, or by default the newest sync's that raised any,
 * with the syncs that raised alerts lately to pick from.
 */
import type { Handlers } from '../../shared/ipc';
import { knownAlerts } from '../alerts/raise-alerts';
import { alertRuns, listAlerts } from '../store/queries/alerts';
import type { CoreContext } from './context';

export function alertHandlers(ctx: CoreContext): Pick<Handlers, 'alerts:list'> {
  return {
    'alerts:list': async ({ runId, since, all, rules, limit }) => {
      const { db } = await ctx.session();
      const utc = since === undefined ? undefined : new Date(Date.parse(since)).toISOString();
      const runs = alertRuns(db, 20);
      if (runId === undefined && since === undefined && !all) {
        // The newest sync that raised any (the Alerts view's "latest sync"), in the same call.
        const latest = runs[0];
        return { alerts: latest ? knownAlerts(listAlerts(db, { runId: latest.runId, rules, limit })) : [], runs };
      }
      return { alerts: knownAlerts(listAlerts(db, { runId, since: utc, rules, limit })), runs };
    },
  };
}
