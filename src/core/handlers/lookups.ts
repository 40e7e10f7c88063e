/** Ctrl+K search and the reference records (carriers, terminals, ports…) the views name. */
import type { Handlers } from '../../shared/ipc';
import type { SearchResults } from '../../shared/types';
import { lookupNames, type LookupName } from '../../shared/lookups';
import { listShippingLines, lookup } from '../details/details';
import { lookupOf } from '../resources';
import { QuaysideError } from '../errors';
import type { Db } from '../store/database';
import { writeResources } from '../store/writer';
import type { StoredResource } from '../store/resource';
import type { CoreContext } from './context';

type LookupHandlers = Pick<Handlers, 'shipments:search' | 'shippingLines:list' | `${LookupName}:get`>;

/** The service's path of one record, asked when it is missing here or to refresh it. */
function lookupPath(name: LookupName, id: string): string {
  return lookupOf(name).path.replace('{id}', encodeURIComponent(id));
}

export function lookupHandlers(ctx: CoreContext): LookupHandlers {
  const db = async (): Promise<Db> => (await ctx.session()).db;

  /** Local first; missing locally and online, it is fetched now; found, it is refreshed behind. */
  const lookupOf =
    (name: LookupName) =>
    async ({ id }: { id: string }) => {
      const session = await ctx.session();
      const refresh = async () => {
        if (!session.client) return;
        const doc = await session.client.get(lookupPath(name, id), { priority: 'user' });
        const resources = [doc.data, ...doc.included].flat().filter(Boolean) as StoredResource[];
        writeResources(session.db, resources, { syncedAt: new Date().toISOString() });
      };
      try {
        const local = lookup(session.db, name, id);
        if (session.online) refresh().catch(() => {});
        return local;
      } catch (error) {
        // Missing here: asked of the service even after a failed request (it may be back).
        if (!(error instanceof QuaysideError) || error.code !== 'not_found' || !session.client) throw error;
        await refresh().catch(() => {
          throw error;
        });
        return lookup(session.db, name, id);
      }
    };

  return {
    // Each result says why it matched (core/reads/search.ts): in the session's reads, a worker
    // thread over a large account; a newer text takes the place of one still waiting.
    'shipments:search': async ({ text, limit }) =>
      (await ctx.session()).reads.run<SearchResults>({ op: 'search', text, limit }, 'shipments:search'),
    'shippingLines:list': async () => listShippingLines(await db()),
    ...(Object.fromEntries(lookupNames.map((name) => [`${name}:get`, lookupOf(name)])) as Pick<
      Handlers,
      `${LookupName}:get`
    >),
  };
}
