// Where the live service answers differently from its reference, the sandbox answers as the live
// one: search results typed `search_result`, notification examples refused without an event,
// tracking-request includes by `tracked_object`, the custom fields list failing alone. And what an
// admin does to custom fields shows at once in the values that hang on them.
import { describe, expect, it } from 'vitest';
import { call, startTestSandbox, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox({ seed: 'live-answers', shipments: 30, routing: true });
const api = (path: string, method = 'GET', body?: unknown) => call(sandbox.get(), path, { method, body });
const now = () => sandbox.get().clock.now();
const shipment = () => sandbox.get().store.shipments.find((s) => s.createdAt <= now())!;

describe('sandbox answers as the live service', () => {
  it('finds a container by its number as a search_result of entity type cargo, with its shipment', async () => {
    const box = sandbox.get().store.containers.find((c) => c.createdAt <= now())!;
    const response = await api(`/search?query=${box.number.toLowerCase()}`);
    expect(response.status).toBe(200);
    const hit = response.body.data.find((r: { id: string }) => r.id === box.id);
    expect(hit).toMatchObject({
      type: 'search_result',
      attributes: { entity_type: 'cargo', number: box.number, shipment_id: box.shipment.id },
    });
    expect((await api('/search?query=%20')).status).toBe(400);
  });

  it('types search results by what they are in the reference shape', async () => {
    const reference = await startTestSandbox({ seed: 'live-answers', shipments: 30, shape: 'reference' });
    try {
      const s = reference.store.shipments.find((x) => x.createdAt <= reference.clock.now())!;
      const response = await call(reference, `/search?query=${s.billOfLading}`);
      expect(response.body.data[0]).toMatchObject({ id: s.id, type: 'shipment' });
    } finally {
      await reference.close();
    }
  });

  it('refuses notification examples without an event, naming the parameter', async () => {
    const response = await api('/webhook_notifications/examples');
    expect(response.status).toBe(400);
    expect(response.body.errors[0].source).toEqual({ parameter: 'event' });
    const example = await api('/webhook_notifications/examples?event=container.transport.vessel_arrived');
    expect(example.body.data[0].attributes.event).toBe('container.transport.vessel_arrived');
  });

  it('includes a tracking request’s shipment by tracked_object, and refuses shipment', async () => {
    const request = sandbox.get().store.trackingRequests.find((r) => r.shipment && r.shipment.createdAt <= now())!;
    const response = await api(`/tracking_requests/${request.id}?include=tracked_object`);
    expect(response.body.included.map((r: { id: string }) => r.id)).toContain(request.shipment!.id);
    expect((await api(`/tracking_requests/${request.id}?include=shipment`)).status).toBe(400);
  });

  it('fails the custom fields list alone when told to, and serves writes to the same path', async () => {
    sandbox.get().failPath('GET /custom_fields', '500');
    try {
      expect((await api('/custom_fields')).status).toBe(500);
      const s = shipment();
      await api(`/shipments/${s.id}/custom_fields/customs_broker`, 'DELETE');
      const created = await api('/custom_fields', 'POST', {
        data: {
          type: 'custom_field',
          attributes: { api_slug: 'customs_broker', value: 'Harbour Customs' },
          relationships: { entity: { data: { type: 'shipment', id: s.id } } },
        },
      });
      expect(created.status).toBe(201);
    } finally {
      sandbox.get().failPath('GET /custom_fields', null);
    }
    expect((await api('/custom_fields')).status).toBe(200);
  });

  it('starts future positions at the coordinates given', async () => {
    const s = shipment();
    const response = await api(
      `/vessels/${s.vessel.id}/future_positions_with_coordinates?port_id=${s.pod.id}&previous_port_id=${s.pol.id}&latitude=12.5&longitude=-150.25`,
    );
    expect(response.status).toBe(200);
    const positions = response.body.data.attributes.positions;
    expect(positions[0]).toMatchObject({ latitude: 12.5, longitude: -150.25 });
    expect(positions.length).toBeGreaterThan(2);
    const missing = await api(`/vessels/${s.vessel.id}/future_positions_with_coordinates?port_id=${s.pod.id}`);
    expect(missing.status).toBe(400);
  });
});

describe('custom fields administered through the API', () => {
  it('renames an option in the values that chose it, and deleting the field takes its values', async () => {
    const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });
    const definition = await api(
      '/custom_field_definitions',
      'POST',
      doc('custom_field_definition', {
        entity_type: 'Shipment',
        api_slug: 'priority',
        display_name: 'Priority',
        data_type: 'enum',
      }),
    );
    expect(definition.status).toBe(201);
    const id = definition.body.data.id;
    const option = await api(
      `/custom_field_definitions/${id}/options`,
      'POST',
      doc('custom_field_option', { label: 'High', value: 'high' }),
    );
    const s = shipment();
    const set = await api(
      `/shipments/${s.id}/custom_fields`,
      'POST',
      doc('custom_field', { api_slug: 'priority', value: 'high' }),
    );
    expect(set.body.data.attributes.display_value).toBe('High');
    await api(
      `/custom_field_definitions/${id}/options/${option.body.data.id}`,
      'PATCH',
      doc('custom_field_option', { label: 'Urgent' }),
    );
    const after = await api(`/shipments/${s.id}/custom_fields`);
    const value = after.body.data.find(
      (v: { attributes: { api_slug: string } }) => v.attributes.api_slug === 'priority',
    );
    expect(value.attributes.display_value).toBe('Urgent');

    expect((await api(`/custom_field_definitions/${id}`, 'DELETE')).status).toBe(200);
    const gone = await api(`/shipments/${s.id}/custom_fields`);
    expect(gone.body.data.map((v: { attributes: { api_slug: string } }) => v.attributes.api_slug)).not.toContain(
      'priority',
    );
    expect((await api(`/custom_fields/${value.id}`)).status).toBe(404);
    expect((await api(`/custom_field_definitions/${id}/options/${option.body.data.id}`)).status).toBe(404);
  });
});
