import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateErrorBody, validateResponse } from '../helpers/contract';

interface Example {
  method: string;
  path: string;
  status: number;
  name: string;
  body: unknown;
}

const examples = JSON.parse(
  readFileSync(new URL('../fixtures/tracking-api/examples.json', import.meta.url), 'utf8'),
) as Example[];

type Path = readonly (string | number)[];

/** A fresh, mutable copy of one of the reference's own examples. */
function example(method: string, path: string, status: number, name?: string): unknown {
  const found = examples.find(
    (e) => e.method === method && e.path === path && e.status === status && (name === undefined || e.name === name),
  );
  if (!found) throw new Error(`no example for ${method} ${path} ${status}`);
  return structuredClone(found.body);
}

function get(doc: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], doc);
}

function set(doc: unknown, path: Path, value: unknown): void {
  (get(doc, path.slice(0, -1)) as Record<string | number, unknown>)[path.at(-1)!] = value;
}

function remove(doc: unknown, path: Path): void {
  delete (get(doc, path.slice(0, -1)) as Record<string | number, unknown>)[path.at(-1)!];
}

// The reference has no shipping line example, so this one is written from the schema.
const shippingLines = {
  data: [
    {
      id: 'sl-msc',
      type: 'shipping_line',
      attributes: {
        scac: 'MSCU',
        name: 'Mediterranean Shipping Company',
        short_name: 'MSC',
        alternative_scacs: ['MEDU'],
        bill_of_lading_tracking_support: true,
        booking_number_tracking_support: true,
        container_number_tracking_support: true,
      },
    },
  ],
  links: { self: '/v2/shipping_lines' },
};

describe('contract harness: the reference examples', () => {
  const successes = examples.filter((e) => e.status < 400);
  it.each(successes.map((e) => [`${e.method} ${e.path} ${e.status} "${e.name}"`, e] as const))(
    'accepts %s',
    (_label, e) => {
      expect(validateResponse(e.method, e.path, e.status, e.body)).toEqual([]);
    },
  );

  const failures = examples.filter((e) => e.status >= 400);
  it.each(failures.map((e) => [`${e.method} ${e.path} ${e.status} "${e.name}"`, e] as const))(
    'accepts the error document %s',
    (_label, e) => {
      expect(validateResponse(e.method, e.path, e.status, e.body)).toEqual([]);
      expect(validateErrorBody(e.body)).toEqual([]);
    },
  );

  it('accepts a shipping line list and get written from the schema', () => {
    expect(validateResponse('GET', '/shipping_lines', 200, shippingLines)).toEqual([]);
    expect(validateResponse('GET', '/shipping_lines/{id}', 200, { data: shippingLines.data[0] })).toEqual([]);
  });
});

