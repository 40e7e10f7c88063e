import { describe, expect, it } from 'vitest';
import { isValidContainerNumber, isValidImo } from '../../src/shared/identifiers';
import { generateWorld } from '../../src/sandbox/generate';
import { call, useSandbox } from '../helpers/sandbox';

const DAY = 86_400;
const start = Date.parse('2026-06-15T12:00:00Z');

describe('sandbox data', () => {
  it('is the same for the same seed and different for another', () => {
    const a = generateWorld({ seed: 'alpha', shipments: 30, now: start });
    const b = generateWorld({ seed: 'alpha', shipments: 30, now: start });
    const c = generateWorld({ seed: 'beta', shipments: 30, now: start });
    const summary = (w: typeof a) => w.shipments.map((s) => [s.id, s.billOfLading, s.containers.map((x) => x.number)]);
    expect(summary(a)).toEqual(summary(b));
    expect(summary(a)).not.toEqual(summary(c));
  });

  it('looks real: valid container numbers and IMOs, 1–6 containers, timestamps around now', () => {
    const world = generateWorld({ seed: 'realism', shipments: 400, now: start });
    const containers = world.shipments.flatMap((s) => s.containers);
    expect(containers.every((c) => isValidContainerNumber(c.number))).toBe(true);
    expect(world.vessels.every((v) => isValidImo(v.data.imo))).toBe(true);
    const counts = world.shipments.map((s) => s.containers.length);
    expect(Math.min(...counts)).toBe(1);
    expect(Math.max(...counts)).toBe(6);
    expect(world.shipments.every((s) => s.createdAt <= start)).toBe(true);
    // Voyages spread over past and future: some not yet departed, some arrived.
    expect(world.shipments.some((s) => s.departedAt > start)).toBe(true);
    expect(world.shipments.some((s) => s.arrivedAt < start - 20 * DAY * 1000)).toBe(true);
    // North American rail legs, transshipments, holds and ETA slips all occur.
    expect(world.shipments.some((s) => s.rail !== null)).toBe(true);
    expect(world.shipments.some((s) => s.transshipment !== null)).toBe(true);
    expect(containers.some((c) => c.holds.length > 0)).toBe(true);
    expect(world.shipments.some((s) => s.etaRevisions.length > 1)).toBe(true);
    // Every failed reason appears among the requests that did not become shipments.
    const reasons = new Set(
      world.trackingRequests.flatMap((r) => r.transitions.map((t) => t.failedReason)).filter(Boolean),
    );
    expect(reasons.size).toBe(11);
  });
});

