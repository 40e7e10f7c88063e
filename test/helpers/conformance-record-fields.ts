/**
 * The conformance cases of the custom field paths under each record type
 * (`/{collection}/{id}/custom_fields`), for `conformance-cases.ts`.
 */
import type { ConformanceCase } from './conformance-cases';
import type { ApiResponse } from './sandbox';

export interface RecordFieldHelpers {
  api: (path: string, method?: string, body?: unknown) => Promise<ApiResponse>;
  doc: (type: string, attributes: Record<string, unknown>) => unknown;
  /** An id no record has. */
  nope: string;
  shipmentId: () => string;
  containerId: () => string;
  requestId: () => string;
}

/** The cases, keyed `METHOD /template` as the reference names them. */
export function recordFieldCases(h: RecordFieldHelpers): Record<string, ConformanceCase> {
  const { api, doc, nope: NOPE } = h;
  /** The cases of a record type's own custom field paths (`/{collection}/{id}/custom_fields`). */
  function perRecord(
    collection: string,
    id: () => string,
    slug: string,
    value: unknown,
  ): Record<string, ConformanceCase> {
    const base = () => `/${collection}/${id()}/custom_fields`;
    return {
      list: {
        valid: () => ({ path: base() }),
        unknown: () => ({ path: `/${collection}/${NOPE}/custom_fields` }),
      },
      create: {
        valid: async () => {
          await api(`${base()}/${slug}`, 'DELETE');
          return { path: base(), body: doc('custom_field', { api_slug: slug, value }) };
        },
        unknown: () => ({
          path: `/${collection}/${NOPE}/custom_fields`,
          body: doc('custom_field', { api_slug: slug, value }),
        }),
        invalid: () => ({
          path: base(),
          body: doc('custom_field', { api_slug: 'no_such_field', value }),
          pointer: '/data/attributes/api_slug',
        }),
      },
      update: {
        valid: () => ({ path: `${base()}/${slug}`, body: doc('custom_field', { value }) }),
        unknown: () => ({ path: `${base()}/no_such_field`, body: doc('custom_field', { value }) }),
        invalid: () => ({
          path: `${base()}/${slug}`,
          body: doc('custom_field', { value: { not: 'a value' } }),
          pointer: '/data/attributes/value',
        }),
      },
      remove: {
        valid: async () => {
          await api(`${base()}/${slug}`, 'PATCH', doc('custom_field', { value }));
          return { path: `${base()}/${slug}` };
        },
        unknown: () => ({ path: `${base()}/no_such_field` }),
      },
    };
  }

  const fieldsOf = {
    shipments: perRecord('shipments', () => h.shipmentId(), 'po_number', 'PO-7'),
    containers: perRecord('containers', () => h.containerId(), 'pallet_count', 12),
    tracking_requests: perRecord('tracking_requests', () => h.requestId(), 'cost_centre', 'CC-9'),
  };
  return Object.fromEntries(
    Object.entries(fieldsOf).flatMap(([collection, c]) => {
      const param = `{${collection.replace(/s$/, '')}_id}`;
      return [
        [`GET /${collection}/${param}/custom_fields`, c.list!],
        [`POST /${collection}/${param}/custom_fields`, c.create!],
        [`PATCH /${collection}/${param}/custom_fields/{api_slug}`, c.update!],
        [`DELETE /${collection}/${param}/custom_fields/{api_slug}`, c.remove!],
      ];
    }),
  );
}
