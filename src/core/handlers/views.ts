/** Everything the views read: from the local database, so it all works offline. */
import type { Handlers } from '../../shared/ipc';
import { containerDetail, containerEvents, shipmentDetail } from '../details/details';
import { QuaysideError } from '../errors';
import type { Db } from '../store/database';
import { countContainers, listContainers } from '../store/queries/containers';
import { dashboardSummary } from '../store/queries/dashboard';
import { filterOptions } from '../store/queries/filter-options';
import { countShipments, listShipments } from '../store/queries/shipments';
import { countTrackingRequests, getTrackingRequestRow, listTrackingRequests } from '../store/queries/tracking-requests';
import { toActionError } from './api-errors';
import type { CoreContext } from './context';

type ViewHandlers = Pick<
  Handlers,
  | 'shipments:list'
  | 'shipments:count'
  | 'shipments:get'
  | 'containers:list'
  | 'containers:count'
  | 'containers:get'
  | 'containers:events'
  | 'trackingRequests:list'
  | 'trackingRequests:count'
  | 'trackingRequests:get'
  | 'dashboard:summary'
  | 'filters:options'
>;

export function viewHandlers(ctx: CoreContext): ViewHandlers {
  const db = async (): Promise<Db> => (await ctx.session()).db;

  return {
    'shipments:list': async ({ filters, sort, page }) =>
      listShipments(await db(), filters, { sort, limit: page.limit, after: page.after }),
    'shipments:count': async ({ filters }) => countShipments(await db(), filters),
    'shipments:get': async ({ id }) => shipmentDetail(await db(), id),
    'containers:list': async ({ filters, sort, page }) =>
      listContainers(await db(), filters, { sort, limit: page.limit, after: page.after }),
    'containers:count': async ({ filters }) => countContainers(await db(), filters),
    'containers:get': async ({ id }) => containerDetail(await db(), id),
    'containers:events': async ({ id, refresh }) => {
      const session = await ctx.session();
      const detail = containerDetail(session.db, id);
      let fromCache = true;
      let error: string | null = null;
      // An explicit refresh is tried whatever the last request said; an automatic one only online.
      if (session.engine && (refresh || (session.online && detail.eventsSyncedAt === null))) {
        try {
          // The user is looking at it: ahead of background sync in the limiter's queue.
          await session.engine.fetchContainerEvents(id, 'user');
          fromCache = false;
          ctx.events.emit('data:changed');
        } catch (failure) {
          ctx.log('fetching container events failed; showing the cached ones', failure);
          error = toActionError(failure).message;
        }
      }
      return {
        events: containerEvents(session.db, id),
        fetchedAt: containerDetail(session.db, id).eventsSyncedAt,
        fromCache,
        error,
      };
    },
    'trackingRequests:list': async ({ filters, sort, page }) =>
      listTrackingRequests(await db(), filters, {
        sort,
        limit: page.limit,
        after: page.after,
      }),
    'trackingRequests:count': async ({ filters }) => countTrackingRequests(await db(), filters),
    'trackingRequests:get': async ({ id }) => {
      const row = getTrackingRequestRow(await db(), id);
      if (!row) throw new QuaysideError('not_found', 'This tracking request is not in the local data (yet).');
      return row;
    },
    'dashboard:summary': async () => dashboardSummary(await db()),
    'filters:options': async () => filterOptions(await db()),
  };
}
