/**
 * Settings → Webhooks: create and edit the account's webhooks on the service (user priority,
 * through the limiter), and list the notifications the service sent them. A new webhook's signing
 * secret comes back once, to be shown once; it is not kept in the local copy.
 */
import type { JsonApiDocument } from '../api/document';
import type { Handlers } from '../../shared/ipc';
import type { WebhookRow } from '../../shared/types';
import type { WebhookNotificationRow } from '../../shared/webhooks';
import { QuaysideError } from '../errors';
import type { Session } from '../session';
import { newestWebhookNotifications } from '../store/queries/webhook-notifications';
import type { StoredResource } from '../store/resource';
import { writeResources } from '../store/writer';
import { webhooksChanged } from '../sync/feed';
import { toActionError } from './api-errors';
import type { CoreContext } from './context';

type WebhookHandlers = Pick<Handlers, 'webhooks:create' | 'webhooks:update' | 'webhooks:notifications'>;

const deliveryStatuses = new Set(['pending', 'succeeded', 'failed']);

/** The resources of an answer, a webhook's secret left out: it is shown once and never stored. */
function withoutSecrets(doc: JsonApiDocument): StoredResource[] {
  const resources = [doc.data, ...doc.included].flat().filter(Boolean) as StoredResource[];
  return resources.map((r) => {
    if (r.type !== 'webhook' || !('secret' in r.attributes)) return r;
    const { secret: _secret, ...attributes } = r.attributes;
    return { ...r, attributes };
  });
}

/** Writes an answer to the local copy, webhooks' secrets left out. */
export function keep(session: Session, doc: JsonApiDocument | null): void {
  if (!doc || !session.db.open) return;
  writeResources(session.db, withoutSecrets(doc), { syncedAt: new Date().toISOString() });
}

function rowOf(doc: JsonApiDocument | null): WebhookRow & { secret: string | null } {
  const data = doc && !Array.isArray(doc.data) ? doc.data : null;
  if (!data) throw new QuaysideError('internal', 'The Tracking API made the change but its answer could not be read.');
  const a = data.attributes;
  return {
    id: data.id,
    url: typeof a.url === 'string' ? a.url : '',
    active: a.active === true,
    events: Array.isArray(a.events) ? a.events.filter((e): e is string => typeof e === 'string') : [],
    secret: typeof a.secret === 'string' ? a.secret : null,
  };
}

export function webhookHandlers(ctx: CoreContext): WebhookHandlers {
  const act = async <T>(work: (session: Session) => Promise<T>): Promise<T> => {
    const session = await ctx.session();
    if (!session.client) throw new QuaysideError('key_refused', session.noKeyMessage);
    try {
      return await work(session);
    } catch (error) {
      throw toActionError(error);
    }
  };
  return {
    'webhooks:create': ({ url, active, events }) =>
      act(async (session) => {
        const doc = await session.client!.post(
          '/webhooks',
          { data: { type: 'webhook', attributes: { url, active, events } } },
          { priority: 'user' },
        );
        keep(session, doc);
        webhooksChanged(session.db);
        ctx.events.emit('data:changed');
        const { secret, ...webhook } = rowOf(doc);
        return { webhook, secret: secret ?? '' };
      }),
    'webhooks:update': ({ id, ...changes }) =>
      act(async (session) => {
        const doc = await session.client!.patch(
          `/webhooks/${encodeURIComponent(id)}`,
          { data: { type: 'webhook', id, attributes: changes } },
          { priority: 'user', idempotent: true },
        );
        keep(session, doc);
        webhooksChanged(session.db);
        ctx.events.emit('data:changed');
        const { secret: _secret, ...webhook } = rowOf(doc);
        return webhook;
      }),
    'webhooks:notifications': async () => {
      const session = await ctx.session();
      let error: string | null = null;
      if (session.client) {
        try {
          keep(
            session,
            await session.client.get('/webhook_notifications', { query: { 'page[size]': 100 }, priority: 'user' }),
          );
        } catch (caught) {
          error = toActionError(caught).message;
        }
      }
      const notifications = newestWebhookNotifications(session.db, 100).map((r): WebhookNotificationRow => ({
        id: r.id,
        webhookId: r.webhook_id,
        webhookUrl: r.webhook_url,
        event: r.event,
        deliveryStatus: deliveryStatuses.has(r.delivery_status ?? '')
          ? (r.delivery_status as WebhookNotificationRow['deliveryStatus'])
          : null,
        createdAt: r.created_at,
        referenceType: r.reference_type,
        referenceId: r.reference_id,
      }));
      return { notifications, error };
    },
  };
}
