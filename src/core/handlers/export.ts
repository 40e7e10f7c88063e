import type { Handlers } from '../../shared/ipc';
import { exportEvents } from '../export/export-events';
import { exportViewAside } from '../export/export-aside';
import { getContainerRow } from '../store/queries/containers';
import type { CoreContext } from './context';

/** Export of exactly what a list shows, to a file the user picks (main shows the save dialog). */
export function exportHandlers(ctx: CoreContext): Pick<Handlers, 'export:csv' | 'export:events'> {
  return {
    'export:csv': async (request) => {
      const format = request.format ?? 'csv';
      const suggested = `quayside-${request.view}-${new Date().toISOString().slice(0, 10)}.${format}`;
      const path = (await ctx.options.chooseExportPath?.(suggested)) ?? null;
      if (!path) return { path: null, rows: 0, cancelled: true };
      const session = await ctx.session();
      // In a worker thread of its own where one can run: the window's loop only relays progress.
      const result = await exportViewAside(
        session.db,
        path,
        {
          view: request.view,
          filters: request.filters,
          sort: request.sort,
          columns: request.columns,
          headerStyle: request.headerStyle,
          format,
          pickup: { now: ctx.options.now?.(), staleHours: ctx.settings.get().terminalStaleHours },
          onProgress: (rows) => ctx.events.emit('export:progress', { rows }),
        },
        { log: ctx.log },
      );
      return { path: result.path, rows: result.rows, cancelled: false };
    },
    // One container's transport events, withdrawn ones included (a column says so).
    'export:events': async ({ containerId }) => {
      const session = await ctx.session();
      // The number comes from the service: only its letters and digits go into a file name.
      const number =
        (getContainerRow(session.db, containerId)?.number ?? '').replace(/[^A-Za-z0-9]/g, '') || 'container';
      const suggested = `quayside-events-${number}-${new Date().toISOString().slice(0, 10)}.csv`;
      const path = (await ctx.options.chooseExportPath?.(suggested)) ?? null;
      if (!path) return { path: null, rows: 0, cancelled: true };
      const result = await exportEvents(session.db, path, {
        container: containerId,
        onProgress: (rows) => ctx.events.emit('export:progress', { rows }),
      });
      return { path: result.path, rows: result.rows, cancelled: false };
    },
  };
}
