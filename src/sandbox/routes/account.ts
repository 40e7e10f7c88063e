import { randomBytes } from 'node:crypto';
import {
  bodyData,
  listDocument,
  notFound,
  resourceDocument,
  unprocessable,
  type Reply,
  type RouteContext,
} from '../http';
import type { PartyRec } from '../model';
import type { Entity } from '../serialize';
import { webhookEvents } from '../webhook-events';
import { webhookNotificationsAt } from '../webhook-feed';

export function listParties(route: RouteContext): Reply {
  const now = route.ctx.now;
  const items = route.store.world.parties
    .filter((p) => p.createdAt <= now)
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((rec): Entity => ({ type: 'party', rec }));
  return listDocument(route, items, 'party', { defaultSize: 25 });
}

export function getParty(route: RouteContext): Reply {
  const party = route.store.partyById.get(route.params[0]!);
  if (!party || party.createdAt > route.ctx.now) throw notFound('Party');
  return resourceDocument(route, { type: 'party', rec: party }, { selfLink: true });
}

/** A party's company name as sent: there, and no other party's (422 with its pointer otherwise). */
function companyName(route: RouteContext, attributes: Record<string, unknown>, self?: PartyRec): string {
  const name = typeof attributes.company_name === 'string' ? attributes.company_name.trim() : '';
  if (name === '') {
    throw unprocessable([
      { pointer: '/data/attributes/company_name', detail: "Company name can't be blank", code: 'blank' },
    ]);
  }
  if (route.store.world.parties.some((p) => p !== self && p.companyName.toLowerCase() === name.toLowerCase())) {
    throw unprocessable([
      {
        pointer: '/data/attributes/company_name',
        detail: `'${name.slice(0, 100)}' already exists in Account`,
        code: 'taken',
      },
    ]);
  }
  return name;
}

export function createParty(route: RouteContext): Reply {
  const { attributes } = bodyData(route, 'party');
  const party = route.store.addParty(companyName(route, attributes), route.ctx.now);
  const reply = resourceDocument(route, { type: 'party', rec: party }, { status: 201 });
  (reply.body as Record<string, unknown>).links = { self: `/v2/parties/${party.id}` };
  reply.headers = { location: `${route.origin}/v2/parties/${party.id}` };
  return reply;
}

/** PATCH /parties/{id}: the company name. */
export function editParty(route: RouteContext): Reply {
  const party = route.store.partyById.get(route.params[0]!);
  if (!party || party.createdAt > route.ctx.now) throw notFound('Party');
  const { attributes } = bodyData(route, 'party', { attributesRequired: true });
  party.companyName = companyName(route, attributes, party);
  return resourceDocument(route, { type: 'party', rec: party }, { selfLink: true });
}

export function listEmailSubmissions(route: RouteContext): Reply {
  const items = route.store.world.emailSubmissions
    .filter((m) => m.createdAt <= route.ctx.now)
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((rec): Entity => ({ type: 'email_submission', rec }));
  return listDocument(route, items, 'email_submission', {
    defaultInclude: ['documents', 'documents.last_document_representation'],
  });
}

export function getEmailSubmission(route: RouteContext): Reply {
  const submission = route.store.world.emailSubmissions.find((m) => m.id === route.params[0]);
  if (!submission || submission.createdAt > route.ctx.now) throw notFound('EmailSubmission');
  return resourceDocument(
    route,
    { type: 'email_submission', rec: submission },
    { defaultInclude: ['documents', 'documents.last_document_representation'], selfLink: true },
  );
}

export function listWebhooks(route: RouteContext): Reply {
  const items = route.store.world.webhooks.map((rec): Entity => ({ type: 'webhook', rec }));
  return listDocument(route, items, 'webhook');
}

function findWebhook(route: RouteContext) {
  const webhook = route.store.world.webhooks.find((w) => w.id === route.params[0]);
  if (!webhook) throw notFound('Webhook');
  return webhook;
}

export function getWebhook(route: RouteContext): Reply {
  return resourceDocument(route, { type: 'webhook', rec: findWebhook(route) });
}

interface WebhookChanges {
  url?: string;
  active?: boolean;
  events?: string[];
  headers?: { name: string; value: string }[] | null;
}

/**
 * A webhook's attributes as sent, checked as the service checks them; every problem is named at
 * once (422). On create `url` and `active` are required; on edit every attribute is optional.
 */