describe('contract harness: rejections', () => {
  it('reports a missing required attribute', () => {
    const body = example('GET', '/tracking_requests/{id}', 200, 'With Status Created');
    remove(body, ['data', 'attributes', 'request_number']);
    expect(validateResponse('GET', '/tracking_requests/{id}', 200, body)).toEqual([
      "/data/attributes must have required property 'request_number'",
    ]);
  });

  it('reports a value outside an enum, listing the allowed values', () => {
    const body = example('POST', '/tracking_requests', 201);
    set(body, ['data', 'attributes', 'status'], 'bogus');
    const problems = validateResponse('POST', '/tracking_requests', 201, body);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^\/data\/attributes\/status must be equal to one of the allowed values: "pending",/);
  });

  it('reports a wrong type', () => {
    const body = example('GET', '/shipments', 200);
    set(body, ['meta', 'total'], '34044');
    expect(validateResponse('GET', '/shipments', 200, body)).toEqual(['/meta/total must be integer']);
  });

  it('reports a date-time that is not ISO 8601 with an offset', () => {
    const body = example('GET', '/containers/{id}', 200);
    set(body, ['data', 'attributes', 'pod_arrived_at'], '2020-04-04 16:13');
    set(body, ['data', 'attributes', 'created_at'], '2020-04-04T16:13:35');
    expect(validateResponse('GET', '/containers/{id}', 200, body)).toEqual([
      '/data/attributes/created_at must match format "date-time" (got "2020-04-04T16:13:35")',
      '/data/attributes/pod_arrived_at must match format "date-time" (got "2020-04-04 16:13")',
    ]);
  });

  it('reports only the model an included resource claims to be', () => {
    const body = example('GET', '/shipments/{id}', 200);
    const index = (get(body, ['included']) as { type: string }[]).findIndex(
      (resource) => resource.type === 'container',
    );
    set(body, ['included', index, 'attributes', 'current_status'], 'lost_at_sea');
    const problems = validateResponse('GET', '/shipments/{id}', 200, body);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^/included/${index}/attributes/current_status must be equal to one of`));

    set(body, ['included', index, 'attributes', 'current_status'], 'available');
    set(body, ['included', index, 'type'], 'shipping_line');
    expect(validateResponse('GET', '/shipments/{id}', 200, body)).toEqual([
      // metro_area and rail_terminal: the harness's correction of the reference's shipment includes.
      `/included/${index}/type must be equal to one of the allowed values: "container", "port", "terminal", "metro_area", "rail_terminal"`,
    ]);
  });

  it('holds the corrected spots to the corrected values', () => {
    const container = example('GET', '/containers/{id}', 200);
    set(container, ['data', 'type'], 'account');
    expect(validateResponse('GET', '/containers/{id}', 200, container)).toEqual([
      '/data/type must be equal to one of the allowed values: "container"',
    ]);

    const events = example('GET', '/containers/{id}/transport_events', 200);
    set(events, ['data', 0, 'relationships', 'vessel', 'data', 'type'], 'ship');
    expect(validateResponse('GET', '/containers/{id}/transport_events', 200, events)).toEqual([
      '/data/0/relationships/vessel/data/type must be equal to one of the allowed values: "vessel"',
    ]);

    const lines = structuredClone(shippingLines);
    lines.links.self = 'shipping lines';
    set(lines, ['data', 0, 'attributes', 'scac'], 'MSCUX');
    expect(validateResponse('GET', '/shipping_lines', 200, lines)).toEqual([
      '/data/0/attributes/scac must NOT have more than 4 characters',
      '/links/self must match format "json-api-link" (got "shipping lines")',
    ]);
  });

  it('reports a document without its primary member', () => {
    expect(validateResponse('GET', '/shipments', 200, {})).toEqual(["(root) must have required property 'data'"]);
    expect(validateResponse('GET', '/shipments/{id}', 404, { error: 'x' })).toEqual([
      "(root) must have required property 'errors'",
    ]);
  });

  it('reports a body on a response documented without one', () => {
    expect(validateResponse('DELETE', '/webhooks/{id}', 200, undefined)).toEqual([]);
    expect(validateResponse('DELETE', '/webhooks/{id}', 200, { data: null })).toEqual([
      '(root) must be empty: no body is documented',
    ]);
  });

  it('throws for an operation or status the reference does not document', () => {
    expect(() => validateResponse('GET', '/bookings', 200, {})).toThrow('GET /bookings is not in the reference');
    expect(() => validateResponse('GET', '/shipments', 500, {})).toThrow(
      'GET /shipments has no 500 response (200, 422)',
    );
  });
});

describe('contract harness: tolerance', () => {
  it('accepts attributes, links and members the reference does not list', () => {
    const body = example('GET', '/shipments', 200);
    set(body, ['data', 0, 'attributes', 'carbon_footprint_kg'], 812.5);
    set(body, ['data', 0, 'relationships', 'consignee'], { data: null });
    set(body, ['meta', 'page_count'], 6809);
    set(body, ['links', 'current'], '/v2/shipments?page[number]=1');
    set(body, ['jsonapi'], { version: '1.0' });
    expect(validateResponse('GET', '/shipments', 200, body)).toEqual([]);
  });

  it('accepts ids that are not uuids and host-relative links', () => {
    const body = example('GET', '/tracking_requests/{id}', 200, 'With Status Created');
    set(body, ['data', 'id'], 'tr_1');
    set(body, ['data', 'links', 'self'], '/v2/tracking_requests/tr_1');
    expect(validateResponse('GET', '/tracking_requests/{id}', 200, body)).toEqual([]);
  });
});

describe('contract harness: error documents', () => {
  it('accepts the reference 404 document', () => {
    expect(validateErrorBody(example('GET', '/shipments/{id}', 404))).toEqual([]);
  });

  it('rejects documents without errors, or errors without a string status and a title', () => {
    expect(validateErrorBody({ errors: [] })).toEqual(['/errors must NOT have fewer than 1 items']);
    expect(validateErrorBody({ error: 'x' })).toEqual(["(root) must have required property 'errors'"]);
    expect(validateErrorBody({ errors: [{ status: 404, detail: 'gone' }] })).toEqual([
      "/errors/0 must have required property 'title'",
      '/errors/0/status must be string',
    ]);
  });
});
