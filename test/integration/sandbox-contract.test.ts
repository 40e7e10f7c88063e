import { describe, expect, it } from 'vitest';
import { validateErrorBody, validateResponse } from '../helpers/contract';
import { call, useSandbox, type ApiResponse } from '../helpers/sandbox';
import { liveRateLimits } from '../../src/shared/rate-buckets';

// Every endpoint the app uses, over HTTP, each response checked against the reference's schema
// for that operation and status (extra attributes tolerated).
const sandbox = useSandbox({
  seed: 'contract',
  shipments: 80,
  routing: true,
});

function expectContract(method: string, template: string, response: ApiResponse, status = 200): void {
  expect(response.status, response.text.slice(0, 300)).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/vnd.api+json');
  expect(validateResponse(method, template, status, response.body)).toEqual([]);
}

function expectError(response: ApiResponse, status: number): void {
  expect(response.status, response.text.slice(0, 300)).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/vnd.api+json');
  expect(validateErrorBody(response.body)).toEqual([]);
  expect(response.body.errors[0].status).toBe(String(status));
}

async function first(path: string, type: string): Promise<{ id: string; attributes: Record<string, unknown> }> {
  const response = await call(sandbox.get(), path);
  const item = (response.body.data as { id: string; type: string; attributes: Record<string, unknown> }[]).find(
    (d) => d.type === type,
  );
  if (!item) throw new Error(`no ${type} at ${path}`);
  return item;
}

