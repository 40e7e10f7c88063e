/**
 * `quayside raw TYPE ID --db PATH`: every attribute the service sent stays
 * retrievable, also those Quayside keeps no column for. The record printed is compared with what
 * the sandbox serves for it over HTTP, attribute by attribute.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index';
import { uuidText } from '../../src/core/resources';
import { DEMO_API_KEY, type Sandbox } from '../../src/sandbox/index';
import { capture } from '../helpers/capture';
import { startTestSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';

let sandbox: Sandbox;
let dbPath = '';

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 'cli-raw', shipments: 12, start: Date.parse('2026-03-02T09:30:00Z') });
  const sync = syncOf(sandbox);
  dbPath = sync.dbPath;
  expect((await sync.engine.run({ mode: 'full' })).status).toBe('ok');
  sync.close();
}, 60_000);
afterAll(() => sandbox.close());

async function raw(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = capture();
  const err = capture();
  const code = await runCli(['raw', ...args], { out: out.stream, err: err.stream });
  return { code, out: out.text(), err: err.text() };
}

interface Served {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, unknown>;
}

/** Every record of a list the sandbox serves, page by page. */
async function servedList(path: string): Promise<Served[]> {
  const records: Served[] = [];
  for (let page = 1; ; page++) {
    const joiner = path.includes('?') ? '&' : '?';
    const response = await fetch(`${sandbox.url}${path}${joiner}page[size]=100&page[number]=${page}`, {
      headers: { Authorization: `Token ${DEMO_API_KEY}` },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: Served[]; links?: { next?: string | null } };
    records.push(...body.data);
    if (!body.links?.next || body.data.length === 0) return records;
  }
}

/** The record as the sandbox serves it by id. */
async function served(path: string): Promise<{ type: string; id: string; attributes: Record<string, unknown> }> {
  const response = await fetch(`${sandbox.url}${path}`, { headers: { Authorization: `Token ${DEMO_API_KEY}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { type: string; id: string; attributes: Record<string, unknown> } }).data;
}

/** An id of a row the sync stored in full. */
function storedId(table: string): string {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (
      (db.prepare(`SELECT id FROM ${table} WHERE raw IS NOT NULL ORDER BY id LIMIT 1`).pluck().get() as string) ?? ''
    );
  } finally {
    db.close();
  }
}

describe('raw TYPE ID', () => {
  it.each([
    ['shipment', 'shipments', '/shipments/'],
    ['container', 'containers', '/containers/'],
  ])('prints a %s with every attribute the service sent', async (type, table, path) => {
    const id = storedId(table);
    expect(id).not.toBe('');
    const result = await raw(type, id, '--db', dbPath);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.out) as { type: string; id: string; attributes: Record<string, unknown> };
    const service = await served(`${path}${id}`);
    expect(printed.type).toBe(type);
    expect(printed.id).toBe(id);
    expect(Object.keys(printed.attributes).sort()).toEqual(Object.keys(service.attributes).sort());
    expect(printed.attributes).toEqual(service.attributes);
  });

  it('prints every stored shipment, container, transport event, tracking request, custom field value and document as the service serves it', async () => {
    // The big tables keep only a residual in raw; what comes back must be the service's record,
    // every attribute and relationship, for every row of each kind the sync stored.
    const db = new Database(dbPath, { readonly: true });
    const ids = (sql: string) => db.prepare(sql).pluck().all() as string[];
    const shipments = ids('SELECT id FROM shipments WHERE synced_at IS NOT NULL ORDER BY id');
    const containers = ids('SELECT id FROM containers WHERE synced_at IS NOT NULL ORDER BY id');
    // Events and custom field values keep UUIDs as bytes: read as the text a user types.
    const events = ids(`SELECT ${uuidText('t', 'id')} FROM transport_events t ORDER BY t.id`);
    const requests = ids('SELECT id FROM tracking_requests WHERE synced_at IS NOT NULL ORDER BY id');
    const eventsOf = ids(
      'SELECT DISTINCT i.text FROM transport_events e JOIN interned i ON i.key = e.container_key ORDER BY i.text',
    );
    const values = ids(`SELECT ${uuidText('t', 'id')} FROM custom_fields t WHERE t.raw IS NOT NULL ORDER BY t.id`);
    const documents = ids('SELECT id FROM documents WHERE synced_at IS NOT NULL ORDER BY id');
    db.close();
    expect(shipments.length).toBeGreaterThan(0);
    expect(containers.length).toBeGreaterThan(0);
    expect(events.length).toBeGreaterThan(containers.length);
    expect(requests.length).toBeGreaterThan(0);
    expect(values.length).toBeGreaterThan(0);
    expect(documents.length).toBeGreaterThan(0);

    const printed = async (type: string, id: string) => {
      const result = await raw(type, id, '--db', dbPath);
      expect(result.err, `${type} ${id}`).toBe('');
      return JSON.parse(result.out) as Served;
    };
    const same = (stored: Served, service: Served) => {
      expect(stored.type).toBe(service.type);
      expect(stored.id).toBe(service.id);
      expect(Object.keys(stored.attributes).sort()).toEqual(Object.keys(service.attributes).sort());
      expect(stored.attributes, `${service.type} ${service.id}`).toEqual(service.attributes);
      expect(stored.relationships, `${service.type} ${service.id}`).toEqual(service.relationships);
      // And the rest of the record (links, meta): the whole of it, as sent.
      expect(stored, `${service.type} ${service.id}`).toStrictEqual(service);
    };
    for (const id of shipments) same(await printed('shipment', id), await served(`/shipments/${id}`));
    for (const id of containers) same(await printed('container', id), await served(`/containers/${id}`));
    for (const id of requests) same(await printed('tracking_request', id), await served(`/tracking_requests/${id}`));
    const servedEvents: Served[] = [];
    for (const container of eventsOf)
      servedEvents.push(...(await servedList(`/containers/${container}/transport_events`)));
    const byId = new Map(servedEvents.map((e) => [e.id, e]));
    for (const id of events) {
      const service = byId.get(id);
      expect(service, `event ${id} served`).toBeDefined();
      same(await printed('transport_event', id), service!);
    }
    const servedValues = new Map<string, Served>();
    for (const entity of ['Shipment', 'Container', 'TrackingRequest']) {
      for (const v of await servedList(`/custom_fields?filter[entity_type]=${entity}`)) servedValues.set(v.id, v);
    }
    for (const id of values) {
      const service = servedValues.get(id);
      expect(service, `custom field value ${id} served`).toBeDefined();
      same(await printed('custom_field', id), service!);
    }
    // A document's download link is signed anew for each answer (it expires): stored as it came,
    // it differs from today's in its signature alone; the rest is the record as served.
    const unsigned = (d: Served) => {
      const links = (d as { links?: { download?: unknown } }).links;
      expect(links?.download, `document ${d.id}: a link`).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/documents\//);
      return { ...d, links: { ...links, download: String(links!.download).split('?')[0] } };
    };
    const servedDocuments = new Map((await servedList('/documents')).map((d) => [d.id, d]));
    for (const id of documents) {
      const service = servedDocuments.get(id);
      expect(service, `document ${id} served`).toBeDefined();
      same(unsigned(await printed('document', id)), unsigned(service!));
    }
  });

  it('prints a transport event, which the views show only in part', async () => {
    const id = storedId('transport_events');
    const result = await raw('transport_event', id, '--db', dbPath);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.out) as { attributes: Record<string, unknown> };
    expect(printed.attributes).toHaveProperty('event');
    expect(printed.attributes).toHaveProperty('timestamp');
  });

  it('says so for an id the database does not have, and for a row known only by reference', async () => {
    const missing = await raw('shipment', 'no-such-id', '--db', dbPath);
    expect(missing.code).toBe(1);
    expect(missing.err).toBe(`There is no shipment no-such-id in ${dbPath}.\n`);
    const db = new Database(dbPath);
    db.prepare('INSERT INTO vessels (id) VALUES (?)').run('stub-vessel');
    db.close();
    const stub = await raw('vessel', 'stub-vessel', '--db', dbPath);
    expect(stub.code).toBe(1);
    expect(stub.err).toMatch(/^The vessel stub-vessel is only known by reference here/);
  });

  it('refuses a type it does not know, naming the ones it takes', async () => {
    const result = await raw('shipments', 'x', '--db', dbPath);
    expect(result.code).toBe(2);
    expect(result.err).toContain('raw knows no type "shipments"; it takes one of');
    expect(result.err).toContain('transport_event');
    expect((await raw('shipment', '--db', dbPath)).code).toBe(2);
  });
});
