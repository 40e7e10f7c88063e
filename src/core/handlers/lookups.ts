/** Ctrl+K search and the reference records (carriers, terminals, ports…) the views name. */
import { nextTurn } from '../loop-turns';
import type { Handlers } from '../../shared/ipc';
import type { Found } from '../../shared/types';
import { lookupNames, type LookupName } from '../../shared/lookups';
import { listShippingLines, locationInfo, lookup } from '../details/details';
import { lookupOf } from '../resources';
import { QuaysideError } from '../errors';
import type { Db } from '../store/database';
import { getContainerRow, listContainers } from '../store/queries/containers';
import { customFieldHits, type CustomFieldHit } from '../store/queries/custom-fields';
import { searchLocations } from '../store/queries/lookups';
import { getShipmentRow, listShipments } from '../store/queries/shipments';
import { getTrackingRequestRow, listTrackingRequests } from '../store/queries/tracking-requests';
import { writeResources } from '../store/writer';
import type { StoredResource } from '../store/resource';
import type { CoreContext } from './context';
import { matchContainer, matchIn, matchLocation, matchShipment, matchTrackingRequest } from './search-match';

type LookupHandlers = Pick<Handlers, 'shipments:search' | 'shippingLines:list' | `${LookupName}:get`>;

/** The service's path of one record, asked when it is missing here or to refresh it. */
function lookupPath(name: LookupName, id: string): string {
  return lookupOf(name).path.replace('{id}', encodeURIComponent(id));
}

/**
 * Ctrl+K also finds records by their custom field values (a PO number, a cost centre): those the
 * text search did not find follow its results, up to `limit`, each matched on the field's name.
 */
function withCustomFields<Row extends { id: string }>(
  text: string,
  limit: number,
  found: Found<Row>[],
  hits: CustomFieldHit[],
  rowOf: (id: string) => Row | null | undefined,
): Found<Row>[] {
  const seen = new Set(found.map((r) => r.id));
  const out = [...found];
  for (const hit of hits) {
    if (out.length >= limit) break;
    if (seen.has(hit.entityId)) continue;
    const row = rowOf(hit.entityId);
    if (!row) continue;
    seen.add(hit.entityId);
    out.push({ ...row, matched: matchIn(text, [[hit.name ?? 'Custom field', hit.displayValue]]) });
  }
  return out;
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
    // Each result says why it matched: the field holding the text, the text marked in it.
    'shipments:search': async ({ text, limit }) => {
      const d = await db();
      // Each list's search is its own task, the event loop let go between them: typed a key at a
      // time over a large account, the whole answer at once held the core for tens of ms.
      const shipments = listShipments(d, { search: text }, { limit }).rows;
      const byId = new Map(shipments.map((s) => [s.id, s]));
      const shipmentOf = (id: string | null) => (id ? (byId.get(id) ?? getShipmentRow(d, id) ?? undefined) : undefined);
      const shipmentsFound = withCustomFields(
        text,
        limit,
        shipments.map((s) => matchShipment(text, s)),
        customFieldHits(d, 'Shipment', 'shipment', text.trim(), limit),
        (id) => getShipmentRow(d, id),
      );
      await nextTurn();
      const containers = withCustomFields(
        text,
        limit,
        listContainers(d, { search: text }, { limit }).rows.map((c) =>
          matchContainer(text, c, shipmentOf(c.shipmentId)),
        ),
        customFieldHits(d, 'Container', 'container', text.trim(), limit),
        (id) => getContainerRow(d, id),
      );
      await nextTurn();
      const trackingRequests = withCustomFields(
        text,
        limit,
        listTrackingRequests(d, { search: text }, { limit }).rows.map((r) => matchTrackingRequest(text, r)),
        customFieldHits(d, 'TrackingRequest', 'tracking_request', text.trim(), limit),
        (id) => getTrackingRequestRow(d, id),
      );
      await nextTurn();
      const locations = searchLocations(d, text, limit).flatMap((row) => {
        const info = locationInfo(row);
        return info ? [matchLocation(text, info)] : [];
      });
      return { shipments: shipmentsFound, containers, trackingRequests, locations };
    },
    'shippingLines:list': async () => listShippingLines(await db()),
    ...(Object.fromEntries(lookupNames.map((name) => [`${name}:get`, lookupOf(name)])) as Pick<
      Handlers,
      `${LookupName}:get`
    >),
  };
}
