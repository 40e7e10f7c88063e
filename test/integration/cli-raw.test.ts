/**
 * `quayside raw TYPE ID --db PATH` (issue 17 item 2): every attribute the service sent stays
 * retrievable, also those Quayside keeps no column for. The record printed is compared with what
 * the sandbox serves for it over HTTP, attribute by attribute.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index';
import { DEMO_API_KEY, startSandbox, type Sandbox } from '../../src/sandbox/index';
import { capture } from '../helpers/capture';
import { syncOf } from '../helpers/sync';

let sandbox: Sandbox;
let dbPath = '';

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 'cli-raw', shipments: 12, start: Date.parse('2026-03-02T09:30:00Z'), tick: 0 });
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
