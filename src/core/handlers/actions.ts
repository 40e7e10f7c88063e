/**
 * Actions that need the service. Each goes through the key's limiter ahead of background sync;
 * a refused or unreachable service changes nothing locally; a success is written to the local
 * database at once, so the views show it before the next sync.
 */
import type { JsonApiDocument } from '../api/document';
import type { Handlers } from '../../shared/ipc';
import { isValidContainerNumber, normalizeTrackingNumber } from '../../shared/identifiers';
import { QuaysideError } from '../errors';
import type { Session } from '../session';
import { countShippingLines, shippingLineByScac } from '../store/queries/lookups';
import { getShipmentRow } from '../store/queries/shipments';
import { getTrackingRequestRow } from '../store/queries/tracking-requests';
import { deleteWebhookNotifications } from '../store/queries/webhook-notifications';
import { deleteWebhook, webhookRows } from '../store/queries/webhooks';
import { strings, type StoredResource } from '../store/resource';
import { writeResources } from '../store/writer';
import { toActionError } from './api-errors';
import { postTrackingRequest } from './create-request';
import { keep as keepWebhooks } from './webhooks';
import type { CoreContext } from './context';

type ActionHandlers = Pick<
  Handlers,
  | 'trackingRequests:create'
  | 'shipments:update'
  | 'shipments:stopTracking'
  | 'shipments:resumeTracking'
  | 'webhooks:list'
  | 'webhooks:delete'
>;

function clientOf(session: Session) {
  if (!session.client) {
    throw new QuaysideError('key_refused', session.noKeyMessage);
  }
  return session.client;
}

function store(session: Session, doc: JsonApiDocument | null): void {
  if (!doc) return;
  if (!session.db.open) {
    throw new QuaysideError(
      'busy',
      'The Tracking API made the change, but the account was switched before it was saved here; it appears after the next sync.',
    );
  }
  const resources = [doc.data, ...doc.included].flat().filter(Boolean) as StoredResource[];
  writeResources(session.db, resources, { syncedAt: new Date().toISOString() });
}

/** Checks a new tracking request here first, so the form can say what is wrong at once. */
function checkTrackingRequest(
  session: Session,
  requestType: string,
  number: string,
  scac: string,
): Record<string, string> {
  const fields: Record<string, string> = {};
  const line = shippingLineByScac(session.db, scac);
  const known = countShippingLines(session.db);
  if (known > 0 && !line) fields.scac = `${scac} is not a carrier the Tracking API covers. Pick one from the list.`;
  else if (
    line &&
    (JSON.parse(line.raw) as { attributes?: { bill_of_lading_tracking_support?: boolean } }).attributes
      ?.bill_of_lading_tracking_support === false
  ) {
    fields.scac = `The Tracking API does not track ${line.name} (${scac}) yet.`;
  }
  if (requestType === 'container' && !isValidContainerNumber(number)) {
    fields.requestNumber = 'A container number is 4 letters and 7 digits with a valid check digit, e.g. MSCU1234566.';
  } else if (requestType !== 'container' && !/^[A-Z0-9]{5,30}$/.test(number)) {
    fields.requestNumber = 'A bill of lading or booking number is 5 to 30 letters and digits.';
  }
  return fields;
}

export function actionHandlers(ctx: CoreContext): ActionHandlers {
  const act = async <T>(work: (session: Session) => Promise<T>): Promise<T> => {
    const session = await ctx.session();
    try {
      return await work(session);
    } catch (error) {
      throw toActionError(error);
    }
  };
  const changed = () => ctx.events.emit('data:changed');

  const shipmentAction =
    (verb: 'stop_tracking' | 'resume_tracking') =>
    ({ id }: { id: string }) =>
      act(async (session) => {
        const doc = await clientOf(session).patch(`/shipments/${encodeURIComponent(id)}/${verb}`, undefined, {
          priority: 'user',
          idempotent: true,
        });
        store(session, doc);
        changed();
        const row = getShipmentRow(session.db, id);
        if (!row) throw new QuaysideError('not_found', 'This shipment is not in the local data.');
        return row;
      });

  return {
    'trackingRequests:create': ({ requestType, requestNumber, scac, refNumbers, tags, customerId }) =>
      act(async (session) => {
        const number = normalizeTrackingNumber(requestNumber);
        const fields = checkTrackingRequest(session, requestType, number, scac);
        if (Object.keys(fields).length > 0) {
          throw new QuaysideError('invalid_argument', Object.values(fields)[0]!, { fields });
        }
        const doc = await postTrackingRequest(
          clientOf(session),
          session.db,
          { requestType, number, scac, refNumbers, tags, customerId },
          { priority: 'user' },
        );
        store(session, doc);
        changed();
        const id = doc && !Array.isArray(doc.data) && doc.data ? doc.data.id : null;
        const row = id ? getTrackingRequestRow(session.db, id) : null;
        if (!row)
          throw new QuaysideError('internal', 'The tracking request was created but its answer could not be read.');
        return row;
      }),
    'shipments:update': ({ id, refNumbers, tags }) =>
      act(async (session) => {
        const attributes: Record<string, unknown> = {};
        if (refNumbers !== undefined) attributes.ref_numbers = refNumbers;
        if (tags !== undefined) attributes.tags = tags;
        const doc = await clientOf(session).patch(
          `/shipments/${encodeURIComponent(id)}`,
          { data: { type: 'shipment', id, attributes } },
          { priority: 'user', idempotent: true },
        );
        store(session, doc);
        changed();
        const row = getShipmentRow(session.db, id);
        if (!row) throw new QuaysideError('not_found', 'This shipment is not in the local data.');
        return row;
      }),
    'shipments:stopTracking': shipmentAction('stop_tracking'),
    'shipments:resumeTracking': shipmentAction('resume_tracking'),
    'webhooks:list': () =>
      act(async (session) => {
        if (session.client) {
          try {
            // Secrets are shown once, when a webhook is created, and never kept here.
            keepWebhooks(
              session,
              await session.client.get('/webhooks', { query: { 'page[size]': 100 }, priority: 'user' }),
            );
          } catch (error) {
            ctx.log('webhooks could not be refreshed; showing the stored ones', error);
          }
        }
        return webhookRows(session.db).map((r) => ({
          id: r.id,
          url: r.url,
          active: r.active === 1,
          // The event names the service listed, whatever else it put in that list.
          events: strings((JSON.parse(r.raw) as { attributes?: { events?: unknown } }).attributes?.events),
        }));
      }),
    'webhooks:delete': ({ id }) =>
      act(async (session) => {
        await clientOf(session).delete(`/webhooks/${encodeURIComponent(id)}`, { priority: 'user' });
        deleteWebhookNotifications(session.db, id);
        deleteWebhook(session.db, id);
        changed();
        return { deleted: true as const };
      }),
  };
}