describe('sandbox lists', () => {
  const sandbox = useSandbox({ seed: 'lists', shipments: 130, start });

  it('pages with links and meta, caps the size at 100, and returns empty data past the end', async () => {
    const firstPage = await call(sandbox.get(), '/shipments');
    expect(firstPage.body.data).toHaveLength(30);
    expect(firstPage.body.meta).toEqual({ size: 30, total: 130 });
    expect(firstPage.body.links.next).toBe(`${sandbox.get().url}/shipments?page[number]=2&page[size]=30`);
    expect(firstPage.body.links.prev).toBeUndefined();
    const capped = await call(sandbox.get(), '/shipments?page[size]=500');
    expect(capped.body.data).toHaveLength(100);
    expect(capped.body.meta.size).toBe(100);
    const ids: string[] = [];
    let next: string | undefined = `/shipments?page[size]=100`;
    while (next) {
      const page = await call(sandbox.get(), next.replace(sandbox.get().url, ''));
      ids.push(...page.body.data.map((d: { id: string }) => d.id));
      next = page.body.links.next;
    }
    expect(ids).toHaveLength(130);
    expect(new Set(ids).size).toBe(130);
    const past = await call(sandbox.get(), '/shipments?page[number]=9&page[size]=100');
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
  });

  it('lists newest first', async () => {
    for (const path of ['/shipments', '/containers', '/tracking_requests']) {
      const created = (await call(sandbox.get(), `${path}?page[size]=100`)).body.data.map(
        (d: { attributes: { created_at: string } }) => Date.parse(d.attributes.created_at),
      );
      expect(created).toEqual([...created].sort((a, b) => b - a));
    }
  });

  it('includes exactly what the relationships point at, each once', async () => {
    const page = await call(sandbox.get(), '/shipments?page[size]=20&include=containers,pod_terminal');
    const wanted = new Set<string>();
    for (const s of page.body.data) {
      for (const c of s.relationships.containers.data) wanted.add(`container:${c.id}`);
      wanted.add(`terminal:${s.relationships.pod_terminal.data.id}`);
    }
    const got = page.body.included.map((r: { type: string; id: string }) => `${r.type}:${r.id}`);
    expect(new Set(got)).toEqual(wanted);
    expect(got).toHaveLength(wanted.size);
    const plain = await call(sandbox.get(), '/shipments?page[size]=5');
    expect(plain.body.included).toBeUndefined();
  });

  it('includes the tracked shipment of a request by default', async () => {
    const requests = await call(sandbox.get(), '/tracking_requests?filter[status]=created&page[size]=5');
    expect(requests.body.data.length).toBeGreaterThan(0);
    const tracked = requests.body.data.map(
      (r: { relationships: { tracked_object: { data: { id: string } } } }) => r.relationships.tracked_object.data.id,
    );
    expect(requests.body.included.map((r: { id: string }) => r.id).sort()).toEqual([...new Set(tracked)].sort());
  });

  it('filters tracking requests by number, status, scac and dates', async () => {
    const all = (await call(sandbox.get(), '/tracking_requests?page[size]=100')).body.data as {
      id: string;
      attributes: { request_number: string; status: string; scac: string; created_at: string; ref_numbers: string[] };
    }[];
    const target = all[7]!;
    const byNumber = await call(
      sandbox.get(),
      `/tracking_requests?filter[request_number]=${target.attributes.request_number}`,
    );
    expect(byNumber.body.data.map((d: { id: string }) => d.id)).toContain(target.id);
    expect(
      byNumber.body.data.every(
        (d: { attributes: { request_number: string } }) =>
          d.attributes.request_number === target.attributes.request_number,
      ),
    ).toBe(true);

    const failed = await call(sandbox.get(), '/tracking_requests?filter[status]=failed&page[size]=100');
    expect(failed.body.meta.total).toBeGreaterThanOrEqual(11);
    expect(
      failed.body.data.every(
        (d: { attributes: { status: string; failed_reason: string } }) =>
          d.attributes.status === 'failed' && d.attributes.failed_reason,
      ),
    ).toBe(true);

    const scac = target.attributes.scac;
    const byScac = await call(sandbox.get(), `/tracking_requests?filter[scac]=${scac}&page[size]=100`);
    expect(byScac.body.meta.total).toBe(
      all.filter((r) => r.attributes.scac === scac).length + (await countBeyondFirstPage(scac)),
    );

    const cutoff = all[20]!.attributes.created_at;
    const since = await call(sandbox.get(), `/tracking_requests?filter[created_at][start]=${cutoff}&page[size]=100`);
    expect(
      since.body.data.every((d: { attributes: { created_at: string } }) => d.attributes.created_at >= cutoff),
    ).toBe(true);
    expect(since.body.meta.total).toBeGreaterThanOrEqual(21);
  });

  async function countBeyondFirstPage(scac: string): Promise<number> {
    const rest = await call(sandbox.get(), '/tracking_requests?page[number]=2&page[size]=100');
    return rest.body.data.filter((r: { attributes: { scac: string } }) => r.attributes.scac === scac).length;
  }

  it('finds shipments by number and search term, and containers by number', async () => {
    const shipments = (await call(sandbox.get(), '/shipments?page[size]=100&include=containers')).body;
    const shipment = shipments.data[11];
    const bl = shipment.attributes.bill_of_lading_number as string;
    const byNumber = await call(sandbox.get(), `/shipments?number=${bl}`);
    expect(byNumber.body.data.map((d: { id: string }) => d.id)).toEqual([shipment.id]);
    const containerId = shipment.relationships.containers.data[0].id;
    const container = shipments.included.find((r: { id: string }) => r.id === containerId);
    const byQ = await call(sandbox.get(), `/shipments?q=${container.attributes.number}`);
    expect(byQ.body.data.map((d: { id: string }) => d.id)).toContain(shipment.id);
    const byContainer = await call(
      sandbox.get(),
      `/containers?filter[number]=${container.attributes.number}&include=shipment`,
    );
    expect(byContainer.body.data.map((d: { id: string }) => d.id)).toEqual([containerId]);
    expect(byContainer.body.included[0].id).toBe(shipment.id);
  });
});

