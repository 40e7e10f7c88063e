import type { Handlers } from '../../shared/ipc';
import type { CoreContext } from './context';

type SyncHandlers = Pick<Handlers, 'sync:start' | 'sync:cancel' | 'sync:status' | 'sync:history'>;

export function syncHandlers(ctx: CoreContext): SyncHandlers {
  return {
    'sync:start': async (arg) => {
      const session = await ctx.session();
      const { started, done } = session.startSync(arg?.mode ?? 'auto');
      done.catch((error: unknown) => ctx.log('sync failed', error));
      return { started };
    },
    'sync:cancel': async () => ({ cancelled: (await ctx.session()).cancelSync() }),
    'sync:status': async () => (await ctx.session()).status(),
    'sync:history': async (arg) => (await ctx.session()).history(arg?.limit ?? 20),
  };
}
