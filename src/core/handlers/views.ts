/** Everything the views read: from the local database, so it all works offline. */
import type { Handlers } from '../../shared/ipc';
import {
  containerDetail,
  containerEvents,
  listShippingLines,
  lookup,
  shipmentDetail,
  type LookupType,
} from '../details/details';
import { QuaysideError } from '../errors';
import type { Db } from '../store/database';
import { countContainers, listContainers } from '../store/queries/containers';
import { dashboardSummary } from '../store/queries/dashboard';
import { filterOptions } from '../store/queries/filter-options';
import { countShipments, listShipments } from '../store/queries/shipments';
import { countTrackingRequests, getTrackingRequestRow, listTrackingRequests } from '../store/queries/tracking-requests';
import { writeResources } from '../store/writer';
import type { StoredResource } from '../store/resource';
import { toActionError } from './api-errors';
import type { CoreContext } from './context';

type ViewHandlers = Pick<
  Handlers,
  | 'shipments:list'
  | 'shipments:count'
  | 'shipments:get'
  | 'shipments:search'
  | 'containers:list'
  | 'containers:count'
  | 'containers:get'
  | 'containers:events'
  | 'trackingRequests:list'
  | 'trackingRequests:count'
  | 'trackingRequests:get'
  | 'dashboard:summary'
  | 'filters:options'
  | 'shippingLines:list'
  | 'shippingLines:get'
  | 'terminals:get'
  | 'parties:get'
  | 'customFieldDefinitions:get'
  | 'emailSubmissions:get'
  | 'ports:get'
>;

const lookupPaths: Record<LookupType, string> = {
  shipping_line: 'shipping_lines',
  terminal: 'terminals',
  party: 'parties',
  custom_field_definition: 'custom_field_definitions',
  email_submission: 'email_submissions',
  port: 'ports',
};

export function viewHandlers(ctx: CoreContext): ViewHandlers {
  const db = async (): Promise<Db> => (await ctx.session()).db;

  /** Local first; missing locally and online, it is fetched now; found, it is refreshed behind. */
  const lookupOf =
    (type: LookupType) =>
    async ({ id }: { id: string }) => {
      const session = await ctx.session();
      const refresh = async () => {
        if (!session.client) return;
        const doc = await session.client.get(`/${lookupPaths[type]}/${encodeURIComponent(id)}`, { priority: 'user' });
        const resources = [doc.data, ...doc.included].flat().filter(Boolean) as StoredResource[];
        writeResources(session.db, resources, { syncedAt: new Date().toISOString() });
      };
      try {
        const local = lookup(session.db, type, id);
        if (session.online) refresh().catch(() => {});
        return local;
      } catch (error) {
        // Missing here: asked of the service even after a failed request (it may be back).
        if (!(error instanceof QuaysideError) || error.code !== 'not_found' || !session.client) throw error;
        await refresh().catch(() => {
          throw error;
        });
        return lookup(session.db, type, id);
      }
    };

  return {
    'shipments:list': async ({ filters, sort, page }) =>
      listShipments(await db(), filters, { sort, limit: page.limit, after: page.after }),
    'shipments:count': async ({ filters }) => countShipments(await db(), filters),
    'shipments:get': async ({ id }) => shipmentDetail(await db(), id),
    'shipments:search': async ({ text, limit }) => {
      const d = await db();
      return {
        shipments: listShipments(d, { search: text }, { limit }).rows,
        containers: listContainers(d, { search: text }, { limit }).rows,
        trackingRequests: listTrackingRequests(d, { search: text }, { limit }).rows,
      };
    },
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
    'shippingLines:list': async () => listShippingLines(await db()),
    'shippingLines:get': lookupOf('shipping_line'),
    'terminals:get': lookupOf('terminal'),
    'parties:get': lookupOf('party'),
    'customFieldDefinitions:get': lookupOf('custom_field_definition'),
    'emailSubmissions:get': lookupOf('email_submission'),
    'ports:get': lookupOf('port'),
  };
}