describe('sandbox over simulated time', () => {
  const sandbox = useSandbox({ seed: 'evolve', shipments: 120, start });

  it('moves shipments on: new events, status changes, ETA changes and advancing updated_at', async () => {
    const snapshot = async () => {
      const containers = await call(sandbox.get(), '/containers?page[size]=100&include=transport_events');
      const shipments = await call(sandbox.get(), '/shipments?page[size]=100');
      const requests = await call(sandbox.get(), '/tracking_requests?page[size]=100');
      return {
        events: containers.body.included.length as number,
        statuses: new Map(
          containers.body.data.map((c: { id: string; attributes: { current_status: string } }) => [
            c.id,
            c.attributes.current_status,
          ]),
        ),
        etas: new Map(
          shipments.body.data.map((s: { id: string; attributes: { pod_eta_at: string | null } }) => [
            s.id,
            s.attributes.pod_eta_at,
          ]),
        ),
        updated: new Map(
          requests.body.data.map((r: { id: string; attributes: { updated_at: string } }) => [
            r.id,
            r.attributes.updated_at,
          ]),
        ),
      };
    };
    const before = await snapshot();
    const incrementalFrom = new Date(sandbox.get().clock.now()).toISOString();
    sandbox.get().advance(6 * DAY);
    const after = await snapshot();
    expect(after.events).toBeGreaterThan(before.events);
    const changedStatus = [...after.statuses].filter(([id, status]) => before.statuses.get(id) !== status);
    expect(changedStatus.length).toBeGreaterThan(5);
    const changedEta = [...after.etas].filter(([id, eta]) => before.etas.has(id) && before.etas.get(id) !== eta);
    expect(changedEta.length).toBeGreaterThan(0);
    const changedRequests = await call(
      sandbox.get(),
      `/tracking_requests?filter[updated_at][start]=${incrementalFrom}&page[size]=100`,
    );
    expect(changedRequests.body.meta.total).toBeGreaterThan(0);
    for (const r of changedRequests.body.data) expect(r.attributes.updated_at >= incrementalFrom).toBe(true);
  });

  it('sends an unchanged account as unchanged: no request updated since now', async () => {
    const now = new Date(sandbox.get().clock.now() + 1000).toISOString();
    const none = await call(sandbox.get(), `/tracking_requests?filter[updated_at][start]=${now}`);
    expect(none.body.data).toEqual([]);
    expect(none.body.meta.total).toBe(0);
  });
});