describe('sandbox contract: the eight endpoints the app uses first', () => {
  it('GET /tracking_requests', async () => {
    const response = await call(sandbox.get(), '/tracking_requests?page[size]=50');
    expectContract('GET', '/tracking_requests', response);
    expect(response.body.data).toHaveLength(50);
    expect(response.body.included.length).toBeGreaterThan(0);
  });

  it('PATCH /shipments/{id} with application/json', async () => {
    const shipment = await first('/shipments', 'shipment');
    const response = await call(sandbox.get(), `/shipments/${shipment.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: { data: { attributes: { tags: ['hot', 'customs'], ref_numbers: ['PO-1'] } } },
    });
    expectContract('PATCH', '/shipments/{id}', response);
    expect(response.body.data.attributes).toMatchObject({ tags: ['hot', 'customs'], ref_numbers: ['PO-1'] });
  });

  it('GET /custom_field_definitions/{id}', async () => {
    const definition = await first('/custom_field_definitions', 'custom_field_definition');
    expectContract(
      'GET',
      '/custom_field_definitions/{id}',
      await call(sandbox.get(), `/custom_field_definitions/${definition.id}`),
    );
  });

  it('GET /email_submissions/{id}, with its documents included by default', async () => {
    const submission = await first('/email_submissions', 'email_submission');
    const response = await call(sandbox.get(), `/email_submissions/${submission.id}`);
    expectContract('GET', '/email_submissions/{id}', response);
    expect(new Set(response.body.included.map((r: { type: string }) => r.type))).toEqual(
      new Set(['document', 'document_representation']),
    );
  });

  it('GET /terminals/{id}', async () => {
    const shipment = await call(sandbox.get(), '/shipments?include=pod_terminal&page[size]=1');
    const terminal = shipment.body.included.find((r: { type: string }) => r.type === 'terminal');
    const response = await call(sandbox.get(), `/terminals/${terminal.id}`);
    expectContract('GET', '/terminals/{id}', response);
    expect(response.body.data.attributes.firms_code).toMatch(/^[A-Z]\d{3}$/);
  });

  it('GET /shipping_lines/{id}', async () => {
    const line = await first('/shipping_lines', 'shipping_line');
    expectContract('GET', '/shipping_lines/{id}', await call(sandbox.get(), `/shipping_lines/${line.id}`));
  });

  it('GET /parties/{id}', async () => {
    const party = await first('/parties', 'party');
    expectContract('GET', '/parties/{id}', await call(sandbox.get(), `/parties/${party.id}`));
  });

  it('DELETE /webhooks/{id} answers 200 and the webhook is gone', async () => {
    const created = await call(sandbox.get(), '/webhooks', {
      method: 'POST',
      body: { data: { type: 'webhook', attributes: { url: 'https://hooks.example.com/q', active: true } } },
    });
    expectContract('POST', '/webhooks', created, 201);
    const response = await call(sandbox.get(), `/webhooks/${created.body.data.id}`, { method: 'DELETE' });
    expect(response.status).toBe(200);
    expect(validateResponse('DELETE', '/webhooks/{id}', 200, response.body)).toEqual([]);
    expectError(await call(sandbox.get(), `/webhooks/${created.body.data.id}`), 404);
  });
});

describe('sandbox contract: the endpoints sync and the views need', () => {
  it('tracking requests: get, create and edit', async () => {
    const request = await first('/tracking_requests', 'tracking_request');
    expectContract('GET', '/tracking_requests/{id}', await call(sandbox.get(), `/tracking_requests/${request.id}`));
    const created = await call(sandbox.get(), '/tracking_requests', {
      method: 'POST',
      body: {
        data: {
          type: 'tracking_request',
          attributes: {
            request_type: 'bill_of_lading',
            request_number: 'MEDUQS1234567',
            scac: 'MSCU',
            ref_numbers: ['PO-9'],
          },
        },
      },
    });
    expectContract('POST', '/tracking_requests', created, 201);
    expect(created.body.data.attributes).toMatchObject({ status: 'pending', request_number: 'MEDUQS1234567' });
    const edited = await call(sandbox.get(), `/tracking_requests/${created.body.data.id}`, {
      method: 'PATCH',
      body: { data: { type: 'tracking_request', attributes: { ref_number: 'PO-10' } } },
    });
    expectContract('PATCH', '/tracking_requests/{id}', edited);
    expect(edited.body.data.attributes.ref_numbers).toEqual(['PO-10']);
  });

  it('shipments: list with every include, get, stop and resume tracking', async () => {
    const list = await call(
      sandbox.get(),
      '/shipments?page[size]=100&include=containers,port_of_lading,port_of_discharge,destination,pod_terminal',
    );
    expectContract('GET', '/shipments', list);
    // Rail shipments are bound for an inland metro area, the rest for their port of discharge.
    expect(new Set(list.body.included.map((r: { type: string }) => r.type))).toEqual(
      new Set(['container', 'port', 'metro_area', 'terminal']),
    );
    const id = list.body.data[3].id as string;
    expectContract('GET', '/shipments/{id}', await call(sandbox.get(), `/shipments/${id}?include=containers`));
    const stopped = await call(sandbox.get(), `/shipments/${id}/stop_tracking`, { method: 'PATCH' });
    expectContract('PATCH', '/shipments/{id}/stop_tracking', stopped);
    expect(stopped.body.data.attributes.line_tracking_stopped_reason).not.toBeNull();
    const resumed = await call(sandbox.get(), `/shipments/${id}/resume_tracking`, { method: 'PATCH' });
    expectContract('PATCH', '/shipments/{id}/resume_tracking', resumed);
    expect(resumed.body.data.attributes.line_tracking_stopped_at).toBeNull();
  });

  it('containers: list, get with includes, transport events and raw events', async () => {
    const list = await call(sandbox.get(), '/containers?page[size]=100&include=shipment');
    expectContract('GET', '/containers', list);
    const moved = list.body.data.find((c: { attributes: { current_status: string } }) =>
      ['available', 'picked_up', 'empty_returned'].includes(c.attributes.current_status),
    );
    const get = await call(sandbox.get(), `/containers/${moved.id}?include=shipment,pod_terminal,transport_events`);
    expectContract('GET', '/containers/{id}', get);
    const events = await call(
      sandbox.get(),
      `/containers/${moved.id}/transport_events?include=location,vessel,terminal`,
    );
    expectContract('GET', '/containers/{id}/transport_events', events);
    expect(events.body.data.length).toBeGreaterThan(3);
    const raw = await call(sandbox.get(), `/containers/${moved.id}/raw_events`);
    expectContract('GET', '/containers/{id}/raw_events', raw);
  });

  it('reference data: shipping lines, ports by id and UN/LOCODE, vessels by id and IMO', async () => {
    const lines = await call(sandbox.get(), '/shipping_lines');
    expectContract('GET', '/shipping_lines', lines);
    expect(lines.body.data.length).toBeGreaterThan(15);
    const byCode = await call(sandbox.get(), '/ports/USLAX');
    expectContract('GET', '/ports/{id}', byCode);
    expectContract('GET', '/ports/{id}', await call(sandbox.get(), `/ports/${byCode.body.data.id}`));
    const event = (await call(sandbox.get(), '/containers?page[size]=30&include=transport_events')).body.included.find(
      (r: { relationships?: { vessel?: { data: unknown } } }) => r.relationships?.vessel?.data,
    );
    const vesselId = event.relationships.vessel.data.id as string;
    const vessel = await call(sandbox.get(), `/vessels/${vesselId}`);
    expectContract('GET', '/vessels/{id}', vessel);
    expectContract('GET', '/vessels/{imo}', await call(sandbox.get(), `/vessels/${vessel.body.data.attributes.imo}`));
  });

  it('metro areas by id and UN/LOCODE, as rail shipments include them with their ramp and events locate them', async () => {
    const rail = await call(
      sandbox.get(),
      '/shipments?page[size]=100&filter[tracking_stopped]=false&include=destination,destination_terminal,containers',
    );
    expectContract('GET', '/shipments', rail);
    type Ref = { id: string; type: string };
    type Linked = 'destination' | 'destination_terminal' | 'metro_area' | 'containers' | 'location' | 'terminal';
    type Res = Ref & { attributes: Record<string, unknown>; relationships: Record<Linked, { data: Ref | null }> };
    const included = rail.body.included as Res[];
    const bound = (rail.body.data as Res[]).filter((s) => s.relationships.destination.data?.type === 'metro_area');
    const shipment = bound[0]!;
    const metro = included.find((r) => r.id === shipment.relationships.destination.data!.id)!;
    expect(metro).toMatchObject({ type: 'metro_area', attributes: { code: expect.stringMatching(/^[A-Z]{5}$/) } });
    expect(metro.attributes.time_zone).toMatch(/^America\//);
    const ramp = included.find((r) => r.id === shipment.relationships.destination_terminal.data!.id)!;
    expect(ramp.type).toBe('rail_terminal');
    expect(ramp.relationships.metro_area.data).toEqual({ type: 'metro_area', id: metro.id });

    const byCode = await call(sandbox.get(), `/metro_areas/${metro.attributes.code as string}`);
    expectContract('GET', '/metro_areas/{id}', byCode);
    expect(byCode.body.data).toEqual(metro);
    expectContract('GET', '/metro_areas/{id}', await call(sandbox.get(), `/metro_areas/${metro.id}`));
    expect((await call(sandbox.get(), '/metro_areas/CATOR')).body.data.attributes).toMatchObject({
      name: 'Toronto',
      country_code: 'CA',
      time_zone: 'America/Toronto',
    });
    // A port is no metro area and a metro area no port.
    expectError(await call(sandbox.get(), '/metro_areas/USLAX'), 404);
    expectError(await call(sandbox.get(), `/ports/${metro.id}`), 404);

    // The rail events at the ramp are located in the metro area, at its rail terminal.
    const located: Res[] = [];
    for (const s of bound) {
      const box = (s.relationships.containers.data as unknown as Ref[])[0];
      if (!box || located.length > 0) continue;
      const events = await call(sandbox.get(), `/containers/${box.id}/transport_events?include=location,terminal`);
      expectContract('GET', '/containers/{id}/transport_events', events);
      const atMetro = (events.body.data as Res[]).filter((ev) => ev.relationships.location.data?.type === 'metro_area');
      for (const ev of atMetro) {
        expect(ev.relationships.location.data!.id).toBe(s.relationships.destination.data!.id);
        const terminal = ev.relationships.terminal.data;
        if (terminal) expect(terminal).toEqual(s.relationships.destination_terminal.data);
      }
      if (atMetro.length > 0) expect((events.body.included as Res[]).map((r) => r.type)).toContain('metro_area');
      located.push(...atMetro);
    }
    expect(located.map((ev) => ev.attributes.event)).toContain('container.transport.rail_arrived');
  });

  it('parties: list and create', async () => {
    expectContract('GET', '/parties', await call(sandbox.get(), '/parties'));
    const created = await call(sandbox.get(), '/parties', {
      method: 'POST',
      body: { data: { type: 'party', attributes: { company_name: 'Harbourline Imports' } } },
    });
    expectContract('POST', '/parties', created, 201);
  });

  it('custom field definitions, email submissions, webhooks and notifications: lists and gets', async () => {
    expectContract('GET', '/custom_field_definitions', await call(sandbox.get(), '/custom_field_definitions'));
    expectContract('GET', '/email_submissions', await call(sandbox.get(), '/email_submissions'));
    const hooks = await call(sandbox.get(), '/webhooks');
    expectContract('GET', '/webhooks', hooks);
    expectContract('GET', '/webhooks/{id}', await call(sandbox.get(), `/webhooks/${hooks.body.data[0].id}`));
    const notifications = await call(sandbox.get(), '/webhook_notifications?include=webhook,reference_object');
    expectContract('GET', '/webhook_notifications', notifications);
    expect(notifications.body.data.length).toBeGreaterThan(0);
  });
});

describe('sandbox contract: routing, the paid feature', () => {
  it('serves a container at sea its map GeoJSON and its vessel future positions; 403 for both once the account loses routing', async () => {
    const list = await call(sandbox.get(), '/containers?page[size]=100');
    const atSea = list.body.data.find((c: { attributes: { current_status: string } }) =>
      ['on_ship', 'sailing'].includes(c.attributes.current_status),
    );
    expect(atSea, 'a container at sea').toBeDefined();
    const map = await call(sandbox.get(), `/containers/${atSea.id}/map_geojson`);
    expectContract('GET', '/containers/{id}/map_geojson', map);
    type Feature = { geometry: { type: string; coordinates: unknown[] }; properties: Record<string, unknown> };
    const features = map.body.features as Feature[];
    const kinds = features.map((f) => f.properties.feature_type);
    expect(kinds).toEqual(expect.arrayContaining(['port', 'past_vessel_locations', 'current_vessel']));
    const ports = features.filter((f) => f.properties.feature_type === 'port');
    expect(ports[0]!.properties.label).toBe('POL');
    expect(ports.at(-1)!.properties.label).toBe('POD');
    const vessel = features.find((f) => f.properties.feature_type === 'current_vessel')!.properties;
    expect(kinds).toContain('estimated_partial_leg');

    const future = await call(
      sandbox.get(),
      `/vessels/${String(vessel.vessel_id)}/future_positions?port_id=${String(vessel.arrival_port_id)}&previous_port_id=${String(vessel.departure_port_id)}`,
    );
    expectContract('GET', '/vessels/{id}/future_positions', future);
    expect(future.body.data.attributes.positions.length).toBeGreaterThan(1);
    const positionsFrom = await call(
      sandbox.get(),
      `/vessels/${String(vessel.vessel_id)}?show_positions[from_timestamp]=2020-01-01T00:00:00Z`,
    );
    expect(positionsFrom.status).toBe(200);

    sandbox.get().setEntitlement('routing', false);
    try {
      for (const path of [
        `/containers/${atSea.id}/map_geojson`,
        `/vessels/${String(vessel.vessel_id)}/future_positions?port_id=${String(vessel.arrival_port_id)}&previous_port_id=${String(vessel.departure_port_id)}`,
        `/vessels/${String(vessel.vessel_id)}?show_positions[from_timestamp]=2020-01-01T00:00:00Z`,
      ]) {
        const refused = await call(sandbox.get(), path);
        expectError(refused, 403);
        expect(refused.body.errors[0].detail).toBe('Routing data feature is not enabled for this account');
      }
      // The vessel itself is not paid for.
      expect((await call(sandbox.get(), `/vessels/${String(vessel.vessel_id)}`)).status).toBe(200);
    } finally {
      sandbox.get().setEntitlement('routing', true);
    }
    expectError(await call(sandbox.get(), '/containers/nope/map_geojson'), 404);
    expectError(await call(sandbox.get(), `/vessels/${String(vessel.vessel_id)}/future_positions`), 400);
  });
});

describe('sandbox contract: errors as the reference shows them', () => {
  it('401 for a missing or unknown key, sent as Token or as Bearer (both accepted with the right key)', async () => {
    const as = (authorization: string) => call(sandbox.get(), '/shipments', { key: null, headers: { authorization } });
    expectError(await call(sandbox.get(), '/shipments', { key: null }), 401);
    expectError(await call(sandbox.get(), '/shipments', { key: 'not-a-key' }), 401);
    expectError(await as('Bearer not-a-key'), 401);
    expectError(await as('Basic quayside-demo-key'), 401);
    expectError(await as('Bearer'), 401);
    expectContract('GET', '/shipments', await as('Token quayside-demo-key'));
    // The live service also takes the key as a bearer token.
    expectContract('GET', '/shipments', await as('Bearer quayside-demo-key'));
  });

  it('404 for unknown ids, naming the missing EmailSubmission', async () => {
    for (const path of [
      '/shipments/nope',
      '/containers/nope',
      '/tracking_requests/nope',
      '/ports/XXXXX',
      '/metro_areas/XXXXX',
      '/vessels/1234567',
      '/no_such_thing',
    ]) {
      expectError(await call(sandbox.get(), path), 404);
    }
    const missing = await call(sandbox.get(), '/email_submissions/00000000-0000-4000-8000-000000000000');
    expectError(missing, 404);
    expect(missing.body.errors[0].detail).toBe("Couldn't find EmailSubmission");
  });

  it('422 with source.pointer for bad tracking requests, each problem named', async () => {
    const bad = async (attributes: Record<string, unknown>) =>
      call(sandbox.get(), '/tracking_requests', {
        method: 'POST',
        body: { data: { type: 'tracking_request', attributes } },
      });
    const blank = await bad({});
    expectError(blank, 422);
    expect(validateResponse('POST', '/tracking_requests', 422, blank.body)).toEqual([]);
    expect(blank.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual([
      '/data/attributes/request_number',
      '/data/attributes/request_type',
      '/data/attributes/scac',
    ]);
    const unknownScac = await bad({ request_type: 'bill_of_lading', request_number: 'ABC123456', scac: 'XXXX' });
    expect(unknownScac.body.errors).toEqual([
      expect.objectContaining({
        source: { pointer: '/data/attributes/scac' },
        detail: "Scac 'XXXX' is not recognized",
      }),
    ]);
    const unsupported = await bad({ request_type: 'bill_of_lading', request_number: 'ABC123456', scac: 'UALC' });
    expect(unsupported.body.errors[0].detail).toMatch(
      /^Scac 'UALC' is not supported\. We do not currently integrate with /,
    );
    const badType = await bad({ request_type: 'pallet', request_number: 'ABC123456', scac: 'MSCU' });
    expect(badType.body.errors[0].source.pointer).toBe('/data/attributes/request_type');
  });

  it('400 for a bad include, filter or page, naming the parameter', async () => {
    const cases = [
      ['/shipments?include=vessel', 'include'],
      ['/containers?include=shipment.bogus', 'include'],
      ['/tracking_requests?filter[status]=lost', 'filter[status]'],
      ['/tracking_requests?filter[updated_at][start]=yesterday', 'filter[updated_at][start]'],
      ['/shipments?filter[tracking_stopped]=maybe', 'filter[tracking_stopped]'],
      ['/shipments?sort=color', 'sort'],
      ['/shipments?page[size]=0', 'page[size]'],
      ['/shipments?page[number]=-1', 'page[number]'],
    ] as const;
    for (const [path, parameter] of cases) {
      const response = await call(sandbox.get(), path);
      expectError(response, 400);
      expect(response.body.errors[0].source).toEqual({ parameter });
    }
  });

  it('422 for unknown shipment fields, 415 for a wrong content type, 400 for broken JSON', async () => {
    const shipment = await first('/shipments', 'shipment');
    const unknown = await call(sandbox.get(), `/shipments/${shipment.id}`, {
      method: 'PATCH',
      body: { data: { attributes: { bill_of_lading_number: 'X', tags: [] } } },
    });
    expectError(unknown, 422);
    expect(unknown.body.errors[0].source.pointer).toBe('/data/attributes/bill_of_lading_number');
    expectError(
      await call(sandbox.get(), `/shipments/${shipment.id}`, {
        method: 'PATCH',
        body: 'tags=x',
        headers: { 'content-type': 'text/plain' },
      }),
      415,
    );
    expectError(await call(sandbox.get(), `/shipments/${shipment.id}`, { method: 'PATCH', body: '{"data":' }), 400);
  });
});

describe('sandbox contract: rate limit', () => {
  const limited = useSandbox({ seed: 'limited', shipments: 5, rateLimit: { limit: 3, windowSeconds: 60 } });

  it('answers 429 with Retry-After once a key has used its window, and keeps other keys apart', async () => {
    for (let i = 0; i < 3; i++) expect((await call(limited.get(), '/shipping_lines')).status).toBe(200);
    const refused = await call(limited.get(), '/shipping_lines');
    expectError(refused, 429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(validateResponse('POST', '/tracking_requests', 429, refused.body)).toEqual([]);
    expect(limited.get().stats.rateLimited).toBe(1);
  });
});

describe('sandbox contract: separate rate buckets', () => {
  const buckets = useSandbox({
    seed: 'buckets',
    shipments: 5,
    rateLimit: { limit: 2, windowSeconds: 60 },
    rateBuckets: {
      create_tracking_request: { limit: 3, windowSeconds: 60 },
      refresh_container: liveRateLimits.refresh_container,
    },
  });
  const create = (n: number) =>
    call(buckets.get(), '/tracking_requests', {
      method: 'POST',
      body: {
        data: {
          type: 'tracking_request',
          attributes: { request_type: 'bill_of_lading', request_number: `MEDUB${n}000`, scac: 'MSCU' },
        },
      },
    });

  it('counts creates and refreshes each in its own window, apart from the overall one', async () => {
    for (let i = 0; i < 2; i++) expect((await call(buckets.get(), '/shipping_lines')).status).toBe(200);
    expectError(await call(buckets.get(), '/shipping_lines'), 429);
    // The overall bucket is full; creating still has its own.
    for (let i = 0; i < 3; i++) expect((await create(i)).status).toBe(201);
    const fourth = await create(3);
    expectError(fourth, 429);
    expect(fourth.body.errors[0].detail).toContain('limit of 3 requests per 60 seconds');
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    // Refreshing a container: 10 a minute, as the live service (an unknown container: 404).
    for (let i = 0; i < 10; i++) {
      expect((await call(buckets.get(), '/containers/x/refresh', { method: 'PATCH' })).status).toBe(404);
    }
    const refused = await call(buckets.get(), '/containers/x/refresh', { method: 'PATCH' });
    expectError(refused, 429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect(buckets.get().stats.rateLimited).toBe(3);
  });
});

describe('sandbox contract: duplicate tracking requests', () => {
  const fresh = useSandbox({ seed: 'duplicates', shipments: 5 });
  const create = (attributes: Record<string, unknown>) =>
    call(fresh.get(), '/tracking_requests', {
      method: 'POST',
      body: { data: { type: 'tracking_request', attributes } },
    });

  it('answers 201, then 422 duplicate naming the pending request, and 201 again once it has failed', async () => {
    // A container number with a wrong check digit: accepted, pending, and failed once the line answers.
    const attributes = { request_type: 'container', request_number: 'MSCU1234560', scac: 'MSCU' };
    const first = await create(attributes);
    expectContract('POST', '/tracking_requests', first, 201);
    expect(first.body.data.attributes.status).toBe('pending');

    const again = await create(attributes);
    expectError(again, 422);
    expect(validateResponse('POST', '/tracking_requests', 422, again.body)).toEqual([]);
    expect(again.body.errors).toEqual([
      {
        status: '422',
        code: 'duplicate',
        title: 'Duplicate tracking request',
        detail: expect.stringContaining('already exists') as string,
        source: { pointer: '/data/attributes/request_number' },
        meta: { tracking_request_id: first.body.data.id },
      },
    ]);
    // Another line or another kind of number is another request.
    expectContract('POST', '/tracking_requests', await create({ ...attributes, scac: 'MAEU' }), 201);

    fresh.get().advance(120);
    const failed = await call(fresh.get(), `/tracking_requests/${first.body.data.id}`);
    expect(failed.body.data.attributes.status).toBe('failed');
    const retried = await create(attributes);
    expectContract('POST', '/tracking_requests', retried, 201);
    expect(retried.body.data.id).not.toBe(first.body.data.id);
    expect((await create(attributes)).status).toBe(422);
  });
});

describe('sandbox contract: carrier inference and container refresh', () => {
  const infer = (number: unknown) =>
    call(sandbox.get(), '/tracking_requests/infer_number', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: { number },
    });

  it('POST /tracking_requests/infer_number reads owner codes and bill of lading prefixes', async () => {
    const box = await infer('MSKU 123456-5'.replace(/-/g, ''));
    expectContract('POST', '/tracking_requests/infer_number', box);
    expect(box.body.data.type).toBe('infer_number_results');
    expect(box.body.data.attributes.number_type).toBe('container');
    expect(box.body.data.attributes.shipping_line).toMatchObject({
      decision: 'auto_select',
      selected: { scac: 'MAEU', name: 'Maersk', confidence: 1 },
    });
    // Medu is MSC's bill of lading prefix (shipping-lines.csv), not its SCAC.
    const bill = await infer('MEDUAB123456');
    expectContract('POST', '/tracking_requests/infer_number', bill);
    expect(bill.body.data.attributes.number_type).toBe('bill_of_lading');
    expect(bill.body.data.attributes.shipping_line.selected.scac).toBe('MSCU');
    // A lessor's box (TGHU) could be any of several lines: a guess to confirm.
    const leased = await infer('TGHU1234567');
    expect(leased.body.data.attributes.shipping_line.decision).toBe('needs_confirmation');
    expect(leased.body.data.attributes.shipping_line.candidates.map((c: { scac: string }) => c.scac)).toEqual(
      expect.arrayContaining(['MSCU', 'CMDU']),
    );
    const unknown = await infer('QQQQ99999');
    expect(unknown.body.data.attributes.shipping_line).toEqual({
      decision: 'no_prediction',
      selected: null,
      candidates: [],
    });
    const invalid = await infer('!!');
    expectError(invalid, 422);
    expect(validateResponse('POST', '/tracking_requests/infer_number', 422, invalid.body)).toEqual([]);
    expect(invalid.body.errors[0].detail).toBe('This reference number is not valid.');
  });

  it('PATCH /containers/{id}/refresh starts a refresh, 404 for an unknown box, 403 for an account without it', async () => {
    const container = await first('/containers', 'container');
    const started = await call(sandbox.get(), `/containers/${container.id}/refresh`, { method: 'PATCH' });
    expectContract('PATCH', '/containers/{id}/refresh', started);
    expect(started.body.message).toMatch(/^Started refresh for Shipping line, Terminal/);
    expectError(await call(sandbox.get(), '/containers/nope/refresh', { method: 'PATCH' }), 404);
    sandbox.get().store.containerRefresh = false;
    try {
      const refused = await call(sandbox.get(), `/containers/${container.id}/refresh`, { method: 'PATCH' });
      expectError(refused, 403);
      expect(validateResponse('PATCH', '/containers/{id}/refresh', 403, refused.body)).toEqual([]);
      expect(refused.body.errors[0].detail).toContain('not enabled for your account');
    } finally {
      sandbox.get().store.containerRefresh = true;
    }
  });
});

describe('sandbox contract: editing a webhook', () => {
  it('PATCH /webhooks/{id} changes the address, state and events, keeps the secret, and names each problem', async () => {
    const created = await call(sandbox.get(), '/webhooks', {
      method: 'POST',
      body: { data: { type: 'webhook', attributes: { url: 'https://hooks.example.com/edit', active: true } } },
    });
    const id = created.body.data.id as string;
    const edited = await call(sandbox.get(), `/webhooks/${id}`, {
      method: 'PATCH',
      body: {
        data: {
          type: 'webhook',
          attributes: { url: 'https://hooks.example.com/edited', active: false, events: ['container.updated'] },
        },
      },
    });
    expectContract('PATCH', '/webhooks/{id}', edited);
    expect(edited.body.data.attributes).toMatchObject({
      url: 'https://hooks.example.com/edited',
      active: false,
      events: ['container.updated'],
      secret: created.body.data.attributes.secret,
    });
    const refused = await call(sandbox.get(), `/webhooks/${id}`, {
      method: 'PATCH',
      body: { data: { type: 'webhook', attributes: { url: 'ftp://x', events: ['no.such.event'] } } },
    });
    expectError(refused, 422);
    expect(refused.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual([
      '/data/attributes/url',
      '/data/attributes/events',
    ]);
    expectError(
      await call(sandbox.get(), '/webhooks/nope', {
        method: 'PATCH',
        body: { data: { type: 'webhook', attributes: { active: true } } },
      }),
      404,
    );
  });
});

describe('sandbox contract: custom fields', () => {
  it('lists values by entity type, gets one, lists options, and reads and writes a record’s values', async () => {
    for (const type of ['Shipment', 'Container', 'TrackingRequest']) {
      const list = await call(sandbox.get(), `/custom_fields?filter[entity_type]=${type}&page[size]=100`);
      expectContract('GET', '/custom_fields', list);
      expect(list.body.data.length).toBeGreaterThan(0);
    }
    const value = await first('/custom_fields', 'custom_field');
    expectContract('GET', '/custom_fields/{id}', await call(sandbox.get(), `/custom_fields/${value.id}`));
    const definitions = await call(sandbox.get(), '/custom_field_definitions?filter[data_type]=enum');
    const incoterm = definitions.body.data[0] as { id: string };
    const options = await call(sandbox.get(), `/custom_field_definitions/${incoterm.id}/options`);
    expectContract('GET', '/custom_field_definitions/{definition_id}/options', options);
    expectContract(
      'GET',
      '/custom_field_definitions/{definition_id}/options/{option_id}',
      await call(sandbox.get(), `/custom_field_definitions/${incoterm.id}/options/${options.body.data[0].id}`),
    );

    const shipment = await first('/shipments', 'shipment');
    const path = `/shipments/${shipment.id}/custom_fields`;
    expectContract('GET', '/shipments/{shipment_id}/custom_fields', await call(sandbox.get(), path));
    const body = (value: unknown) => ({ data: { type: 'custom_field', attributes: { value } } });
    const patched = await call(sandbox.get(), `${path}/po_number`, { method: 'PATCH', body: body('PO-777001') });
    expectContract('PATCH', '/shipments/{shipment_id}/custom_fields/{api_slug}', patched);
    expect(patched.body.data.attributes).toMatchObject({ api_slug: 'po_number', value: 'PO-777001' });
    expectError(await call(sandbox.get(), `${path}/incoterm`, { method: 'PATCH', body: body('XYZ') }), 422);
    expectError(await call(sandbox.get(), `${path}/no_such_field`, { method: 'PATCH', body: body('x') }), 404);
    expect((await call(sandbox.get(), `${path}/po_number`, { method: 'DELETE' })).status).toBe(204);
    const created = await call(sandbox.get(), path, {
      method: 'POST',
      body: { data: { type: 'custom_field', attributes: { api_slug: 'po_number', value: 'PO-777002' } } },
    });
    expectContract('POST', '/shipments/{shipment_id}/custom_fields', created, 201);

    const container = await first('/containers', 'container');
    expectContract(
      'GET',
      '/containers/{container_id}/custom_fields',
      await call(sandbox.get(), `/containers/${container.id}/custom_fields`),
    );
    const request = await first('/tracking_requests', 'tracking_request');
    expectContract(
      'GET',
      '/tracking_requests/{tracking_request_id}/custom_fields',
      await call(sandbox.get(), `/tracking_requests/${request.id}/custom_fields`),
    );
    expectError(await call(sandbox.get(), '/custom_fields?filter[entity_type]=Vessel'), 400);
  });
});

describe('sandbox contract: documents', () => {
  it('lists documents with their shipments, containers and representation; types, schema, one document', async () => {
    const list = await call(
      sandbox.get(),
      '/documents?include=shipments,cargos,last_document_representation,email_submission&page[size]=50',
    );
    expectContract('GET', '/documents', list);
    const doc = list.body.data[0];
    expect(doc.relationships.shipments.data[0].type).toBe('shipment');
    expect(new Set(list.body.included.map((r: { type: string }) => r.type))).toEqual(
      new Set(['shipment', 'container', 'document_representation', 'email_submission']),
    );
    expectContract('GET', '/documents/{id}', await call(sandbox.get(), `/documents/${doc.id}`));
    const types = await call(sandbox.get(), '/documents/types');
    expectContract('GET', '/documents/types', types);
    expect(types.body.document_types.map((t: { code: string }) => t.code)).toContain('bill_of_lading');
    const representation = list.body.included.find((r: { type: string }) => r.type === 'document_representation');
    const schema = await call(sandbox.get(), `/document_schemas/${representation.attributes.schema_version}`);
    expectContract('GET', '/document_schemas/{id}', schema);
    expect(schema.body.data.attributes.label).toMatch(/\w/);
  });

  it('a download link serves the file without the key, while its signature matches', async () => {
    const doc = (await first('/documents?filter[document_types]=arrival_notice', 'document')) as {
      id: string;
      attributes: { file_size_bytes: number };
    };
    const link = await call(sandbox.get(), `/documents/${doc.id}/download_url`);
    expectContract('GET', '/documents/{id}/download_url', link);
    const file = await fetch(link.body.download_url);
    expect(file.status).toBe(200);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.length).toBe(doc.attributes.file_size_bytes);
    // One character of the signature changed (to another one: a signature may start with 0).
    const url = link.body.download_url as string;
    const at = url.indexOf('signature=') + 'signature='.length;
    const forgedUrl = `${url.slice(0, at)}${url[at] === '0' ? '1' : '0'}${url.slice(at + 1)}`;
    const forged = (await fetch(forgedUrl)).status;
    expect(forged).toBe(403);
  });

  it('404s as the reference words them; a bad sort is 400', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    expectError(await call(sandbox.get(), `/documents/${missing}`), 404);
    const noLink = await call(sandbox.get(), `/documents/${missing}/download_url`);
    expectError(noLink, 404);
    expect(noLink.body.errors[0].detail).toBe("Couldn't find Document");
    const noSchema = await call(sandbox.get(), '/document_schemas/unknown@2026-03-23');
    expectError(noSchema, 404);
    expect(noSchema.body.errors[0].detail).toBe("Couldn't find DocumentSchema with 'id'=unknown@2026-03-23");
    expectError(await call(sandbox.get(), '/documents?sort=colour'), 400);
    expectError(await call(sandbox.get(), '/documents?include=nope'), 400);
  });
});
