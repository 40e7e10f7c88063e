/**
 * Residual raw: the big tables keep in `raw` only what their columns do not
 * hold, and the store gives back each record as the service sent it. Records written through the
 * writer, odd ones included, read back equal as JSON, and what the columns hold is not in raw.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/core/store/database';
import { readRaw, storedRecordOf } from '../../src/core/store/queries/raw';
import { writeResources } from '../../src/core/store/writer';
import type { StoredResource } from '../../src/core/store/resource';
import { residualSpec } from '../../src/core/store/residual';
import { resources } from '../../src/core/resources';
import { tempDir } from '../helpers/temp-dir';

const at = '2026-02-01T00:00:00Z';
const uuid = (n: number) => `0b1c5b63-5d5c-4c39-9a39-${String(n).padStart(12, '0')}`;

function written(records: StoredResource[]): Db {
  const db = openDatabase(join(tempDir(), 'residual.sqlite'));
  writeResources(db, records, { syncedAt: at });
  return db;
}

const rawOf = (db: Db, table: string, id: string) =>
  db.prepare(`SELECT raw FROM ${table} WHERE id = ?`).pluck().get(id) as string;

/** A transport event as the service sends one: every member present. */
function event(id: string, more: { attributes?: object; relationships?: object } = {}): StoredResource {
  return {
    type: 'transport_event',
    id,
    attributes: {
      event: 'container.transport.vessel_departed',
      created_at: '2026-01-20T10:05:00Z',
      voyage_number: '042E',
      timestamp: '2026-01-20T09:00:00Z',
      timezone: 'Asia/Shanghai',
      location_locode: 'CNSHA',
      data_source: 'shipping_line',
      invalidated_at: null,
      value: null,
      ...more.attributes,
    },
    relationships: {
      shipment: { data: { type: 'shipment', id: 's1' } },
      container: { data: { type: 'container', id: 'c1' } },
      location: { data: { type: 'port', id: 'p1' } },
      terminal: { data: null },
      vessel: { data: { type: 'vessel', id: 'v1' } },
      source_event: { data: null },
      previous_version: { data: null },
      ...more.relationships,
    },
  };
}

describe('residual raw', () => {
  it('keeps nothing of an event whose every member a column holds, and gives it back whole', () => {
    const e = event('e1');
    const db = written([e]);
    expect(rawOf(db, 'transport_events', 'e1')).toBe('{}');
    expect(storedRecordOf(db, 'transport_event', 'e1')).toEqual(e);
    const printed = readRaw(db, 'transport_event', 'e1');
    expect(printed.found === 'record' && JSON.parse(printed.raw)).toEqual(e);
  });

  it('keeps what a column cannot give back exactly, and tells an absent member from a null one', () => {
    const odd = event('e2', {
      attributes: {
        // Not an instant: the column holds NULL. A number where text is expected. A member it never saw.
        timestamp: 'yesterday',
        voyage_number: 42,
        value: 'unusual',
        __proto__: { still: 'a member' },
        created_at: '2026-01-20T10:05:00.000+00:00',
      },
      relationships: {
        // A rail ramp where the column declares a terminal; a relationship with more than data.
        terminal: { data: { type: 'rail_terminal', id: 't9' } },
        vessel: { data: { type: 'vessel', id: 'v1' }, meta: { note: 1 } },
        // A metro area, which the second location column holds.
        location: { data: { type: 'metro_area', id: 'm1' } },
      },
    });
    Object.defineProperty(odd.attributes, '__proto__', { value: { still: 'a member' }, enumerable: true });
    delete odd.attributes.data_source; // absent, not null
    const db = written([odd]);
    const back = storedRecordOf(db, 'transport_event', 'e2')!;
    expect(JSON.stringify(sorted(back))).toBe(JSON.stringify(sorted(odd)));
    expect('data_source' in (back.attributes as object)).toBe(false);
    const residual = JSON.parse(rawOf(db, 'transport_events', 'e2')) as { attributes: object; relationships: object };
    expect(Object.keys(residual.attributes).sort()).toEqual(
      ['__proto__', 'created_at', 'timestamp', 'value', 'voyage_number'].sort(),
    );
    expect(Object.keys(residual.relationships).sort()).toEqual(['terminal', 'vessel']);
  });

  it('keeps lists of ids as 16 bytes an id, and a list in any other shape as sent', () => {
    // Every member the columns hold, as the service sends them all (null where it knows nothing).
    const spec = residualSpec(resources.containers)!;
    const container: StoredResource = {
      type: 'container',
      id: 'c1',
      attributes: {
        ...Object.fromEntries(spec.attributes.map(([name]) => [name, null])),
        number: 'MSCU1234565',
        holds_at_pod_terminal: [],
        fees_at_pod_terminal: [{ amount: 1 }],
      },
      relationships: {
        shipment: { data: { type: 'shipment', id: 's1' } },
        pod_terminal: { data: null },
        pickup_facility: { data: null },
        raw_events: { data: [1, 2, 3].map((n) => ({ type: 'raw_event', id: uuid(n) })) },
        transport_events: { data: [{ type: 'transport_event', id: 'not-a-uuid' }] },
        odd: { '~ids': ['x', 'AAAA'] } as { data?: unknown },
      },
      links: { self: '/v2/containers/c1' },
    };
    const db = written([container]);
    expect(storedRecordOf(db, 'container', 'c1')).toEqual(container);
    const residual = rawOf(db, 'containers', 'c1');
    expect(residual).not.toContain(uuid(1));
    expect(residual).toContain('not-a-uuid');
    expect(residual).not.toContain('/v2/containers/c1');
  });

  it('gives back a record without relationships or attributes as it came', () => {
    const bare: StoredResource = { type: 'custom_field', id: 'v1', attributes: { api_slug: 'po', value: 7 } };
    const db = written([bare]);
    expect(storedRecordOf(db, 'custom_field', 'v1')).toEqual(bare);
  });
});

/** The record with every object's members in name order (JSON equality, member order aside). */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== 'object' || value === null) return value;
  const out = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value).sort()) out[key] = sorted((value as Record<string, unknown>)[key]);
  return out;
}