describe('sandbox writes', () => {
  const sandbox = useSandbox({ seed: 'writes', shipments: 40, start });
  const create = (attributes: Record<string, unknown>) =>
    call(sandbox.get(), '/tracking_requests', {
      method: 'POST',
      body: { data: { type: 'tracking_request', attributes } },
    });

  it('turns a new tracking request into a shipment after the line answers', async () => {
    const before = (await call(sandbox.get(), '/shipments')).body.meta.total as number;
    const created = await create({
      request_type: 'bill_of_lading',
      request_number: 'MEDUQ7000001',
      scac: 'MSCU',
      shipment_tags: ['new'],
    });
    expect(created.status).toBe(201);
    expect(created.body.data.attributes.status).toBe('pending');
    sandbox.get().advance(120);
    const resolved = await call(sandbox.get(), `/tracking_requests/${created.body.data.id}`);
    expect(resolved.body.data.attributes.status).toBe('created');
    const shipmentId = resolved.body.data.relationships.tracked_object.data.id;
    expect(resolved.body.included[0]).toMatchObject({ id: shipmentId, type: 'shipment' });
    expect(resolved.body.included[0].attributes).toMatchObject({
      bill_of_lading_number: 'MEDUQ7000001',
      tags: ['new'],
    });
    const after = await call(sandbox.get(), '/shipments');
    expect(after.body.meta.total).toBe(before + 1);
    expect(after.body.data[0].id).toBe(shipmentId);
  });

  it('refuses a request for a number already tracked, naming it, and reports a bad container number as invalid', async () => {
    const existing = (await call(sandbox.get(), '/tracking_requests?filter[status]=created')).body.data[0];
    const duplicate = await create({
      request_type: existing.attributes.request_type,
      request_number: existing.attributes.request_number,
      scac: existing.attributes.scac,
    });
    expect(duplicate.status).toBe(422);
    expect(duplicate.body.errors[0]).toMatchObject({
      code: 'duplicate',
      meta: { tracking_request_id: existing.id },
    });

    const badBox = await create({ request_type: 'container', request_number: 'MSCU1234560', scac: 'MSCU' });
    sandbox.get().advance(120);
    const failed = await call(sandbox.get(), `/tracking_requests/${badBox.body.data.id}`);
    expect(failed.body.data.attributes).toMatchObject({ status: 'failed', failed_reason: 'invalid_number' });
  });

  it('stops tracking: the shipment freezes and its request says tracking_stopped, until resumed', async () => {
    const moving = (await call(sandbox.get(), '/shipments?page[size]=100')).body.data.find(
      (s: {
        attributes: { pod_ata_at: string | null; pol_atd_at: string | null; line_tracking_stopped_at: string | null };
      }) => s.attributes.pol_atd_at && !s.attributes.pod_ata_at && !s.attributes.line_tracking_stopped_at,
    );
    const stopped = await call(sandbox.get(), `/shipments/${moving.id}/stop_tracking`, { method: 'PATCH' });
    expect(stopped.body.data.attributes.line_tracking_stopped_reason).toBe('cancelled_by_user');
    const request = (
      await call(sandbox.get(), '/tracking_requests?filter[status]=tracking_stopped&page[size]=100')
    ).body.data.find(
      (r: { relationships: { tracked_object: { data: { id: string } | null } } }) =>
        r.relationships.tracked_object.data?.id === moving.id,
    );
    expect(request).toBeDefined();
    sandbox.get().advance(60 * DAY);
    const frozen = await call(sandbox.get(), `/shipments/${moving.id}`);
    expect(frozen.body.data.attributes.pod_ata_at).toBeNull();
    expect(
      (await call(sandbox.get(), '/shipments?filter[tracking_stopped]=true&page[size]=100')).body.data.map(
        (s: { id: string }) => s.id,
      ),
    ).toContain(moving.id);
    const resumed = await call(sandbox.get(), `/shipments/${moving.id}/resume_tracking`, { method: 'PATCH' });
    expect(resumed.body.data.attributes.pod_ata_at).not.toBeNull();
  });

  it('refuses a duplicate party name and a webhook without a URL', async () => {
    const party = (await call(sandbox.get(), '/parties')).body.data[0].attributes.company_name;
    const duplicate = await call(sandbox.get(), '/parties', {
      method: 'POST',
      body: { data: { attributes: { company_name: party } } },
    });
    expect(duplicate.status).toBe(422);
    expect(duplicate.body.errors[0].detail).toBe(`'${party}' already exists in Account`);
    const webhook = await call(sandbox.get(), '/webhooks', {
      method: 'POST',
      body: { data: { type: 'webhook', attributes: { active: true } } },
    });
    expect(webhook.status).toBe(422);
    expect(webhook.body.errors[0].source.pointer).toBe('/data/attributes/url');
  });
});

