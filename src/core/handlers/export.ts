import { splitsByCustomer } from '../../shared/export-per-customer';
import type { Handlers } from '../../shared/ipc';
import { listNameOf } from '../../shared/list-views';
import { QuaysideError } from '../errors';
import { exportEvents } from '../export/export-events';
import { startExportAside } from '../export/export-aside';
import { getContainerRow } from '../store/queries/containers';
import type { CoreContext } from './context';

/** Export of exactly what a list shows, to a file the user picks (main shows the save dialog). */
export function exportHandlers(
  ctx: CoreContext,
): Pick<Handlers, 'export:list' | 'export:perCustomer' | 'export:events'> {
  return {
    'export:list': async (request) => {
      const format = request.format ?? 'csv';
      const suggested = `quayside-${request.view}-${new Date().toISOString().slice(0, 10)}.${format}`;
      const session = await ctx.session();
      // In a worker thread of its own where one can run, started now so its code loads while the
      // save dialog is open: the window's loop only relays progress.
      const aside = startExportAside(session.db, { log: ctx.log });
      let path: string | null = null;
      try {
        path = (await ctx.options.chooseExportPath?.(suggested)) ?? null;
      } finally {
        if (!path) aside.cancel();
      }
      if (!path) return { path: null, rows: 0, cancelled: true };
      const result = await aside.run(path, {
        view: request.view,
        filters: request.filters,
        sort: request.sort,
        columns: request.columns,
        headerStyle: request.headerStyle,
        format,
        pickup: { now: ctx.options.now?.(), staleHours: ctx.settings.get().terminalStaleHours },
        onProgress: (rows) => ctx.events.emit('export:progress', { rows }),
      });
      return { path: result.path, rows: result.rows, cancelled: false };
    },
    // The same rows as one file per customer, into a folder the user picks, by one worker.
    'export:perCustomer': async (request) => {
      const list = listNameOf(request.view);
      if (list === undefined || !splitsByCustomer(list)) {
        throw new QuaysideError('invalid_argument', 'This list names no customer to make one file per customer by.');
      }
      const format = request.format ?? 'csv';
      const session = await ctx.session();
      const aside = startExportAside(session.db, { log: ctx.log, workers: 1 });
      let folder: string | null = null;
      try {
        folder = (await ctx.options.chooseExportFolder?.(format)) ?? null;
      } finally {
        if (!folder) aside.cancel();
      }
      if (!folder) return { folder: null, files: [], rows: 0, kept: 0, cancelled: true };
      const result = await aside.runPerCustomer(folder, {
        view: request.view,
        filters: request.filters,
        sort: request.sort,
        columns: request.columns,
        headerStyle: request.headerStyle,
        format,
        pickup: { now: ctx.options.now?.(), staleHours: ctx.settings.get().terminalStaleHours },
        onProgress: (rows) => ctx.events.emit('export:progress', { rows }),
      });
      return { ...result, cancelled: false };
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
