import { describe, expect, it } from 'vitest';
import {
  listResources,
  parseDocument,
  parseDocumentInSteps,
  readLink,
  readRef,
  readRefs,
} from '../../src/core/api/document';
import { MalformedResponseError } from '../../src/core/api/errors';

const shipmentPage = {
  data: [
    {
      id: 'shp-1',
      type: 'shipment',
      attributes: { bill_of_lading_number: 'MAEU123', attribute_not_in_schema: { nested: [1, 2] } },
      relationships: {
        containers: {
          data: [
            { type: 'container', id: 11 },
            { type: 'container', id: 'c-missing' },
          ],
        },
        pod_terminal: { data: { type: 'terminal', id: 't-1' } },
        destination_terminal: { data: null },
        customer: { links: { related: '/parties/p-1' } },
        brand_new_relationship: { data: { type: 'hologram', id: 'h-1' }, meta: { since: '2031' } },
      },
      links: { self: '/v2/shipments/shp-1' },
      unknown_member: 'kept',
    },
  ],
  included: [
    { id: 11, type: 'container', attributes: { number: 'MSCU1234566' }, relationships: {} },
    { id: 't-1', type: 'terminal' },
    { id: 'h-1', type: 'hologram', attributes: { glow: true } },
    {
      id: 'ev-1',
      type: 'transport_event',
      attributes: { event: 'container.transport.vessel_departed' },
      relationships: { shipment: { data: { type: 'shipment', id: 'shp-1' } } },
    },
  ],
  links: {
    next: 'https://api.example.test/v2/shipments?page[number]=2',
    last: { href: '/v2/shipments?page[number]=9' },
  },
  meta: { size: 1, total: 9 },
};

describe('parseDocument', () => {
  it('parses tolerantly and keeps what it does not know', () => {
    const doc = parseDocument(JSON.stringify(shipmentPage));
    const [shipment] = listResources(doc);
    expect(shipment).toBeDefined();
    expect(shipment!.attributes.attribute_not_in_schema).toEqual({ nested: [1, 2] });
    expect(shipment!.unknown_member).toBe('kept');
    expect(shipment!.relationships.brand_new_relationship).toEqual({
      data: { type: 'hologram', id: 'h-1' },
      meta: { since: '2031' },
    });
    expect(doc.meta).toEqual({ size: 1, total: 9 });
    expect(readLink(doc.links?.next)).toBe('https://api.example.test/v2/shipments?page[number]=2');
    expect(readLink(doc.links?.last)).toBe('/v2/shipments?page[number]=9');
    expect(readLink(doc.links?.prev)).toBeNull();
  });

  it('turns numeric ids into strings, in resources and in references', () => {
    const doc = parseDocument(JSON.stringify(shipmentPage));
    expect(doc.included[0]!.id).toBe('11');
    expect(readRefs(listResources(doc)[0]!, 'containers')).toEqual([
      { type: 'container', id: '11' },
      { type: 'container', id: 'c-missing' },
    ]);
  });

  it('defaults missing attributes, relationships and included', () => {
    const doc = parseDocument('{"data":{"id":"t-1","type":"terminal","attributes":null}}');
    const [terminal] = listResources(doc);
    expect(terminal).toMatchObject({ id: 't-1', type: 'terminal', attributes: {}, relationships: {} });
    expect(doc.included).toEqual([]);
    expect(listResources(parseDocument('{"data":null}'))).toEqual([]);
    expect(listResources(parseDocument('{"meta":{"total":0}}'))).toEqual([]);
  });

  it('throws MalformedResponseError for a body that is not JSON or not a JSON:API document', () => {
    for (const text of [
      '',
      '{"data":[{"id":"1","type":"shipment"',
      '<html>Bad gateway</html>',
      '[]',
      '"data"',
      '{"hello":"world"}',
      '{"data":[{"type":"shipment"}]}',
      '{"data":[{"id":"1"}]}',
      '{"data":{"id":"1","type":"shipment","relationships":{"containers":{"data":[{"id":"2"}]}}}}',
    ]) {
      expect(() => parseDocument(text), text).toThrow(MalformedResponseError);
    }
    const error = (() => {
      try {
        parseDocument('{"data":');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toMatchObject({ code: 'malformed', retryable: true });
    expect((error as Error).message).toBe('The Tracking API sent an answer Quayside could not read.');
  });
});

describe('parseDocumentInSteps (the sync client, in slices)', () => {
  const bigPage = {
    ...shipmentPage,
    data: Array.from({ length: 250 }, (_, i) => ({ ...shipmentPage.data[0], id: `shp-${i}` })),
    included: Array.from({ length: 320 }, (_, i) => ({ id: i, type: 'container', attributes: null })),
  };
  const texts = [
    JSON.stringify(shipmentPage),
    JSON.stringify(bigPage),
    '{"data":{"id":"t-1","type":"terminal","attributes":null}}',
    '{"data":null}',
    '{"meta":{"total":0}}',
    '{"errors":[{"title":"nope"}],"included":null}',
  ];

  it('gives exactly what parseDocument gives', async () => {
    for (const text of texts) expect(await parseDocumentInSteps(text), text).toEqual(parseDocument(text));
  });

  it('lets the event loop turn while it checks a large page', async () => {
    let turned = false;
    setImmediate(() => (turned = true));
    const doc = await parseDocumentInSteps(JSON.stringify(bigPage));
    expect(turned).toBe(true);
    expect(listResources(doc)).toHaveLength(250);
    expect(doc.included[319]!.id).toBe('319');
  });

  it('refuses what parseDocument refuses, a bad resource deep in a page included', async () => {
    const badLate = { ...bigPage, included: [...bigPage.included, { type: 'container' }] };
    for (const text of [
      '',
      '[]',
      '{"hello":"world"}',
      '{"data":[{"type":"shipment"}]}',
      '{"data":{"id":"1","type":"shipment","relationships":{"containers":{"data":[{"id":"2"}]}}}}',
      JSON.stringify(badLate),
    ]) {
      expect(() => parseDocument(text), text).toThrow(MalformedResponseError);
      await expect(parseDocumentInSteps(text), text).rejects.toThrow(MalformedResponseError);
    }
  });
});

describe('relationship references', () => {
  const doc = parseDocument(JSON.stringify(shipmentPage));
  const shipment = listResources(doc)[0]!;

  it('reads references, telling "none" from "not said"', () => {
    expect(readRef(shipment, 'pod_terminal')).toEqual({ type: 'terminal', id: 't-1' });
    expect(readRef(shipment, 'brand_new_relationship')).toEqual({ type: 'hologram', id: 'h-1' });
    expect(readRef(shipment, 'destination_terminal')).toBeNull();
    expect(readRef(shipment, 'customer')).toBeUndefined();
    expect(readRef(shipment, 'not_a_relationship')).toBeUndefined();
    expect(readRefs(shipment, 'containers')?.map((c) => c.id)).toEqual(['11', 'c-missing']);
    expect(readRefs(shipment, 'destination_terminal')).toEqual([]);
    expect(readRefs(shipment, 'customer')).toBeUndefined();
    expect(readRefs(shipment, 'pod_terminal')).toEqual([{ type: 'terminal', id: 't-1' }]);
  });
});
