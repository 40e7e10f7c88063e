/** Ctrl+K search and the reference records (carriers, terminals, ports…) the views name. */
import type { Handlers } from '../../shared/ipc';
import { listShippingLines, locationInfo, lookup, type LookupType } from '../details/details';
import { QuaysideError } from '../errors';
import type { Db } from '../store/database';
import { listContainers } from '../store/queries/containers';
import { searchLocations } from '../store/queries/lookups';
import { listShipments } from '../store/queries/shipments';
import { listTrackingRequests } from '../store/queries/tracking-requests';
import { writeResources } from '../store/writer';
import type { StoredResource } from '../store/resource';
import type { CoreContext } from './context';

type LookupHandlers = Pick<
  Handlers,
  | 'shipments:search'
  | 'shippingLines:list'
  | 'shippingLines:get'
  | 'terminals:get'
  | 'parties:get'
  | 'customFieldDefinitions:get'
  | 'emailSubmissions:get'
  | 'ports:get'
  | 'metroAreas:get'
>;

const lookupPaths: Record<LookupType, string> = {
  shipping_line: 'shipping_lines',
  terminal: 'terminals',
  party: 'parties',
  custom_field_definition: 'custom_field_definitions',
  email_submission: 'email_submissions',
  port: 'ports',
  metro_area: 'metro_areas',
};

export function lookupHandlers(ctx: CoreContext): LookupHandlers {
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
    'shipments:search': async ({ text, limit }) => {
      const d = await db();
      return {
        shipments: listShipments(d, { search: text }, { limit }).rows,
        containers: listContainers(d, { search: text }, { limit }).rows,
        trackingRequests: listTrackingRequests(d, { search: text }, { limit }).rows,
        locations: searchLocations(d, text, limit).flatMap((row) => locationInfo(row) ?? []),
      };
    },
    'shippingLines:list': async () => listShippingLines(await db()),
    'shippingLines:get': lookupOf('shipping_line'),
    'terminals:get': lookupOf('terminal'),
    'parties:get': lookupOf('party'),
    'customFieldDefinitions:get': lookupOf('custom_field_definition'),
    'emailSubmissions:get': lookupOf('email_submission'),
    'ports:get': lookupOf('port'),
    'metroAreas:get': lookupOf('metro_area'),
  };
}
