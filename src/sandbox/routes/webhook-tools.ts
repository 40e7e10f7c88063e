/**
 * Webhook helpers beside the webhooks themselves: the addresses notifications come from, an
 * example notification of each event, and a test delivery.
 */
import { eventNames } from '../event-names';
import { containerStateCached } from '../entity';
import { HttpError, listDocument, unprocessable, type Reply, type RouteContext } from '../http';
import type { NotificationReference, WebhookNotificationRec, WebhookRec } from '../model';
import { stableUuid } from '../random';
import { serialize } from '../serialize';
import { webhookEvents } from '../webhook-events';

/** The events the examples cover: those a webhook subscribes to, and the documents' extraction. */
export const exampleEvents: readonly string[] = [...webhookEvents, 'document.extracted', 'document.extraction_failed'];

/**
 * `GET /webhooks/ips`: where notifications come from. The sandbox sends none over the network, so
 * its one address is loopback, the only one it listens on.
 */
export function listWebhookIps(route: RouteContext): Reply {
  return {
    status: 200,
    body: {
      webhook_notification_ips: ['127.0.0.1'],
      last_updated: new Date(route.store.world.startedAt).toISOString(),
    },
  };
}

function eventParam(route: RouteContext): string {
  const event = route.url.searchParams.get('event');
  // The live service answers a missing or unknown event with a bare 400 naming the parameter.
  if (event === null || !exampleEvents.includes(event)) {
    throw new HttpError(400, [
      {
        status: '400',
        title: 'Bad Request',
        detail: event === null ? 'event is required' : `event must be one of the webhook events`,
        source: { parameter: 'event' },
      },
    ]);
  }
  return event;
}

/** What an example of `event` is about, drawn from the account as it is now; null for documents' events. */
function exampleReference(route: RouteContext, event: string): NotificationReference | null {
  const { store, ctx } = route;
  const now = ctx.now;
  const seed = store.world.seed;
  const shipment = store.shipments.find((s) => s.createdAt <= now);
  const container = store.containers.find((c) => c.createdAt <= now);
  if (event.startsWith('tracking_request.')) {
    const request = store.trackingRequests.find((r) => r.createdAt <= now);
    return request ? { type: 'tracking_request', rec: request } : null;
  }
  if (event === 'shipment.estimated.arrival' || event.startsWith('container.transport.estimated.')) {
    if (!shipment) return null;
    const inland = event.endsWith('arrived_at_inland_destination');
    const rec = {
      id: stableUuid(seed, `estimated_event:example:${event}`),
      event,
      shipment,
      estimatedAt: shipment.etaRevisions.at(-1)?.eta ?? null,
      port: inland ? shipment.destination : event.endsWith('departed') ? shipment.pol : shipment.pod,
      createdAt: now,
    };
    return { type: 'estimated_event', rec };
  }
  if (event.startsWith('container.transport.')) {
    // A container whose known events hold one of this name, if any does.
    for (const c of store.containers) {
      if (c.createdAt > now) continue;
      const found = containerStateCached(c, ctx).events.find((e) => eventNames[e.milestone.key] === event);
      if (found) return { type: 'transport_event', container: c, eventId: found.milestone.id };
    }
  }
  if (event.startsWith('container.') && container) {
    return {
      type: 'container_updated_event',
      rec: { id: stableUuid(seed, `container_updated_event:example:${event}`), container, timestamp: now },
    };
  }
  return null;
}

function exampleWebhook(route: RouteContext, event: string): WebhookRec {
  return (
    route.store.world.webhooks[0] ?? {
      id: stableUuid(route.store.world.seed, 'webhook:example'),
      url: 'https://webhooks.example.com/terminal49',
      active: true,
      events: [event],
      secret: 'whsec_example',
      headers: null,
      createdAt: route.ctx.now,
    }
  );
}

function exampleOf(route: RouteContext, event: string): WebhookNotificationRec | null {
  const reference = exampleReference(route, event);
  if (!reference) return null;
  return {
    id: stableUuid(route.store.world.seed, `webhook_notification:example:${event}`),
    webhook: exampleWebhook(route, event),
    event,
    deliveryStatus: 'pending',
    reference,
    createdAt: route.ctx.now,
  };
}

/**
 * `GET /webhook_notifications/examples?event=`: one notification of that event, as the account's
 * data would send it (none for documents' events: the sandbox extracts no documents).
 */
export function listWebhookNotificationExamples(route: RouteContext): Reply {
  const example = exampleOf(route, eventParam(route));
  return listDocument(route, example ? [{ type: 'webhook_notification', rec: example }] : [], 'webhook_notification');
}

/**
 * `POST /webhooks/trigger`: a test delivery. The sandbox makes no outbound requests, so the
 * answer says what would have been sent and that nothing was.
 */
export function triggerWebhook(route: RouteContext): Reply {
  const body = (typeof route.body === 'object' && route.body !== null ? route.body : {}) as Record<string, unknown>;
  const problems: { pointer: string; detail: string; code?: string }[] = [];
  let url: string | null = null;
  if (typeof body.url !== 'string' || body.url.trim() === '') {
    problems.push({ pointer: '/url', detail: 'url is required', code: 'blank' });
  } else {
    try {
      if (['https:', 'http:'].includes(new URL(body.url).protocol)) url = body.url;
    } catch {
      url = null;
    }
    if (url === null) problems.push({ pointer: '/url', detail: 'url must be an http(s) URL', code: 'invalid' });
  }
  const event = body.event;
  if (typeof event !== 'string' || !exampleEvents.includes(event)) {
    problems.push({
      pointer: '/event',
      detail: event === undefined ? 'event is required' : 'event must be one of the webhook events',
      code: event === undefined ? 'blank' : 'inclusion',
    });
  }
  if (body.secret !== undefined && typeof body.secret !== 'string') {
    problems.push({ pointer: '/secret', detail: 'secret must be text', code: 'invalid' });
  }
  if (problems.length > 0) throw unprocessable(problems);
  const example = exampleOf(route, event as string);
  const payload = example ? { data: serialize({ type: 'webhook_notification', rec: example }, route.ctx) } : {};
  return {
    status: 200,
    body: {
      url,
      succeeded: false,
      error: 'The sandbox delivers no webhooks; the request below was not sent',
      status_code: null,
      request_headers: { 'Content-Type': 'application/json', 'User-Agent': 'Terminal49 Webhook Bot' },
      request_body: JSON.stringify(payload),
      response_headers: null,
      response_body: null,
    },
  };
}
