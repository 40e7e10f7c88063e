import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import type { Handlers } from '../../shared/ipc';
import type { AppInfo, DatabaseHealth, DatabaseProblem, DataInfo } from '../../shared/types';
import { QuaysideError } from '../errors';
import { isReadOnly } from '../store/database';
import { countSynced } from '../store/queries/counts';
import { DatabaseOpenError, readOnlyMessage } from '../store/store-errors';
import type { CoreContext } from './context';

const DB_FILES = ['', '-wal', '-shm'];

/** Whether moving a copy aside is the way on (see DatabaseHealth.moveAside). */
const moveAsideFor: Record<DatabaseProblem, DatabaseHealth['moveAside']> = {
  not_a_database: 'offer',
  no_access: 'offer',
  not_a_file: 'offer',
  newer_version: 'on_request',
  // Nothing to move, or a folder that refuses the rename as well.
  cannot_create: 'no',
  read_only_unusable: 'no',
};

/**
 * Renames the copy and its companions (`-wal`, `-shm`, `-journal`) to `<target><suffix>`, so
 * SQLite would still pair them if the copy were renamed back. Never deletes, never overwrites.
 */
function moveAside(path: string, target: string): void {
  try {
    renameSync(path, target);
    for (const suffix of ['-wal', '-shm', '-journal']) {
      if (existsSync(`${path}${suffix}`)) renameSync(`${path}${suffix}`, `${target}${suffix}`);
    }
  } catch (error) {
    throw new QuaysideError(
      'storage',
      `Quayside could not move ${path} aside: its folder cannot be written. Nothing was deleted.`,
      { cause: error },
    );
  }
}

/** `<name>.unreadable-<UTC time>`, with a counter if that name is somehow taken. */
function asideName(path: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  let target = `${path}.unreadable-${stamp}`;
  for (let n = 2; existsSync(target); n++) target = `${path}.unreadable-${stamp}-${n}`;
  return target;
}

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
): Pick<
  Handlers,
  'data:info' | 'data:deleteLocal' | 'data:health' | 'data:moveAside' | 'app:diagnostics' | 'app:reportError'
> {
  const health = async (): Promise<DatabaseHealth> => {
    const path = ctx.profiles.databasePath(ctx.profiles.activeId);
    try {
      const session = await ctx.session();
      if (isReadOnly(session.db)) {
        return { path, state: 'read_only', problem: null, message: readOnlyMessage(path), moveAside: 'no' };
      }
      return { path, state: 'ok', problem: null, message: null, moveAside: 'no' };
    } catch (error) {
      if (!(error instanceof DatabaseOpenError)) throw error;
      return {
        path,
        state: 'unavailable',
        problem: error.problem,
        message: error.message,
        moveAside: moveAsideFor[error.problem],
      };
    }
  };

  const info = async (): Promise<DataInfo> => {
    const session = await ctx.session();
    const path = ctx.profiles.databasePath(ctx.profiles.activeId);
    return {
      path,
      bytes: sizeOf(path) + sizeOf(`${path}-wal`),
      shipments: countSynced(session.db, 'shipments'),
      containers: countSynced(session.db, 'containers'),
      trackingRequests: countSynced(session.db, 'trackingRequests'),
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
    'data:health': health,
    'data:moveAside': async ({ newerVersion }) => {
      const before = await health();
      const { path } = before;
      if (before.state !== 'unavailable' || !before.problem) {
        throw new QuaysideError('invalid_argument', `The local copy at ${path} opens; nothing was moved.`);
      }
      if (before.moveAside === 'no')
        throw new QuaysideError('storage', `${before.message} Moving it aside would not help.`);
      if (before.moveAside === 'on_request' && newerVersion !== true) {
        throw new QuaysideError(
          'invalid_argument',
          `The local copy at ${path} was written by a newer version of Quayside; update Quayside to open it. It is moved aside only when you ask for exactly that.`,
        );
      }
      const target = asideName(path);
      // The failed session holds nothing; the copy moves, then a fresh one opens in its place.
      await ctx.switchSession(ctx.profiles.activeId, () => moveAside(path, target));
      ctx.log(`local copy ${path} (${before.problem}) moved aside to ${target}; starting fresh`);
      return { movedTo: target, health: await health() };
    },
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
