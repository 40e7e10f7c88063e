import type { StoredResource } from '../../src/core/store/resource';

let counter = 0;
const ref = (type: string, id: string | null) => ({ data: id === null ? null : { type, id } });

/** A shipment resource as the API sends it, with overridable attributes. */
export function shipmentResource(
  attributes: Record<string, unknown> = {},
  options: { id?: string; containers?: string[]; pod?: string; terminal?: string } = {},
): StoredResource {
  const id = options.id ?? `ship-${++counter}`;
  return {
    id,
    type: 'shipment',
    attributes: {
      bill_of_lading_number: `MEDU${String(counter).padStart(8, '0')}`,
      shipping_line_scac: 'MSCU',
      shipping_line_name: 'Mediterranean Shipping Company',
      port_of_lading_locode: 'CNSHA',
      port_of_lading_name: 'Shanghai',
      port_of_discharge_locode: 'USLAX',
      port_of_discharge_name: 'Los Angeles',
      pod_timezone: 'America/Los_Angeles',
      ref_numbers: [],
      tags: [],
      created_at: '2026-01-01T00:00:00Z',
      ...attributes,
    },
    relationships: {
      port_of_lading: ref('port', 'port-cnsha'),
      port_of_discharge: ref('port', options.pod ?? 'port-uslax'),
      pod_terminal: ref('terminal', options.terminal ?? null),
      destination: ref('port', options.pod ?? 'port-uslax'),
      containers: { data: (options.containers ?? []).map((c) => ({ type: 'container', id: c })) },
    },
    links: { self: `/v2/shipments/${id}` },
  };
}

export function containerResource(
  shipmentId: string,
  attributes: Record<string, unknown> = {},
  id = `cont-${++counter}`,
): StoredResource {
  return {
    id,
    type: 'container',
    attributes: {
      number: `MSCU${String(counter).padStart(7, '0')}`,
      equipment_type: 'dry',
      equipment_length: 40,
      holds_at_pod_terminal: [],
      fees_at_pod_terminal: [],
      pod_timezone: 'America/Los_Angeles',
      created_at: '2026-01-01T00:00:00Z',
      ...attributes,
    },
    relationships: { shipment: ref('shipment', shipmentId), pod_terminal: ref('terminal', null) },
  };
}
