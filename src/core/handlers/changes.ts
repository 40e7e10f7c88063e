/**
 * The change history over IPC: pages and counts of the changes a period and filters pick, as
 * events (an ETA cleared by its arrival is told by the arrival's row), one record's changes as
 * recorded (its page tells them together), "mark as looked" (kept in the account's database) and
 * the CSV export of what the Changes view shows.
 */
import { DEFAULT_CHANGE_RETENTION_DAYS, type ChangeRow } from '../../shared/changes';
import type { Handlers } from '../../shared/ipc';
import { exportChanges } from '../export/export-changes';
import { resolveChangeQuery, toChangeRow } from '../history/change-history';
import {
  changesLookedAt,
  changesOfRecord,
  countChanges,
  listChanges,
  markChangesLooked,
} from '../store/queries/changes';
import type { CoreContext } from './context';

const known = (rows: (ChangeRow | null)[]): ChangeRow[] => rows.filter((r): r is ChangeRow => r !== null);

export function changeHandlers(
  ctx: CoreContext,
): Pick<Handlers, 'changes:list' | 'changes:count' | 'changes:forRecord' | 'changes:markLooked' | 'export:changes'> {
  return {
    'changes:list': async ({ filters, order, page }) => {
      const { db } = await ctx.session();
      const found = listChanges(db, { ...resolveChangeQuery(db, filters, new Date()), asEvents: true }, order, page);
      return { rows: known(found.rows.map(toChangeRow)), next: found.next };
    },
    'changes:count': async ({ filters }) => {
      const { db } = await ctx.session();
      const query = resolveChangeQuery(db, filters, new Date());
      return {
        count: countChanges(db, { ...query, asEvents: true }),
        from: query.from,
        to: query.to,
        lookedAt: changesLookedAt(db),
        retentionDays: ctx.settings.get().changeRetentionDays ?? DEFAULT_CHANGE_RETENTION_DAYS,
      };
    },
    'changes:forRecord': async ({ id, fields }) => {
      const { db } = await ctx.session();
      return known(changesOfRecord(db, id, fields).map(toChangeRow));
    },
    'changes:markLooked': async () => {
      const { db } = await ctx.session();
      const lookedAt = new Date().toISOString();
      markChangesLooked(db, lookedAt);
      ctx.events.emit('data:changed');
      return { lookedAt };
    },
    'export:changes': async ({ filters }) => {
      const suggested = `quayside-changes-${new Date().toISOString().slice(0, 10)}.csv`;
      const path = (await ctx.options.chooseExportPath?.(suggested)) ?? null;
      if (!path) return { path: null, rows: 0, cancelled: true };
      const { db } = await ctx.session();
      const result = await exportChanges(db, path, {
        filters,
        onProgress: (rows) => ctx.events.emit('export:progress', { rows }),
      });
      return { path: result.path, rows: result.rows, cancelled: false };
    },
  };
}
