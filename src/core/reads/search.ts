/**
 * Ctrl+K's search (`shipments:search`): each list's matches, each result saying why it matched.
 * One step per list, so where it runs on the core's own loop the loop is let go between them.
 */
import type { Found, SearchResults } from '../../shared/types';
import { locationInfo } from '../details/details';
import { matchContainer, matchIn, matchLocation, matchShipment, matchTrackingRequest } from '../handlers/search-match';
import type { Db } from '../store/database';
import { getContainerRow, listContainers } from '../store/queries/containers';
import { customFieldHits, type CustomFieldHit } from '../store/queries/custom-fields';
import { searchLocations } from '../store/queries/lookups';
import { getShipmentRow, listShipments } from '../store/queries/shipments';
import { getTrackingRequestRow, listTrackingRequests } from '../store/queries/tracking-requests';

export type SearchAnswer = SearchResults;

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

/** The search's steps (shipments, containers, tracking requests, places) and the answer they fill. */
export function searchParts(
  db: Db,
  text: string,
  limit: number,
): { steps: (() => void)[]; answer: () => SearchAnswer } {
  const answer: SearchAnswer = { shipments: [], containers: [], trackingRequests: [], locations: [] };
  let shipmentOf: (id: string | null) => ReturnType<typeof getShipmentRow> | undefined = () => undefined;
  const steps = [
    () => {
      const shipments = listShipments(db, { search: text }, { limit }).rows;
      const byId = new Map(shipments.map((s) => [s.id, s]));
      shipmentOf = (id) => (id ? (byId.get(id) ?? getShipmentRow(db, id) ?? undefined) : undefined);
      answer.shipments = withCustomFields(
        text,
        limit,
        shipments.map((s) => matchShipment(text, s)),
        customFieldHits(db, 'Shipment', 'shipment', text.trim(), limit),
        (id) => getShipmentRow(db, id),
      );
    },
    () => {
      answer.containers = withCustomFields(
        text,
        limit,
        listContainers(db, { search: text }, { limit }).rows.map((c) =>
          matchContainer(text, c, shipmentOf(c.shipmentId) ?? undefined),
        ),
        customFieldHits(db, 'Container', 'container', text.trim(), limit),
        (id) => getContainerRow(db, id),
      );
    },
    () => {
      answer.trackingRequests = withCustomFields(
        text,
        limit,
        listTrackingRequests(db, { search: text }, { limit }).rows.map((r) => matchTrackingRequest(text, r)),
        customFieldHits(db, 'TrackingRequest', 'tracking_request', text.trim(), limit),
        (id) => getTrackingRequestRow(db, id),
      );
    },
    () => {
      answer.locations = searchLocations(db, text, limit).flatMap((row) => {
        const info = locationInfo(row);
        return info ? [matchLocation(text, info)] : [];
      });
    },
  ];
  return { steps, answer: () => answer };
}
