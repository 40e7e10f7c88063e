/**
 * A request for each operation of the API reference that the sandbox should serve, keyed
 * `METHOD /template` as the reference names it (test/integration/sandbox-conformance.test.ts).
 */
import type { Sandbox } from '../../src/sandbox/index';
import { recordFieldCases } from './conformance-record-fields';
import { call, type ApiResponse } from './sandbox';

export interface ConformanceRequest {
  path: string;
  body?: unknown;
}

export interface ConformanceCase {
  /** A request the reference calls valid, after whatever setup it needs. */
  valid: () => ConformanceRequest | Promise<ConformanceRequest>;
  /** The same operation naming an id that does not exist. */
  unknown?: () => ConformanceRequest | Promise<ConformanceRequest>;
  /** A body the operation refuses, and a pointer its 422 names. */
  invalid?: () => (ConformanceRequest & { pointer: string }) | Promise<ConformanceRequest & { pointer: string }>;
}

/** The cases against one running sandbox. */
export function conformanceCases(sandbox: () => Sandbox): Record<string, ConformanceCase> {
  const api = (path: string, method = 'GET', body?: unknown): Promise<ApiResponse> =>
    call(sandbox(), path, { method, body });
  const store = () => sandbox().store;
  const now = () => sandbox().clock.now();
  const shipment = () => store().shipments.find((s) => s.createdAt <= now())!;
  const container = () => store().containers.find((c) => c.createdAt <= now())!;
  const request = () => store().trackingRequests.find((r) => r.createdAt <= now())!;
  const definition = (slug: string) => store().world.customFieldDefinitions.find((d) => d.apiSlug === slug)!;
  const NOPE = '00000000-0000-4000-8000-000000000000';
  const doc = (type: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    data: { type, attributes, ...extra },
  });

  let made = 0;
  async function created(path: string, body: unknown): Promise<string> {
    const response = await api(path, 'POST', body);
    if (response.status !== 201) throw new Error(`setup ${path}: ${response.status} ${response.text.slice(0, 200)}`);
    return response.body.data.id as string;
  }
  const newDefinition = (dataType = 'short_text') =>
    created(
      '/custom_field_definitions',
      doc('custom_field_definition', {
        entity_type: 'Shipment',
        api_slug: `conformance_${made++}`,
        display_name: 'Conformance',
        data_type: dataType,
      }),
    );
  const newOption = async () => {
    const id = await newDefinition('enum');
    const option = await created(
      `/custom_field_definitions/${id}/options`,
      doc('custom_field_option', { label: 'Gold', value: 'gold' }),
    );
    return { id, option };
  };
  /** A value of `po_number` on the first shipment, set if it had none. */
  const poValue = async () => {
    const s = shipment();
    await api(`/shipments/${s.id}/custom_fields/po_number`, 'PATCH', doc('custom_field', { value: 'PO-1' }));
    return store()
      .customFields.valuesOf({ type: 'shipment', rec: s })
      .find((v) => v.definition.apiSlug === 'po_number')!.id;
  };
  const newWebhook = () =>
    created('/webhooks', doc('webhook', { url: 'https://hooks.example.com/conformance', active: true }));
  const newDocument = (name = 'Commercial invoice 1.pdf') =>
    created('/documents', doc('document', { name, attached_document: `blob-${made++}` }));
  const firstDocument = () => store().world.documents.find((d) => d.createdAt <= now())!;

  const ids = { shipmentId: () => shipment().id, containerId: () => container().id, requestId: () => request().id };
  const fieldCases = recordFieldCases({ api, doc, nope: NOPE, ...ids });
  const get = (path: string) => (): ConformanceRequest => ({ path });
  const vessel = () => shipment().vessel;
  const positions = (extra = '') =>
    `/vessels/${vessel().id}/future_positions${extra}?port_id=${shipment().pod.id}&previous_port_id=${shipment().pol.id}`;

  return {
    ...fieldCases,
    'GET /shipments': { valid: get('/shipments') },
    'GET /shipments/{id}': {
      valid: () => ({ path: `/shipments/${shipment().id}` }),
      unknown: get(`/shipments/${NOPE}`),
    },
    'PATCH /shipments/{id}': {
      valid: () => ({ path: `/shipments/${shipment().id}`, body: doc('shipment', { ref_numbers: ['C-1'] }) }),
      unknown: () => ({ path: `/shipments/${NOPE}`, body: doc('shipment', { ref_numbers: ['C-1'] }) }),
      invalid: () => ({
        path: `/shipments/${shipment().id}`,
        body: doc('shipment', { ref_numbers: 'C-1' }),
        pointer: '/data/attributes/ref_numbers',
      }),
    },
    'PATCH /shipments/{id}/stop_tracking': {
      valid: () => ({ path: `/shipments/${shipment().id}/stop_tracking` }),
      unknown: get(`/shipments/${NOPE}/stop_tracking`),
    },
    'PATCH /shipments/{id}/resume_tracking': {
      valid: () => ({ path: `/shipments/${shipment().id}/resume_tracking` }),
      unknown: get(`/shipments/${NOPE}/resume_tracking`),
    },
    'POST /tracking_requests': {
      valid: () => ({
        path: '/tracking_requests',
        body: doc('tracking_request', {
          request_type: 'bill_of_lading',
          request_number: 'MEDUCF1234567',
          scac: 'MSCU',
        }),
      }),
      invalid: () => ({
        path: '/tracking_requests',
        body: doc('tracking_request', { request_type: 'bill_of_lading', scac: 'MSCU' }),
        pointer: '/data/attributes/request_number',
      }),
    },
    'GET /tracking_requests': { valid: get('/tracking_requests?include=tracked_object') },
    'POST /tracking_requests/infer_number': {
      valid: () => ({ path: '/tracking_requests/infer_number', body: { number: container().number } }),
    },
    'GET /tracking_requests/{id}': {
      valid: () => ({ path: `/tracking_requests/${request().id}?include=tracked_object,customer` }),
      unknown: get(`/tracking_requests/${NOPE}`),
    },
    'PATCH /tracking_requests/{id}': {
      valid: () => ({
        path: `/tracking_requests/${request().id}`,
        body: doc('tracking_request', { ref_numbers: ['R-1'] }),
      }),
      unknown: () => ({
        path: `/tracking_requests/${NOPE}`,
        body: doc('tracking_request', { ref_numbers: ['R-1'] }),
      }),
      invalid: () => ({
        path: `/tracking_requests/${request().id}`,
        body: doc('tracking_request', { ref_numbers: [1] }),
        pointer: '/data/attributes/ref_numbers',
      }),
    },
    'GET /webhooks/{id}': {
      valid: async () => ({ path: `/webhooks/${await newWebhook()}` }),
      unknown: get(`/webhooks/${NOPE}`),
    },
    'PATCH /webhooks/{id}': {
      valid: async () => ({ path: `/webhooks/${await newWebhook()}`, body: doc('webhook', { active: false }) }),
      unknown: () => ({ path: `/webhooks/${NOPE}`, body: doc('webhook', { active: false }) }),
      invalid: async () => ({
        path: `/webhooks/${await newWebhook()}`,
        body: doc('webhook', { url: 'not a url' }),
        pointer: '/data/attributes/url',
      }),
    },
    'DELETE /webhooks/{id}': {
      valid: async () => ({ path: `/webhooks/${await newWebhook()}` }),
      unknown: get(`/webhooks/${NOPE}`),
    },
    'GET /webhooks': { valid: get('/webhooks') },
    'POST /webhooks': {
      valid: () => ({
        path: '/webhooks',
        body: doc('webhook', { url: 'https://hooks.example.com/new', active: true }),
      }),
      invalid: () => ({
        path: '/webhooks',
        body: doc('webhook', { active: true }),
        pointer: '/data/attributes/url',
      }),
    },
    'GET /webhooks/events': { valid: get('/webhooks/events') },
    'GET /webhook_notifications/{id}': {
      valid: async () => ({ path: `/webhook_notifications/${(await api('/webhook_notifications')).body.data[0].id}` }),
      unknown: get(`/webhook_notifications/${NOPE}`),
    },
    'GET /webhook_notifications': { valid: get('/webhook_notifications') },
    'GET /webhook_notifications/examples': {
      valid: get('/webhook_notifications/examples?event=tracking_request.succeeded'),
    },
    'GET /webhooks/ips': { valid: get('/webhooks/ips') },
    'POST /webhooks/trigger': {
      valid: () => ({
        path: '/webhooks/trigger',
        body: { url: 'https://hooks.example.com/t', event: 'container.updated' },
      }),
      invalid: () => ({ path: '/webhooks/trigger', body: { event: 'container.updated' }, pointer: '/url' }),
    },
    'GET /containers': { valid: get('/containers') },
    'PATCH /containers': {
      valid: () => ({
        path: '/containers',
        body: doc('container', { ref_numbers: ['K-1'] }, { id: container().id }),
      }),
      invalid: () => ({
        path: '/containers',
        body: doc('container', { ref_numbers: 'K-1' }, { id: container().id }),
        pointer: '/data/attributes/ref_numbers',
      }),
    },
    'GET /containers/{id}': {
      valid: () => ({ path: `/containers/${container().id}` }),
      unknown: get(`/containers/${NOPE}`),
    },
    'GET /containers/{id}/raw_events': {
      valid: () => ({ path: `/containers/${container().id}/raw_events` }),
      unknown: get(`/containers/${NOPE}/raw_events`),
    },
    'GET /containers/{id}/transport_events': {
      valid: () => ({ path: `/containers/${container().id}/transport_events` }),
      unknown: get(`/containers/${NOPE}/transport_events`),
    },
    'GET /containers/{id}/map_geojson': {
      valid: () => ({ path: `/containers/${container().id}/map_geojson` }),
      unknown: get(`/containers/${NOPE}/map_geojson`),
    },
    'PATCH /containers/{id}/refresh': {
      valid: () => ({ path: `/containers/${container().id}/refresh` }),
      unknown: get(`/containers/${NOPE}/refresh`),
    },
    'GET /shipping_lines': { valid: get('/shipping_lines') },
    'GET /shipping_lines/{id}': {
      valid: () => ({ path: `/shipping_lines/${store().world.shippingLines[0]!.id}` }),
      unknown: get(`/shipping_lines/${NOPE}`),
    },
    'GET /metro_areas/{id}': {
      valid: () => ({ path: `/metro_areas/${store().world.ports.find((p) => p.data.role === 'inland')!.id}` }),
      unknown: get(`/metro_areas/${NOPE}`),
    },
    'GET /ports/{id}': { valid: () => ({ path: `/ports/${shipment().pod.id}` }), unknown: get(`/ports/${NOPE}`) },
    'GET /vessels/{id}': { valid: () => ({ path: `/vessels/${vessel().id}` }), unknown: get(`/vessels/${NOPE}`) },
    'GET /vessels/{imo}': {
      valid: () => ({ path: `/vessels/${vessel().data.imo}` }),
      unknown: get('/vessels/0000000'),
    },
    'GET /vessels/{id}/future_positions': {
      valid: () => ({ path: positions() }),
      unknown: () => ({ path: positions().replace(vessel().id, NOPE) }),
    },
    'GET /vessels/{id}/future_positions_with_coordinates': {
      valid: () => ({ path: `${positions('_with_coordinates')}&latitude=20.5&longitude=-140.25` }),
      unknown: () => ({
        path: `${positions('_with_coordinates').replace(vessel().id, NOPE)}&latitude=20.5&longitude=-140.25`,
      }),
    },
    'GET /terminals/{id}': {
      valid: () => ({ path: `/terminals/${shipment().podTerminal.id}` }),
      unknown: get(`/terminals/${NOPE}`),
    },
    'GET /parties': { valid: get('/parties') },
    'POST /parties': {
      valid: () => ({ path: '/parties', body: doc('party', { company_name: `Conformance ${made++}` }) }),
      invalid: () => ({
        path: '/parties',
        body: doc('party', { company_name: ' ' }),
        pointer: '/data/attributes/company_name',
      }),
    },
    'GET /parties/{id}': {
      valid: () => ({ path: `/parties/${store().world.parties[0]!.id}` }),
      unknown: get(`/parties/${NOPE}`),
    },
    'PATCH /parties/{id}': {
      valid: async () => ({
        path: `/parties/${await created('/parties', doc('party', { company_name: `Rename ${made++}` }))}`,
        body: doc('party', { company_name: `Renamed ${made++}` }),
      }),
      unknown: () => ({ path: `/parties/${NOPE}`, body: doc('party', { company_name: 'X' }) }),
      invalid: () => ({
        path: `/parties/${store().world.parties[0]!.id}`,
        body: doc('party', { company_name: store().world.parties[1]!.companyName }),
        pointer: '/data/attributes/company_name',
      }),
    },
    'GET /custom_field_definitions': { valid: get('/custom_field_definitions') },
    'POST /custom_field_definitions': {
      valid: () => ({
        path: '/custom_field_definitions',
        body: doc('custom_field_definition', {
          entity_type: 'Container',
          api_slug: `seal_check_${made++}`,
          display_name: 'Seal check',
          data_type: 'boolean',
          default_value: false,
        }),
      }),
      invalid: () => ({
        path: '/custom_field_definitions',
        body: doc('custom_field_definition', {
          entity_type: 'Shipment',
          api_slug: 'po_number',
          display_name: 'Again',
          data_type: 'short_text',
        }),
        pointer: '/data/attributes/api_slug',
      }),
    },
    'GET /custom_field_definitions/{id}': {
      valid: () => ({ path: `/custom_field_definitions/${definition('incoterm').id}` }),
      unknown: get(`/custom_field_definitions/${NOPE}`),
    },
    'PATCH /custom_field_definitions/{id}': {
      valid: async () => ({
        path: `/custom_field_definitions/${await newDefinition()}`,
        body: doc('custom_field_definition', { display_name: 'Renamed' }),
      }),
      unknown: () => ({
        path: `/custom_field_definitions/${NOPE}`,
        body: doc('custom_field_definition', { display_name: 'Renamed' }),
      }),
      invalid: async () => ({
        path: `/custom_field_definitions/${await newDefinition()}`,
        body: doc('custom_field_definition', { display_name: '' }),
        pointer: '/data/attributes/display_name',
      }),
    },
    'DELETE /custom_field_definitions/{id}': {
      valid: async () => ({ path: `/custom_field_definitions/${await newDefinition()}` }),
      unknown: get(`/custom_field_definitions/${NOPE}`),
    },
    'GET /custom_field_definitions/{definition_id}/options': {
      valid: () => ({ path: `/custom_field_definitions/${definition('incoterm').id}/options` }),
      unknown: get(`/custom_field_definitions/${NOPE}/options`),
    },
    'POST /custom_field_definitions/{definition_id}/options': {
      valid: async () => ({
        path: `/custom_field_definitions/${await newDefinition('enum')}/options`,
        body: doc('custom_field_option', { label: 'Silver', value: 'silver', position: 2 }),
      }),
      unknown: () => ({
        path: `/custom_field_definitions/${NOPE}/options`,
        body: doc('custom_field_option', { label: 'Silver', value: 'silver' }),
      }),
      invalid: () => ({
        path: `/custom_field_definitions/${definition('incoterm').id}/options`,
        body: doc('custom_field_option', { label: 'Free on board', value: 'FOB' }),
        pointer: '/data/attributes/value',
      }),
    },
    'GET /custom_field_definitions/{definition_id}/options/{option_id}': {
      valid: async () => {
        const { id, option } = await newOption();
        return { path: `/custom_field_definitions/${id}/options/${option}` };
      },
      unknown: () => ({ path: `/custom_field_definitions/${definition('incoterm').id}/options/${NOPE}` }),
    },
    'PATCH /custom_field_definitions/{definition_id}/options/{option_id}': {
      valid: async () => {
        const { id, option } = await newOption();
        return {
          path: `/custom_field_definitions/${id}/options/${option}`,
          body: doc('custom_field_option', { label: 'Platinum' }),
        };
      },
      unknown: () => ({
        path: `/custom_field_definitions/${definition('incoterm').id}/options/${NOPE}`,
        body: doc('custom_field_option', { label: 'Platinum' }),
      }),
      invalid: async () => {
        const { id, option } = await newOption();
        return {
          path: `/custom_field_definitions/${id}/options/${option}`,
          body: doc('custom_field_option', { position: 0 }),
          pointer: '/data/attributes/position',
        };
      },
    },
    'DELETE /custom_field_definitions/{definition_id}/options/{option_id}': {
      valid: async () => {
        const { id, option } = await newOption();
        return { path: `/custom_field_definitions/${id}/options/${option}` };
      },
      unknown: () => ({ path: `/custom_field_definitions/${definition('incoterm').id}/options/${NOPE}` }),
    },
    'GET /custom_fields': { valid: get('/custom_fields') },
    'POST /custom_fields': {
      valid: async () => {
        const c = container();
        await api(`/containers/${c.id}/custom_fields/delivery_address`, 'DELETE');
        return {
          path: '/custom_fields',
          body: doc(
            'custom_field',
            { api_slug: 'delivery_address', value: '1 Dock St' },
            { relationships: { entity: { data: { type: 'container', id: c.id } } } },
          ),
        };
      },
      invalid: () => ({
        path: '/custom_fields',
        body: doc(
          'custom_field',
          { api_slug: 'delivery_address', value: '1 Dock St' },
          { relationships: { entity: { data: { type: 'container', id: NOPE } } } },
        ),
        pointer: '/data/relationships/entity/data/id',
      }),
    },
    'GET /custom_fields/{id}': {
      valid: async () => ({ path: `/custom_fields/${await poValue()}` }),
      unknown: get(`/custom_fields/${NOPE}`),
    },
    'PATCH /custom_fields/{id}': {
      valid: async () => ({ path: `/custom_fields/${await poValue()}`, body: doc('custom_field', { value: 'PO-2' }) }),
      unknown: () => ({ path: `/custom_fields/${NOPE}`, body: doc('custom_field', { value: 'PO-2' }) }),
      invalid: async () => ({
        path: `/custom_fields/${await poValue()}`,
        body: doc('custom_field', { value: 12 }),
        pointer: '/data/attributes/value',
      }),
    },
    'DELETE /custom_fields/{id}': {
      valid: async () => ({ path: `/custom_fields/${await poValue()}` }),
      unknown: get(`/custom_fields/${NOPE}`),
    },
    'GET /documents': { valid: get('/documents') },
    'POST /documents': {
      valid: () => ({
        path: '/documents',
        body: doc('document', { name: 'Packing list 7.pdf', attached_document: `blob-${made++}` }),
      }),
      invalid: () => ({
        path: '/documents',
        body: doc('document', { name: 'x.pdf' }),
        pointer: '/data/attributes/attached_document',
      }),
    },
    'GET /documents/types': { valid: get('/documents/types') },
    'GET /documents/{id}': {
      valid: () => ({ path: `/documents/${firstDocument().id}` }),
      unknown: get(`/documents/${NOPE}`),
    },
    'PATCH /documents/{id}': {
      valid: async () => ({
        path: `/documents/${await newDocument()}`,
        body: doc('document', { document_type_manual: 'packing_list' }),
      }),
      unknown: () => ({
        path: `/documents/${NOPE}`,
        body: doc('document', { document_type_manual: 'packing_list' }),
      }),
      invalid: async () => ({
        path: `/documents/${await newDocument()}`,
        body: doc('document', { document_type_manual: 'menu' }),
        pointer: '/data/attributes/document_type_manual',
      }),
    },
    'DELETE /documents/{id}': {
      valid: async () => ({ path: `/documents/${await newDocument()}` }),
      unknown: get(`/documents/${NOPE}`),
    },
    'GET /documents/{id}/download_url': {
      valid: () => ({ path: `/documents/${firstDocument().id}/download_url` }),
      unknown: get(`/documents/${NOPE}/download_url`),
    },
    'POST /documents/{id}/reextract': {
      valid: () => ({ path: `/documents/${firstDocument().id}/reextract` }),
      unknown: get(`/documents/${NOPE}/reextract`),
    },
    'POST /documents/{id}/reclassify': {
      valid: () => ({ path: `/documents/${firstDocument().id}/reclassify` }),
      unknown: get(`/documents/${NOPE}/reclassify`),
    },
    'POST /documents/{id}/relink': {
      valid: () => ({ path: `/documents/${firstDocument().id}/relink` }),
      unknown: get(`/documents/${NOPE}/relink`),
    },
    'POST /documents/{id}/rotate': {
      valid: async () => ({ path: `/documents/${await newDocument('Scan 4.png')}/rotate`, body: { degrees: 90 } }),
      unknown: () => ({ path: `/documents/${NOPE}/rotate`, body: { degrees: 90 } }),
      invalid: async () => ({
        path: `/documents/${await newDocument('Scan 5.png')}/rotate`,
        body: { degrees: 45 },
        pointer: '/degrees',
      }),
    },
    'GET /email_submissions': { valid: get('/email_submissions') },
    'GET /email_submissions/{id}': {
      valid: () => ({ path: `/email_submissions/${store().world.emailSubmissions[0]!.id}` }),
      unknown: get(`/email_submissions/${NOPE}`),
    },
    'GET /document_schemas/{id}': {
      valid: async () => {
        const response = await api(`/documents/${firstDocument().id}?include=last_document_representation`);
        return { path: `/document_schemas/${response.body.included[0].attributes.schema_version}` };
      },
      unknown: get('/document_schemas/menu@2020-01-01'),
    },
    'GET /search': { valid: () => ({ path: `/search?query=${shipment().billOfLading}` }) },
  };
}