describe('sandbox details a careful client relies on', () => {
  const sandbox = useSandbox({ seed: 'details', shipments: 60, start });

  it('answers a malformed percent-escape in a path with 404, not a crash', async () => {
    for (const path of ['/shipments/%E0%A4%A', '/ports/%zz', '/containers/%']) {
      const response = await call(sandbox.get(), path);
      expect(response.status).toBe(404);
      expect(response.body.errors[0].status).toBe('404');
    }
  });

  it('keeps scac null while an auto-detected carrier is unknown, and when detection fails', async () => {
    const create = (number: string) =>
      call(sandbox.get(), '/tracking_requests', {
        method: 'POST',
        body: {
          data: {
            type: 'tracking_request',
            attributes: { request_type: 'bill_of_lading', request_number: number, auto_detect_vocc_scac: true },
          },
        },
      });
    const unknown = await create('QQ12345678');
    const known = await create('MEDUQ7766554');
    expect(unknown.body.data.attributes.scac).toBeNull();
    expect(known.body.data.attributes.scac).toBeNull();
    expect(known.headers.get('location')).toBe(`${sandbox.get().url}/tracking_requests/${known.body.data.id}`);
    sandbox.get().advance(120);
    const failed = await call(sandbox.get(), `/tracking_requests/${unknown.body.data.id}`);
    expect(failed.body.data.attributes).toMatchObject({
      status: 'failed',
      failed_reason: 'scac_auto_detect_failed',
      scac: null,
    });
    const detected = await call(sandbox.get(), `/tracking_requests/${known.body.data.id}`);
    expect(detected.body.data.attributes).toMatchObject({ status: 'created', scac: 'MSCU' });
  });

  it('requires data.type on a new tracking request and attributes on a shipment edit', async () => {
    const noType = await call(sandbox.get(), '/tracking_requests', {
      method: 'POST',
      body: { data: { attributes: { request_type: 'bill_of_lading', request_number: 'MEDU1234567', scac: 'MSCU' } } },
    });
    expect(noType.status).toBe(422);
    expect(noType.body.errors[0].source.pointer).toBe('/data/type');
    const shipment = (await call(sandbox.get(), '/shipments')).body.data[0];
    const empty = await call(sandbox.get(), `/shipments/${shipment.id}`, {
      method: 'PATCH',
      body: { data: { type: 'shipment' } },
    });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0].source.pointer).toBe('/data/attributes');
  });

  it('keeps webhook headers, refuses repeated events, and gives each webhook an unguessable secret', async () => {
    const create = (attributes: Record<string, unknown>) =>
      call(sandbox.get(), '/webhooks', {
        method: 'POST',
        body: {
          data: { type: 'webhook', attributes: { url: 'https://h.example.com/x', active: true, ...attributes } },
        },
      });
    const a = await create({ headers: [{ name: 'x-probe', value: '1' }] });
    expect(a.body.data.attributes.headers).toEqual([{ name: 'x-probe', value: '1' }]);
    const b = await create({});
    expect(a.body.data.attributes.secret).toMatch(/^whsec_[0-9a-f]{36}$/);
    expect(b.body.data.attributes.secret).not.toBe(a.body.data.attributes.secret);
    const repeated = await create({ events: ['container.created', 'container.created'] });
    expect(repeated.status).toBe(422);
  });

  it('serves one webhook notification by id, and the webhook event categories', async () => {
    const list = await call(sandbox.get(), '/webhook_notifications');
    const one = await call(sandbox.get(), `/webhook_notifications/${list.body.data[0].id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(list.body.data[0]);
    const categories = await call(sandbox.get(), '/webhooks/events');
    expect(categories.body.data.map((c: { type: string }) => c.type)).toEqual(Array(4).fill('webhook_event_category'));
    expect(
      categories.body.data.flatMap((c: { attributes: { events: { name: string }[] } }) =>
        c.attributes.events.map((e) => e.name),
      ),
    ).toContain('tracking_request.succeeded');
  });

  it('gives pickup_lfd the line’s deadline first, as the service coalesces them', async () => {
    const containers = (await call(sandbox.get(), '/containers?page[size]=100')).body.data as {
      attributes: Record<string, unknown> & { import_deadlines: Record<string, string | null> | null };
    }[];
    const withLfd = containers.filter((c) => c.attributes.pickup_lfd);
    expect(withLfd.length).toBeGreaterThan(0);
    // As on the live service, some boxes come without their deadlines (pickup_lfd still says the day).
    expect(withLfd.some((c) => c.attributes.import_deadlines === null)).toBe(true);
    for (const c of withLfd) {
      const d = c.attributes.import_deadlines;
      if (d === null) continue;
      expect(c.attributes.pickup_lfd).toBe(d.pickup_lfd_line ?? d.pickup_lfd_terminal ?? d.pickup_lfd_rail);
      // The line's own last free day is its deadline.
      expect(c.attributes.ssl_lfd).toBe(d.pickup_lfd_line);
    }
  });
});
