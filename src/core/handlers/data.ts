import { rmSync, statSync } from 'node:fs';
import type { Handlers } from '../../shared/ipc';
import type { DataInfo } from '../../shared/types';
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
export function dataHandlers(ctx: CoreContext): Pick<Handlers, 'data:info' | 'data:deleteLocal'> {
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
  return {
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
