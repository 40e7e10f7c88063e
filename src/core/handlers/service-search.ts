/**
 * Ctrl+K on the service. `search:service` asks the Tracking API's search (GET /search, through
 * the key's limiter at user priority, never waiting out a 429) for what the palette's text names,
 * and answers the results the local copy does not have yet; offline or without a key it says so
 * without asking. A newer search ends the one still on its way. `search:openServiceResult`
 * fetches one such result into the local copy (as the sync would store it, with the walk's
 * includes) and says where it opens.
 */
import { z } from 'zod';
import type { TrackingApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { listResources } from '../api/document';
import type { Handlers } from '../../shared/ipc';
import type { OpenedServiceResult, ServiceResultKind, ServiceSearchResult } from '../../shared/service-search';
import { resources, walks } from '../resources';
import { QuaysideError } from '../errors';
import type { Session } from '../session';
import { inLocalCopy, isSynced, trackingRequestShipment } from '../store/queries/service-search';
import type { StoredResource } from '../store/resource';
import { writeResources } from '../store/writer';
import { toActionError } from './api-errors';
import type { CoreContext } from './context';

type ServiceSearchHandlers = Pick<Handlers, 'search:service' | 'search:openServiceResult'>;

/** The service answers at most this many; more are not read. */
export const SERVICE_RESULTS = 25;

export const unreadableSearch =
  'The Tracking API’s search answered in a form Quayside cannot read; only this computer’s copy was searched.';
const offlineMessage = 'Offline: only this computer’s copy was searched.';

const text = (max: number) =>
  z
    .string()
    .nullish()
    .transform((v) => (v ? v.slice(0, max) : null));

/** One result as the reference and the live service write it (the live one types each `search_result`). */
const resultSchema = z.object({
  id: z.union([z.string().min(1).max(100), z.number().transform(String)]),
  type: z.string(),
  attributes: z.looseObject({
    entity_type: z.string().nullish(),
    number: z.string().min(1).max(100),
    shipment_id: z.string().max(100).nullish(),
    scac: text(10),
    port_of_lading_name: text(200),
    port_of_discharge_name: text(200),
    containers_count: z.number().int().nonnegative().nullish(),
    status: text(40),
  }),
});

const answerSchema = z.looseObject({ data: z.array(z.unknown()) });

const kinds: Record<string, ServiceResultKind> = {
  shipment: 'shipment',
  cargo: 'container',
  container: 'container',
  tracking_request: 'trackingRequest',
};

/** The first results of the service's answer in the app's terms; a wrong shape is refused. */
export function readSearchAnswer(answer: unknown): ServiceSearchResult[] {
  const frame = answerSchema.safeParse(answer);
  if (!frame.success) throw new QuaysideError('busy', unreadableSearch);
  const results: ServiceSearchResult[] = [];
  for (const item of frame.data.data.slice(0, SERVICE_RESULTS)) {
    const parsed = resultSchema.safeParse(item);
    if (!parsed.success) throw new QuaysideError('busy', unreadableSearch);
    const { id, type, attributes: a } = parsed.data;
    // A kind of record Quayside does not keep is left out, not refused.
    const kind = kinds[a.entity_type ?? type];
    if (!kind) continue;
    results.push({
      kind,
      id,
      number: a.number,
      shipmentId: a.shipment_id ?? null,
      scac: a.scac,
      portOfLading: a.port_of_lading_name,
      portOfDischarge: a.port_of_discharge_name,
      containersCount: a.containers_count ?? null,
      status: a.status,
    });
  }
  return results;
}

const shipmentIncludes = walks.find((w) => w.key === 'shipments:active')?.includes ?? [];
const containerIncludes = resources.containers.api?.includes ?? [];

/** GETs one record with its includes and writes what came back, as the sync writes a page. */
async function fetchInto(session: Session, client: TrackingApiClient, path: string, includes: readonly string[]) {
  const doc = await client.get(path, {
    query: includes.length > 0 ? { include: includes.join(',') } : {},
    priority: 'user',
  });
  if (!session.db.open) {
    throw new QuaysideError('busy', 'The account was switched before the record was saved here; search again.');
  }
  const records = [...listResources(doc), ...doc.included] as StoredResource[];
  writeResources(session.db, records, { syncedAt: new Date().toISOString() });
}

const shipmentPath = (id: string) => `/shipments/${encodeURIComponent(id)}`;

export function serviceSearchHandlers(ctx: CoreContext): ServiceSearchHandlers {
  /** The search still on its way, ended when a newer one starts. */
  let current: AbortController | null = null;

  const clientOf = (session: Session): TrackingApiClient => {
    if (!session.client) throw new QuaysideError('key_refused', session.noKeyMessage);
    return session.client;
  };

  return {
    'search:service': async ({ query: typed }) => {
      const query = typed.trim();
      const session = await ctx.session();
      if (!session.client) return { outcome: 'no_key', message: session.noKeyMessage };
      if (!session.online) return { outcome: 'offline', message: offlineMessage };
      // Too short to be a number: not worth a request.
      if (query.length < 3) return { outcome: 'answered', query, results: [], alreadyHere: 0 };
      current?.abort();
      const mine = new AbortController();
      current = mine;
      let answer: unknown;
      try {
        answer = await session.client.getJson('/search', {
          query: { query },
          priority: 'user',
          noWaitOn429: true,
          signal: mine.signal,
        });
      } catch (error) {
        if (mine.signal.aborted) return { outcome: 'superseded' };
        if (error instanceof ApiError && (error.code === 'network' || error.code === 'timeout')) {
          return { outcome: 'offline', message: offlineMessage };
        }
        throw toActionError(error);
      } finally {
        if (current === mine) current = null;
      }
      const found = readSearchAnswer(answer);
      const results = found.filter((r) => !inLocalCopy(session.db, r.kind, r.id, r.number));
      return { outcome: 'answered', query, results, alreadyHere: found.length - results.length };
    },

    'search:openServiceResult': async ({ kind, id, shipmentId }): Promise<OpenedServiceResult> => {
      const session = await ctx.session();
      const client = clientOf(session);
      try {
        if (kind === 'shipment') {
          await fetchInto(session, client, shipmentPath(id), shipmentIncludes);
        } else if (kind === 'container') {
          // Its shipment brings it, with the shipment it is shown in; else it alone.
          if (shipmentId) await fetchInto(session, client, shipmentPath(shipmentId), shipmentIncludes);
          if (!isSynced(session.db, 'container', id)) {
            await fetchInto(session, client, `/containers/${encodeURIComponent(id)}`, containerIncludes);
          }
        } else {
          await fetchInto(session, client, `/tracking_requests/${encodeURIComponent(id)}`, []);
          const became = trackingRequestShipment(session.db, id) ?? shipmentId ?? null;
          if (became) await fetchInto(session, client, shipmentPath(became), shipmentIncludes);
        }
      } catch (error) {
        throw error instanceof QuaysideError ? error : toActionError(error);
      }
      ctx.events.emit('data:changed');
      // The service answered with another record than the one asked for.
      if (!isSynced(session.db, kind, id))
        throw new QuaysideError('not_found', 'The Tracking API no longer has this record.');
      if (kind === 'trackingRequest') {
        const shipment = trackingRequestShipment(session.db, id);
        if (shipment && isSynced(session.db, 'shipment', shipment)) return { view: 'shipments', id: shipment };
        return { view: 'trackingRequests', id };
      }
      return { view: kind === 'shipment' ? 'shipments' : 'containers', id };
    },
  };
}
