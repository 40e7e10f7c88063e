/**
 * Alerts over IPC (issue 16 item 3): one sync's alerts (what its desktop notification opens) or
 * those raised since an instant, with the syncs that raised alerts lately to pick from.
 */
import type { Handlers } from '../../shared/ipc';
import { knownAlerts } from '../alerts/raise-alerts';
import { alertRuns, listAlerts } from '../store/queries/alerts';
import type { CoreContext } from './context';

export function alertHandlers(ctx: CoreContext): Pick<Handlers, 'alerts:list'> {
  return {
    'alerts:list': async ({ runId, since, rules, limit }) => {
      const { db } = await ctx.session();
      const utc = since === undefined ? undefined : new Date(Date.parse(since)).toISOString();
      return {
        alerts: knownAlerts(listAlerts(db, { runId, since: utc, rules, limit })),
        runs: alertRuns(db, 20),
      };
    },
  };
}
