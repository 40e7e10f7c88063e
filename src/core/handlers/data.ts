import { rmSync, statSync } from 'node:fs';
import type { Handlers } from '../../shared/ipc';
import type { AppInfo, DataInfo } from '../../shared/types';
import { QuaysideError } from '../errors';
import type { CoreContext } from './context';

const DB_FILES = ['', '-wal', '-shm'];

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Where the active account's data lives, how big it is, and deleting it. */
export function dataHandlers(
  ctx: CoreContext,
  appInfo: () => AppInfo,
): Pick<Handlers, 'data:info' | 'data:deleteLocal' | 'app:diagnostics' | 'app:reportError'> {
  const info = async (): Promise<DataInfo> => {
    const session = await ctx.session();
    const path = ctx.profiles.databasePath(ctx.profiles.activeId);
    const count = (table: string) =>
      (session.db.prepare(`SELECT count(*) AS n FROM ${table} WHERE synced_at IS NOT NULL`).get() as { n: number }).n;
    return {
      path,
      bytes: sizeOf(path) + sizeOf(`${path}-wal`),
      shipments: count('shipments'),
      containers: count('containers'),
      trackingRequests: count('tracking_requests'),
    };
  };
  const diagnostics = async () => {
    const app = appInfo();
    const logs = ctx.logs();
    const lines: string[] = [
      `Quayside ${app.version} (${app.demo ? 'demo data' : 'live account'})`,
      `Generated ${new Date().toISOString()}`,
      `Platform ${process.platform} ${process.arch}; Node ${app.versions.node}; Electron ${app.versions.electron ?? '-'}; Chrome ${app.versions.chrome ?? '-'}`,
      `Data folder ${app.dataDir}`,
      `Log file ${logs.path ?? '(none)'}`,
    ];
    try {
      const data = await info();
      lines.push(
        `Database ${data.path}: ${data.bytes} bytes; ${data.shipments} shipments, ${data.containers} containers, ${data.trackingRequests} tracking requests`,
      );
      const session = await ctx.session();
      const status = session.status();
      lines.push(
        `Sync: ${status.state}, online ${status.online}, last synced ${status.lastSyncedAt ?? 'never'}${status.error ? `, error: ${status.error}` : ''}`,
      );
      lines.push('', 'Recent syncs:');
      for (const run of session.history(5)) {
        lines.push(
          `  #${run.id} ${run.kind} ${run.startedAt} → ${run.finishedAt ?? '…'} ${run.status}: ${run.requests} requests, ${run.rateLimited} rate limited${run.error ? `, ${run.error}` : ''}`,
        );
      }
    } catch (error) {
      lines.push(`The local database could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
    const state = await ctx.profilesState();
    lines.push(
      '',
      `Profiles: ${state.profiles.length}; showing ${state.activeId === null ? 'demo data' : 'a profile'}; keys kept in ${state.keyStorage.kind}`,
    );
    lines.push('', 'Recent errors:', ...(logs.recentErrors.length > 0 ? logs.recentErrors : ['  (none)']));
    return { text: logs.scrub(lines.join('\n')), logPath: logs.path };
  };

  return {
    'app:reportError': ({ message, stack, where }) => {
      ctx.log(
        `renderer error${where ? ` at ${where}` : ''}`,
        Object.assign(new Error(message), { stack: stack ?? '' }),
      );
      return { logged: true };
    },
    'app:diagnostics': diagnostics,
    'data:info': info,
    'data:deleteLocal': async () => {
      const session = await ctx.session();
      if (session.syncing)
        throw new QuaysideError('busy', 'A sync is running. Cancel it first, then delete the local data.');
      const path = ctx.profiles.databasePath(ctx.profiles.activeId);
      // The session closes its database first; the files go while nothing holds them.
      await ctx.switchSession(ctx.profiles.activeId, () => {
        for (const suffix of DB_FILES) rmSync(`${path}${suffix}`, { force: true });
      });
      ctx.log('local data deleted');
      return info();
    },
  };
}
