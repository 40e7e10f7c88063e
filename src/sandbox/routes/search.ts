/**
 * `GET /search?query=`: the account's shipments, containers (`cargo`) and tracking requests whose
 * number or reference numbers hold the text, shipments first, then containers, then requests, each
 * newest first, at most 25. A request whose bill of lading is already a shipment found is left out.
 * The live service types every result `search_result`; the reference types it by what it found.
 */
import { attributesOf } from '../attributes';
import { HttpError, type Reply, type RouteContext } from '../http';
import type { ContainerPlan, ShipmentPlan, TrackingRequestPlan } from '../model';

const LIMIT = 25;

type Found =
  | { type: 'shipment'; rec: ShipmentPlan }
  | { type: 'cargo'; rec: ContainerPlan }
  | { type: 'tracking_request'; rec: TrackingRequestPlan };

const blank = {
  shipment_id: null,
  scac: null,
  port_of_lading_name: null,
  port_of_discharge_name: null,
  containers_count: null,
  tracking_stopped: null,
  tracking_stopped_reason: null,
  status: null,
  failed_reason: null,
};

function attributes(found: Found, route: RouteContext): Record<string, unknown> {
  const { ctx } = route;
  if (found.type === 'shipment') {
    const s = attributesOf({ type: 'shipment', rec: found.rec }, ctx);
    return {
      ...blank,
      entity_type: 'shipment',
      number: found.rec.billOfLading,
      scac: s.shipping_line_scac,
      port_of_lading_name: s.port_of_lading_name,
      port_of_discharge_name: s.port_of_discharge_name,
      containers_count: found.rec.containers.filter((c) => c.createdAt <= ctx.now).length,
      tracking_stopped: s.line_tracking_stopped_at !== null,
      tracking_stopped_reason: s.line_tracking_stopped_reason ?? null,
      ref_numbers: found.rec.refNumbers,
      created_at: s.created_at,
      updated_at: s.updated_at,
    };
  }
  if (found.type === 'cargo') {
    const c = attributesOf({ type: 'container', rec: found.rec }, ctx);
    return {
      ...blank,
      entity_type: 'cargo',
      number: found.rec.number,
      shipment_id: found.rec.shipment.id,
      scac: found.rec.shipment.line.data.scac,
      ref_numbers: found.rec.refNumbers,
      created_at: c.created_at,
      updated_at: c.updated_at ?? c.created_at,
    };
  }
  const r = attributesOf({ type: 'tracking_request', rec: found.rec }, ctx);
  const shipment = found.rec.shipment;
  return {
    ...blank,
    entity_type: 'tracking_request',
    number: found.rec.requestNumber,
    shipment_id: r.status === 'created' && shipment ? shipment.id : null,
    scac: r.scac,
    status: r.status,
    failed_reason: r.failed_reason,
    ref_numbers: found.rec.refNumbers,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function search(route: RouteContext): Reply {
  const query = route.url.searchParams.get('query')?.trim() ?? '';
  if (query === '') {
    throw new HttpError(400, [
      { status: '400', title: 'Bad Request', detail: 'query is required', source: { parameter: 'query' } },
    ]);
  }
  const needle = query.toUpperCase();
  const holds = (number: string, refs: readonly string[]) =>
    number.toUpperCase().includes(needle) || refs.some((r) => r.toUpperCase().includes(needle));
  const now = route.ctx.now;
  const found: Found[] = [];
  const numbers = new Set<string>();
  for (const rec of route.store.shipments) {
    if (found.length >= LIMIT) break;
    if (rec.createdAt > now || !holds(rec.billOfLading, rec.refNumbers)) continue;
    found.push({ type: 'shipment', rec });
    numbers.add(rec.billOfLading);
  }
  for (const rec of route.store.containers) {
    if (found.length >= LIMIT) break;
    if (rec.createdAt <= now && holds(rec.number, rec.refNumbers)) found.push({ type: 'cargo', rec });
  }
  for (const rec of route.store.trackingRequests) {
    if (found.length >= LIMIT) break;
    if (rec.createdAt > now || numbers.has(rec.requestNumber) || !holds(rec.requestNumber, rec.refNumbers)) continue;
    found.push({ type: 'tracking_request', rec });
  }
  const live = route.ctx.shape !== 'reference';
  const data = found.map((f) => ({
    id: f.rec.id,
    type: live ? 'search_result' : f.type,
    attributes: attributes(f, route),
  }));
  const self = `${route.origin}/v2/search?query=${encodeURIComponent(query)}`;
  const links: Record<string, string> = { self };
  if (live) links.current = `${route.origin}/v2/search?page[number]=1&query=${encodeURIComponent(query)}`;
  return { status: 200, body: { data, links } };
}
