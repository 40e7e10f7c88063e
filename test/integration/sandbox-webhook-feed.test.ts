/**
 * The sandbox's webhook notifications follow its world: once its clock moves,
 * each active webhook is notified of every change it subscribed to, newest first, each naming
 * its `reference_object` as the reference describes it, the list checked against the reference.
 */
import { describe, expect, it } from 'vitest';
import { validateResponse } from '../helpers/contract';
import { call, useSandbox } from '../helpers/sandbox';

const HOUR = 3600;

interface Resource {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: { id: string; type: string } | null }>;
}

describe('sandbox webhook notifications as the world changes', () => {
  const sandbox = useSandbox({
    seed: 'webhook-feed',
    shipments: 300,
    start: Date.parse('2026-05-11T08:00:00Z'),
    tick: 0,
  });

  it('notifies a webhook of what changed after it was made, naming each change as the reference does', async () => {
    const sb = sandbox.get();
    const listed = async () => {
      const out: Resource[] = [];
      const included: Resource[] = [];
      for (let page = 1; ; page++) {
        const r = await call(sb, `/webhook_notifications?page[size]=100&page[number]=${page}&include=reference_object`);
        expect(r.status).toBe(200);
        expect(validateResponse('GET', '/webhook_notifications', 200, r.body)).toEqual([]);
        out.push(...(r.body.data as Resource[]));
        included.push(...((r.body.included ?? []) as Resource[]));
        if ((r.body.data as Resource[]).length < 100) return { data: out, included };
      }
    };
    const history = (await listed()).data.length;
    const hook = await call(sb, '/webhooks', {
      method: 'POST',
      body: { data: { type: 'webhook', attributes: { url: 'https://hooks.example.com/all', active: true } } },
    });
    expect(hook.status).toBe(201);
    const hookId = hook.body.data.id as string;
    // Nothing happened since it was made.
    expect((await listed()).data.filter((n) => n.relationships?.webhook?.data?.id === hookId)).toEqual([]);

    sb.advance(36 * HOUR);
    const { data, included } = await listed();
    const ours = data.filter((n) => n.relationships?.webhook?.data?.id === hookId);
    expect(data.length).toBeGreaterThan(history + ours.length - 1);
    const events = new Set(ours.map((n) => n.attributes.event));
    for (const event of [
      'container.transport.vessel_arrived',
      'container.transport.vessel_discharged',
      'shipment.estimated.arrival',
      'container.transport.estimated.vessel_departed',
      'container.updated',
    ]) {
      expect(events, event).toContain(event);
    }
    // Newest first, each after the webhook was made and no later than now.
    const times = ours.map((n) => Date.parse(n.attributes.created_at as string));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const made = Date.parse(hook.body.data.attributes.created_at);
    const now = sb.clock.now();
    expect(times.every((t) => t >= made - 1000 && t <= now)).toBe(true);
    // Each names its reference object, included, which names the shipment or container it is about.
    const byKey = new Map(included.map((r) => [`${r.type}:${r.id}`, r]));
    const kinds = new Set<string>();
    for (const n of ours) {
      const ref = n.relationships?.reference_object?.data;
      expect(ref, n.attributes.event as string).toBeTruthy();
      const object = byKey.get(`${ref!.type}:${ref!.id}`);
      expect(object, `${ref!.type} ${ref!.id}`).toBeDefined();
      kinds.add(ref!.type);
      const about =
        object!.relationships?.shipment?.data ??
        object!.relationships?.container?.data ??
        object!.relationships?.tracked_object?.data;
      if (ref!.type !== 'tracking_request') expect(about, ref!.type).toBeTruthy();
    }
    expect([...kinds].sort()).toEqual([
      'container_updated_event',
      'estimated_event',
      'tracking_request',
      'transport_event',
    ]);
    const update = included.find((r) => r.type === 'container_updated_event')!;
    expect(Object.keys(update.attributes.changeset as object).length).toBeGreaterThan(0);

    // One notification by id, as listed.
    const one = await call(sb, `/webhook_notifications/${ours[0]!.id}`);
    expect(one.status).toBe(200);
    expect(validateResponse('GET', '/webhook_notifications/{id}', 200, one.body)).toEqual([]);
    expect(one.body.data).toMatchObject({ id: ours[0]!.id, attributes: ours[0]!.attributes });
  });

  it('notifies a webhook only of the events it hears, and an inactive one of nothing', async () => {
    const sb = sandbox.get();
    const make = async (attributes: Record<string, unknown>) => {
      const r = await call(sb, '/webhooks', { method: 'POST', body: { data: { type: 'webhook', attributes } } });
      expect(r.status).toBe(201);
      return r.body.data.id as string;
    };
    const arrivals = await make({
      url: 'https://hooks.example.com/arrivals',
      active: true,
      events: ['container.transport.vessel_arrived'],
    });
    const paused = await make({ url: 'https://hooks.example.com/paused', active: false });
    sb.advance(24 * HOUR);
    // Every page: the notifications of the other tests' webhooks come first when they are newer.
    const notifications: Resource[] = [];
    for (let page = 1; ; page++) {
      const r = await call(sb, `/webhook_notifications?page[size]=100&page[number]=${page}`);
      expect(r.status).toBe(200);
      notifications.push(...(r.body.data as Resource[]));
      if ((r.body.data as Resource[]).length < 100) break;
    }
    const byHook = (id: string) => notifications.filter((n) => n.relationships?.webhook?.data?.id === id);
    expect(byHook(arrivals).length).toBeGreaterThan(0);
    expect(new Set(byHook(arrivals).map((n) => n.attributes.event))).toEqual(
      new Set(['container.transport.vessel_arrived']),
    );
    expect(byHook(paused)).toEqual([]);
  });
});