function webhookChanges(attributes: Record<string, unknown>, creating: boolean): WebhookChanges {
  const problems: { pointer: string; detail: string; code?: string }[] = [];
  const changes: WebhookChanges = {};
  const url = attributes.url;
  if (creating || url !== undefined) {
    let valid = false;
    if (typeof url === 'string') {
      try {
        valid = ['https:', 'http:'].includes(new URL(url).protocol);
      } catch {
        valid = false;
      }
    }
    if (!valid)
      problems.push({ pointer: '/data/attributes/url', detail: 'Url must be a valid http(s) URL', code: 'invalid' });
    else changes.url = url as string;
  }
  if (creating || attributes.active !== undefined) {
    if (typeof attributes.active !== 'boolean') {
      problems.push({ pointer: '/data/attributes/active', detail: 'Active must be true or false', code: 'blank' });
    } else changes.active = attributes.active;
  }
  if (attributes.events !== undefined) {
    const list = attributes.events;
    if (
      !Array.isArray(list) ||
      list.length === 0 ||
      !list.every((e) => typeof e === 'string' && webhookEvents.includes(e))
    ) {
      problems.push({
        pointer: '/data/attributes/events',
        detail: 'Events must be a non-empty list of known events',
        code: 'inclusion',
      });
    } else if (new Set(list).size !== list.length) {
      problems.push({ pointer: '/data/attributes/events', detail: 'Events must not repeat', code: 'taken' });
    } else {
      changes.events = list as string[];
    }
  }
  if (attributes.headers !== undefined) {
    const list: unknown = attributes.headers;
    const isHeader = (h: unknown): h is { name: string; value: string } =>
      typeof h === 'object' &&
      h !== null &&
      typeof (h as { name?: unknown }).name === 'string' &&
      typeof (h as { value?: unknown }).value === 'string';
    if (list === null) changes.headers = null;
    else if (!Array.isArray(list) || !list.every(isHeader)) {
      problems.push({
        pointer: '/data/attributes/headers',
        detail: 'Headers must be a list of {name, value}',
        code: 'invalid',
      });
    } else {
      changes.headers = list.map((h) => ({ name: h.name, value: h.value }));
    }
  }
  if (problems.length > 0) throw unprocessable(problems);
  return changes;
}

export function createWebhook(route: RouteContext): Reply {
  const { attributes } = bodyData(route, 'webhook', { typeRequired: true });
  const changes = webhookChanges(attributes, true);
  const webhook = route.store.addWebhook({
    url: changes.url!,
    active: changes.active!,
    events: changes.events ?? [...webhookEvents],
    secret: `whsec_${randomBytes(18).toString('hex')}`,
    headers: changes.headers ?? null,
    createdAt: route.ctx.now,
  });
  const reply = resourceDocument(route, { type: 'webhook', rec: webhook }, { status: 201 });
  reply.headers = { location: `${route.origin}/v2/webhooks/${webhook.id}` };
  return reply;
}

/** `PATCH /webhooks/{id}`: url, active, events and headers; the secret never changes. */
export function editWebhook(route: RouteContext): Reply {
  const webhook = findWebhook(route);
  const { attributes } = bodyData(route, 'webhook', { typeRequired: true, attributesRequired: true });
  Object.assign(webhook, webhookChanges(attributes, false));
  return resourceDocument(route, { type: 'webhook', rec: webhook });
}

export function deleteWebhook(route: RouteContext): Reply {
  const webhook = findWebhook(route);
  const list = route.store.world.webhooks;
  list.splice(list.indexOf(webhook), 1);
  return { status: 200 };
}

/** Newest first: the generated history, then what the world's changes sent each active webhook (`webhook-feed.ts`). */
export function listWebhookNotifications(route: RouteContext): Reply {
  const items = webhookNotificationsAt(route.store, route.ctx.now).map((rec): Entity => ({
    type: 'webhook_notification',
    rec,
  }));
  return listDocument(route, items, 'webhook_notification');
}

export function getWebhookNotification(route: RouteContext): Reply {
  const notification = webhookNotificationsAt(route.store, route.ctx.now).find((n) => n.id === route.params[0]);
  if (!notification) throw notFound('WebhookNotification');
  return resourceDocument(route, { type: 'webhook_notification', rec: notification });
}

const eventGroups: [prefix: string, id: string, name: string][] = [
  ['tracking_request.', 'tracking-request-events', 'Tracking Request Events'],
  ['shipment.', 'shipment-events', 'Shipment Events'],
  ['container.transport.', 'container-transport-events', 'Container Transport Events'],
  ['container.', 'container-events', 'Container Events'],
];

/** The events a webhook may subscribe to, grouped by what they are about. */
export function listWebhookEventCategories(): Reply {
  const data = eventGroups.map(([prefix, id, name]) => {
    const taken = new Set(eventGroups.filter(([p]) => p !== prefix && p.startsWith(prefix)).map(([p]) => p));
    const events = webhookEvents.filter((e) => e.startsWith(prefix) && ![...taken].some((p) => e.startsWith(p)));
    return {
      id,
      type: 'webhook_event_category',
      attributes: {
        name,
        events: events.map((event) => ({
          name: event,
          description: `Sent when ${event.slice(prefix.length).replaceAll('.', ' ').replaceAll('_', ' ')} happens.`,
        })),
      },
    };
  });
  return { status: 200, body: { data } };
}
