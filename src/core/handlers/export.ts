import type { Handlers } from '../../shared/ipc';
import { exportView } from '../export/export-view';
import type { CoreContext } from './context';

/** Export of exactly what a list shows, to a file the user picks (main shows the save dialog). */
export function exportHandlers(ctx: CoreContext): Pick<Handlers, 'export:csv'> {
  return {
    'export:csv': async (request) => {
      const suggested = `quayside-${request.view}-${new Date().toISOString().slice(0, 10)}.csv`;
      const path = (await ctx.options.chooseExportPath?.(suggested)) ?? null;
      if (!path) return { path: null, rows: 0, cancelled: true };
      const session = await ctx.session();
      const result = await exportView(session.db, path, {
        view: request.view,
        filters: request.filters,
        sort: request.sort,
        columns: request.columns,
        headerStyle: request.headerStyle,
        onProgress: (rows) => ctx.events.emit('export:progress', { rows }),
      });
      return { path: result.path, rows: result.rows, cancelled: false };
    },
  };
}
