import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase, schemaVersion } from '../../src/core/store/database';
import { migrations } from '../../src/core/store/migrations/index';
import * as disk from '../../src/core/store/migrations/0008-smaller-database';
import * as events from '../../src/core/store/migrations/0009-interned-keys';
import * as leaner from '../../src/core/store/migrations/0010-leaner-indexes';
import * as heldSince from '../../src/core/store/migrations/0017-leaner-boxes-and-shipments';
import { listShipments } from '../../src/core/store/queries/shipments';
import { documentById } from '../../src/core/store/queries/documents';
import { storedRecordOf } from '../../src/core/store/queries/raw';
import { containerTransportEvents } from '../../src/core/store/queries/transport-events';
import { heldColumns, residualSpec } from '../../src/core/store/residual';
import { descriptors, uuidText } from '../../src/core/resources';
import { tempDir } from '../helpers/temp-dir';

/** A custom field value on shipment s1 as the service sends it (the 0008 and 0009 upgrades keep it). */
const customFieldValue = {
  type: 'custom_field',
  id: 'v1',
  attributes: { api_slug: 'po', value: 'PO-1', display_value: 'PO-1' },
  relationships: {
    entity: { data: { type: 'shipment', id: 's1' } },
    definition: { data: { type: 'custom_field_definition', id: 'd1' } },
  },
  links: { self: '/v2/custom_fields/v1' },
};

describe('migrations', () => {
  it('are numbered 1, 2, 3… with no gaps', () => {
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1));
    expect(schemaVersion).toBe(migrations.length);
  });

  it('0001 creates every table as STRICT, with foreign keys and the search indexes', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, 1));
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    const tables = db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%search%'")
      .all() as {
      name: string;
      sql: string;
    }[];
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        'shipments',
        'containers',
        'transport_events',
        'tracking_requests',
        'ports',
        'terminals',
        'vessels',
        'parties',
        'shipping_lines',
        'custom_field_definitions',
        'email_submissions',
        'webhooks',
        'sync_state',
        'sync_log',
      ]),
    );
    for (const table of tables) expect(table.sql, table.name).toMatch(/STRICT/);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'shipment_search'").get()).toEqual({
      n: 1,
    });
    const fks = db.prepare("SELECT * FROM pragma_foreign_key_list('containers')").all() as { table: string }[];
    expect(fks.map((f) => f.table)).toEqual(expect.arrayContaining(['shipments', 'terminals']));
    // STRICT refuses a value of the wrong type instead of storing it.
    expect(() => db.prepare("INSERT INTO containers (id, equipment_length) VALUES ('x', 'forty')").run()).toThrow(
      /cannot store TEXT/,
    );
  });

  it('0002 leaves search merges to the sync engine, between pages', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, 2));
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    for (const table of ['shipment_search', 'container_search', 'tracking_request_search']) {
      const config = Object.fromEntries(
        (db.prepare(`SELECT k, v FROM ${table}_config`).all() as { k: string; v: number }[]).map((r) => [r.k, r.v]),
      );
      expect(config, table).toMatchObject({ automerge: 0, crisismerge: 64 });
    }
  });

  it('0003 moves metro areas out of ports with their records, repoints every reference and loses nothing', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, migrations.slice(0, 2));
    const rel = (type: string, id: string) => ({ data: { type, id } });
    const raw = (type: string, id: string, attributes: object, relationships: object = {}) =>
      JSON.stringify({ id, type, attributes, relationships });
    const port = (id: string, type: string, code: string, name: string, attributes: object = {}) =>
      db
        .prepare('INSERT INTO ports (id, code, name, time_zone, raw, synced_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(id, code, name, 'America/Chicago', raw(type, id, { code, name, ...attributes }), 'then');
    port('lax', 'port', 'USLAX', 'Los Angeles');
    port('chi', 'metro_area', 'USCHI', 'Chicago', { latitude: 41.8781, longitude: -87, state_abbr: 'IL' });
    // Stubs (no record): one a shipment names as its destination metro area, one an event names as its location.
    db.prepare("INSERT INTO ports (id) VALUES ('mem'), ('dal'), ('unused')").run();
    db.prepare(
      `INSERT INTO shipments (id, pol_id, pod_id, destination_id, raw) VALUES
       ('s1', 'lax', 'lax', 'chi', ?), ('s2', 'lax', 'lax', 'mem', ?), ('s3', 'lax', 'lax', 'lax', ?)`,
    ).run(
      raw('shipment', 's1', {}, { destination: rel('metro_area', 'chi') }),
      raw('shipment', 's2', {}, { destination: rel('metro_area', 'mem') }),
      raw('shipment', 's3', {}, { destination: rel('port', 'lax') }),
    );
    db.prepare("INSERT INTO containers (id, shipment_id) VALUES ('c1', 's1')").run();
    db.prepare(
      `INSERT INTO transport_events (id, container_id, shipment_id, event, location_id, raw) VALUES
       ('e1', 'c1', 's1', 'container.transport.vessel_discharged', 'lax', ?),
       ('e2', 'c1', 's1', 'container.transport.rail_arrived', 'chi', ?),
       ('e3', 'c1', 's1', 'container.transport.rail_unloaded', 'dal', ?)`,
    ).run(
      raw('transport_event', 'e1', {}, { location: rel('port', 'lax') }),
      raw('transport_event', 'e2', {}, { location: rel('metro_area', 'chi') }),
      raw('transport_event', 'e3', {}, { location: rel('metro_area', 'dal') }),
    );
    db.prepare(
      "INSERT INTO terminals (id, port_id, name, raw) VALUES ('t1', NULL, 'Ramp', ?), ('t2', 'lax', 'Pier', ?)",
    ).run(
      raw('rail_terminal', 't1', { name: 'Ramp' }, { metro_area: rel('metro_area', 'chi') }),
      raw('terminal', 't2', { name: 'Pier' }, { port: rel('port', 'lax') }),
    );
    const before = db.prepare('SELECT id, raw, synced_at FROM ports ORDER BY id').all();

    migrate(db, migrations.slice(0, 3));
    expect(db.pragma('user_version', { simple: true })).toBe(3);
    expect(db.prepare('SELECT id FROM ports ORDER BY id').pluck().all()).toEqual(['lax', 'unused']);
    expect(db.prepare('SELECT * FROM metro_areas ORDER BY id').all()).toEqual([
      {
        id: 'chi',
        code: 'USCHI',
        name: 'Chicago',
        state_abbr: null,
        country_code: null,
        time_zone: 'America/Chicago',
        latitude: 41.8781,
        longitude: -87,
        raw: raw('metro_area', 'chi', {
          code: 'USCHI',
          name: 'Chicago',
          latitude: 41.8781,
          longitude: -87,
          state_abbr: 'IL',
        }),
        synced_at: 'then',
      },
      ...['dal', 'mem'].map((id) => ({
        id,
        code: null,
        name: null,
        state_abbr: null,
        country_code: null,
        time_zone: null,
        latitude: null,
        longitude: null,
        raw: null,
        synced_at: null,
      })),
    ]);
    // Every record and reference is still there, in the column of its kind.
    const rows = new Map(before.map((r) => [(r as { id: string }).id, r]));
    for (const id of ['chi', 'dal', 'mem'])
      expect(db.prepare('SELECT id, raw, synced_at FROM metro_areas WHERE id = ?').get(id)).toEqual(rows.get(id));
    expect(db.prepare('SELECT id, destination_id, destination_metro_area_id FROM shipments ORDER BY id').all()).toEqual(
      [
        { id: 's1', destination_id: null, destination_metro_area_id: 'chi' },
        { id: 's2', destination_id: null, destination_metro_area_id: 'mem' },
        { id: 's3', destination_id: 'lax', destination_metro_area_id: null },
      ],
    );
    expect(db.prepare('SELECT id, location_id, metro_area_id FROM transport_events ORDER BY id').all()).toEqual([
      { id: 'e1', location_id: 'lax', metro_area_id: null },
      { id: 'e2', location_id: null, metro_area_id: 'chi' },
      { id: 'e3', location_id: null, metro_area_id: 'dal' },
    ]);
    expect(db.prepare('SELECT id, port_id, metro_area_id FROM terminals ORDER BY id').all()).toEqual([
      { id: 't1', port_id: null, metro_area_id: 'chi' },
      { id: 't2', port_id: 'lax', metro_area_id: null },
    ]);
    // One view names every place, with its kind.
    expect(
      db.prepare("SELECT kind, id, code, name FROM locations WHERE id IN ('lax', 'chi') ORDER BY id").all(),
    ).toEqual([
      { kind: 'metro_area', id: 'chi', code: 'USCHI', name: 'Chicago' },
      { kind: 'port', id: 'lax', code: 'USLAX', name: 'Los Angeles' },
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });

  it('0004 adds the live service attributes and copies each shipment destination terminal out of its record', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, migrations.slice(0, 3));
    const raw = (terminal: string | null) =>
      JSON.stringify({
        id: 'x',
        type: 'shipment',
        attributes: {},
        relationships: {
          destination_terminal: { data: terminal === null ? null : { type: 'rail_terminal', id: terminal } },
        },
      });
    db.prepare("INSERT INTO terminals (id, name, raw) VALUES ('ramp', 'Joliet ramp', '{}')").run();
    db.prepare("INSERT INTO shipments (id, raw) VALUES ('s1', ?), ('s2', ?), ('s3', ?)").run(
      raw('ramp'),
      raw('not-synced-yet'),
      raw(null),
    );
    migrate(db, migrations.slice(0, 4));
    const rows = db.prepare('SELECT id, destination_terminal_id AS t FROM shipments ORDER BY id').all();
    expect(rows).toEqual([
      { id: 's1', t: 'ramp' },
      { id: 's2', t: 'not-synced-yet' },
      { id: 's3', t: null },
    ]);
    // A terminal not synced yet becomes a stub, so the key holds; the synced one keeps its record.
    expect(db.prepare('SELECT id, name FROM terminals ORDER BY id').all()).toEqual([
      { id: 'not-synced-yet', name: null },
      { id: 'ramp', name: 'Joliet ramp' },
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    const columnsOf = (table: string) =>
      (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map((c) => c.name);
    expect(columnsOf('transport_events')).toEqual(expect.arrayContaining(['invalidated_at', 'previous_version_id']));
    expect(columnsOf('containers')).toEqual(
      expect.arrayContaining(['delivered_at', 'empty_out_at', 'line_lfd', 'facility_holds', 'facility_fees_total']),
    );
    expect(columnsOf('ports')).toEqual(expect.arrayContaining(['latitude', 'longitude']));
  });

  it('0006 (custom-field-lists) indexes the custom field values a list sorts and filters by, typed, from a v5 database', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, migrations.slice(0, 5));
    const insert = db.prepare(
      "INSERT INTO custom_fields (id, entity_type, entity_id, api_slug, value, display_value, raw) VALUES (?, 'container', ?, 'pallets', ?, ?, '{}')",
    );
    // Numbers as JSON, one left unset, and text that is no JSON (the index must not refuse it).
    insert.run('v1', 'c1', '10', '10');
    insert.run('v2', 'c2', '4', '4');
    insert.run('v3', 'c3', null, null);
    insert.run('v4', 'c4', 'not json', 'not json');
    migrate(db, migrations.slice(0, 6));
    const indexes = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'custom_fields' ORDER BY name")
      .pluck()
      .all();
    expect(indexes).toEqual(expect.arrayContaining(['custom_fields_list_text', 'custom_fields_list_value']));
    // Typed: 4 before 10 (as text, '10' < '4'); the unset and the unreadable have no value.
    const typed = db
      .prepare(
        `SELECT entity_id FROM custom_fields INDEXED BY custom_fields_list_value
          WHERE entity_type = 'container' AND api_slug = 'pallets'
            AND (CASE WHEN json_valid(value) THEN json_extract(value, '$') END) IS NOT NULL
          ORDER BY (CASE WHEN json_valid(value) THEN json_extract(value, '$') END)`,
      )
      .pluck()
      .all();
    expect(typed).toEqual(['c2', 'c1']);
    insert.run('v5', 'c5', '"[broken', '[broken');
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('0006 (changes) adds the change history, its marks and the last free day’s source, keeping every row', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, 5));
    db.prepare("INSERT INTO shipments (id, raw) VALUES ('s1', '{}')").run();
    db.prepare(
      "INSERT INTO containers (id, shipment_id, last_free_day, raw, raw_hash) VALUES ('c1', 's1', '2026-03-05', '{}', 'h')",
    ).run();
    migrate(db, migrations.slice(0, 6));
    expect(db.pragma('user_version', { simple: true })).toBe(6);
    const sqlOf = (name: string) =>
      db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(name) as string | undefined;
    expect(sqlOf('record_changes')).toMatch(/\) STRICT$/);
    expect(sqlOf('change_marks')).toMatch(/\) STRICT$/);
    // Read "since T" (and pruned) by seen_at; a record's history by record, field and time.
    expect(sqlOf('record_changes_seen_at')).toMatch(/\(seen_at\)/);
    expect(sqlOf('record_changes_record')).toMatch(/\(record_id, field, seen_at\)/);
    expect(db.prepare('SELECT id, last_free_day, lfd_source FROM containers').all()).toEqual([
      { id: 'c1', last_free_day: '2026-03-05', lfd_source: null },
    ]);
    const plan = db
      .prepare(
        "EXPLAIN QUERY PLAN SELECT * FROM record_changes WHERE seen_at > '2026-01-01' ORDER BY seen_at DESC, id DESC",
      )
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING INDEX record_changes_seen_at/);
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });

  it('0008 keeps in raw only what the columns do not hold, from a v7 file, losing nothing, and gives the pages back', () => {
    const file = join(tempDir(), 'v7.sqlite');
    const v7 = new Database(file);
    v7.pragma('journal_mode = WAL');
    // A database as the Quayside before this one left it (0007, the alerts and the feed, applied).
    migrate(v7, migrations.slice(0, 7));
    const shipment = {
      type: 'shipment',
      id: 's1',
      attributes: {
        bill_of_lading_number: 'MAEU123',
        ref_numbers: ['PO-1'],
        tags: [],
        // Not a date: its column holds NULL, so the residual keeps it.
        pod_eta_at: 'next Tuesday',
        pod_ata_at: null,
        note: 'ünïcode ✓ "quoted"',
      },
      relationships: {
        port_of_discharge: { data: { type: 'port', id: 'p1' } },
        line_tracking_stopped_by_user: { data: null },
        containers: { data: [{ type: 'container', id: '0b1c5b63-5d5c-4c39-9a39-1b3b7e5d0f11' }] },
      },
      links: { self: '/v2/shipments/s1' },
    };
    const container = {
      type: 'container',
      id: 'c1',
      attributes: {
        number: 'MSCU1234565',
        equipment_length: 40,
        available_for_pickup: true,
        holds_at_pod_terminal: [],
      },
      relationships: {
        shipment: { data: { type: 'shipment', id: 's1' } },
        transport_events: { data: [{ type: 'transport_event', id: 'e1' }] },
      },
      meta: { odd: [1, 2] },
    };
    // A rail terminal where the column declares a terminal, and no `value` at all (absent, not null).
    const event = {
      type: 'transport_event',
      id: 'e1',
      attributes: {
        event: 'container.transport.vessel_loaded',
        created_at: '2026-03-01T10:05:00Z',
        voyage_number: 7,
        timestamp: '2026-03-01T10:00:00Z',
        timezone: 'Asia/Shanghai',
        location_locode: 'CNSHA',
        data_source: 'shipping_line',
        invalidated_at: null,
      },
      relationships: {
        shipment: { data: { type: 'shipment', id: 's1' } },
        container: { data: { type: 'container', id: 'c1' } },
        location: { data: { type: 'port', id: 'p1' } },
        terminal: { data: { type: 'rail_terminal', id: 't1' } },
        vessel: { data: null },
        source_event: { data: null },
        previous_version: { data: null },
      },
    };
    const request = {
      type: 'tracking_request',
      id: 'r1',
      attributes: { request_number: 'MAEU123', is_retrying: false },
    };
    const value = customFieldValue;
    const insert = (sql: string, ...args: unknown[]) => v7.prepare(sql).run(...args);
    insert("INSERT INTO ports (id) VALUES ('p1')");
    insert("INSERT INTO terminals (id) VALUES ('t1')");
    insert("INSERT INTO custom_field_definitions (id) VALUES ('d1')");
    insert(
      `INSERT INTO shipments (id, bill_of_lading, ref_numbers, tags, pod_id, raw) VALUES ('s1', 'MAEU123', '["PO-1"]', '[]', 'p1', ?)`,
      JSON.stringify(shipment),
    );
    insert("INSERT INTO shipments (id) VALUES ('s-stub')");
    // equipment_length left NULL, as a row an older Quayside wrote: the residual keeps it.
    insert(
      `INSERT INTO containers (id, shipment_id, number, available_for_pickup, raw) VALUES ('c1', 's1', 'MSCU1234565', 1, ?)`,
      JSON.stringify(container),
    );
    insert(
      `INSERT INTO transport_events (id, container_id, shipment_id, event, timestamp, timezone, location_locode,
         location_id, terminal_id, data_source, created_at, raw)
       VALUES ('e1', 'c1', 's1', 'container.transport.vessel_loaded', '2026-03-01T10:00:00Z', 'Asia/Shanghai',
         'CNSHA', 'p1', 't1', 'shipping_line', '2026-03-01T10:05:00Z', ?)`,
      JSON.stringify(event),
    );
    insert(
      "INSERT INTO tracking_requests (id, request_number, is_retrying, raw) VALUES ('r1', 'MAEU123', 0, ?)",
      JSON.stringify(request),
    );
    insert(
      `INSERT INTO custom_fields (id, entity_type, entity_id, definition_id, api_slug, value, display_value, raw)
       VALUES ('v1', 'shipment', 's1', 'd1', 'po', '"PO-1"', 'PO-1', ?)`,
      JSON.stringify(value),
    );
    v7.close();

    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(schemaVersion);
    const records: [string, string, { id: string }][] = [
      ['shipments', 'shipment', shipment],
      ['containers', 'container', container],
      ['transport_events', 'transport_event', event],
      ['tracking_requests', 'tracking_request', request],
      ['custom_fields', 'custom_field', value],
    ];
    for (const [table, type, record] of records) {
      // Given back whole; raw never holds more than the record (a sparse one is kept whole).
      expect(storedRecordOf(db, type, record.id), `${type} ${record.id}`).toEqual(record);
      const raw = db.prepare(`SELECT raw FROM ${table} WHERE id = ?`).pluck().get(record.id) as string;
      expect(raw.length, `${type} ${record.id}`).toBeLessThanOrEqual(JSON.stringify(record).length + 2);
    }
    const rawOf = (table: string, id: string) =>
      db.prepare(`SELECT raw FROM ${table} WHERE id = ?`).pluck().get(id) as string;
    expect(rawOf('transport_events', 'e1').length).toBeLessThan(JSON.stringify(event).length / 2);
    expect(rawOf('custom_fields', 'v1')).toBe('{}');
    // What the columns could not give back stays in raw.
    // (This sparse container lacks most held members: kept whole, so its length is in raw too.)
    expect(rawOf('containers', 'c1')).toContain('"equipment_length":40');
    expect(JSON.parse(rawOf('transport_events', 'e1'))).toMatchObject({
      attributes: { voyage_number: 7 },
      relationships: { terminal: { data: { type: 'rail_terminal', id: 't1' } } },
    });
    expect(storedRecordOf(db, 'shipment', 's-stub')).toBeNull();
    expect(db.prepare("SELECT listed_events FROM containers WHERE id = 'c1'").pluck().get()).toBe(1);
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").pluck().all();
    expect(indexes).not.toContain('transport_events_shipment');
    expect(indexes).not.toContain('custom_fields_definition_id');
    expect(indexes).toContain('transport_events_container');
    // The upgrade ran VACUUM: no free pages left behind by the rewritten rows.
    expect(db.pragma('freelist_count', { simple: true })).toBe(0);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('0008 and 0010 strip each table by what its descriptor declares its columns hold', () => {
    // The migrations' specs are frozen text; the writer's come from the descriptors. Until they are
    // released they must be the same (once released, a descriptor may hold more than they strip).
    for (const t of [...disk.stripped, ...leaner.stripped]) {
      const d = descriptors.find((x) => x.table === t.table)!;
      // Columns a later migration added (0017) hold more: rows from before keep theirs in raw.
      const later = new Set(heldSince.held.filter(([table]) => table === t.table).map(([, column]) => column));
      const names = Object.keys(d.columns);
      const held = heldColumns(d).filter((h) => !later.has(h.name));
      const heldBefore = (index: number) => !later.has(names[index]!);
      // 0009 renamed the event columns it keeps as keys.
      const renamedBy = (m: typeof events, name: string) => m.renamed[t.table]?.[name] ?? name;
      const now = (name: string) => renamedBy(leaner, renamedBy(events, name));
      expect(t.columns.split(', ').map(now), t.table).toEqual(held.map((h) => h.name));
      const at = new Map(held.map((h, i) => [h.index, i]));
      const spec = residualSpec(d)!;
      expect(JSON.parse(t.spec), t.table).toEqual({
        ...spec,
        attributes: spec.attributes
          .filter(([, index]) => heldBefore(index))
          .map(([name, index, kind]) => [name, at.get(index), kind]),
        relationships: spec.relationships.map(([name, held]) => [
          name,
          held.map(([index, type]) => [at.get(index), typeof type === 'number' ? at.get(type) : type]),
        ]),
      });
    }
    // Every table that kept whole records before them is stripped by them; a table made after
    // them (read from the schema at version 10) is written residual from its first row.
    const v10 = new Database(':memory:');
    migrate(v10, migrations.slice(0, 10));
    const tablesAtV10 = new Set(
      v10.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[],
    );
    v10.close();
    const stripped = new Set([...disk.stripped, ...leaner.stripped].map((t) => t.table));
    expect(
      descriptors
        .filter((d) => residualSpec(d) !== null && tablesAtV10.has(d.table))
        .map((d) => d.table)
        .sort(),
    ).toEqual([...stripped].sort());
  });

  it('0009 keeps event and custom field ids and repeated texts as keys, from a v8 file, every record given back whole', () => {
    const file = join(tempDir(), 'v8.sqlite');
    const v8 = new Database(file);
    migrate(v8, migrations.slice(0, 8));
    const insert = (sql: string, ...args: unknown[]) => v8.prepare(sql).run(...args);
    insert("INSERT INTO ports (id, name) VALUES ('p1', 'Shanghai')");
    insert("INSERT INTO metro_areas (id, name) VALUES ('m1', 'Chicago')");
    insert("INSERT INTO terminals (id, name) VALUES ('t1', 'Yangshan')");
    insert("INSERT INTO vessels (id, name) VALUES ('v1', 'EVER GIVEN')");
    insert("INSERT INTO shipments (id, bill_of_lading) VALUES ('s1', 'MAEU123')");
    insert("INSERT INTO containers (id, shipment_id, number) VALUES ('c1', 's1', 'MSCU1234565')");
    const event = (id: string, at: string, location: [string, string], previous: string | null) => ({
      type: 'transport_event',
      id,
      attributes: {
        event: 'container.transport.vessel_loaded',
        timestamp: at,
        timezone: 'Asia/Shanghai',
        data_source: 'shipping_line',
        voyage_number: '12E',
        location_locode: null,
        created_at: null,
        invalidated_at: null,
        value: null,
      },
      relationships: {
        container: { data: { type: 'container', id: 'c1' } },
        shipment: { data: { type: 'shipment', id: 's1' } },
        location: { data: { type: location[0], id: location[1] } },
        terminal: { data: { type: 'terminal', id: 't1' } },
        vessel: { data: { type: 'vessel', id: 'v1' } },
        previous_version: { data: previous ? { type: 'transport_event', id: previous } : null },
        source_event: { data: null },
      },
    });
    const e1 = event('e1', '2026-03-01T10:00:00Z', ['port', 'p1'], null);
    // A UUID, kept as its 16 bytes; the others are not UUIDs and stay text.
    const E2 = '0b1c5b63-5d5c-4c39-9a39-1b3b7e5d0f22';
    const e2 = event(E2, '2026-03-02T10:00:00Z', ['metro_area', 'm1'], 'e1');
    const row = `INSERT INTO transport_events (id, container_id, shipment_id, event, timestamp, timezone, location_id,
      metro_area_id, terminal_id, vessel_id, voyage_number, data_source, previous_version_id, raw)
      VALUES (?, 'c1', 's1', 'container.transport.vessel_loaded', ?, 'Asia/Shanghai', ?, ?, 't1', 'v1', '12E',
        'shipping_line', ?, ?)`;
    insert(row, 'e1', e1.attributes.timestamp, 'p1', null, null, JSON.stringify(e1));
    insert(row, E2, e2.attributes.timestamp, null, 'm1', 'e1', JSON.stringify(e2));
    // An instant in a form the store no longer writes, its member left out of raw (the column held it):
    // milliseconds would give back another text, so the text moves into raw.
    const e3 = event('e3', '2026-03-03T12:00:00+02:00', ['port', 'p1'], null);
    const { timestamp: _kept, ...rest } = e3.attributes;
    insert(row, 'e3', e3.attributes.timestamp, 'p1', null, null, JSON.stringify({ ...e3, attributes: rest }));
    const value = customFieldValue;
    insert("INSERT INTO custom_field_definitions (id, api_slug) VALUES ('d1', 'po')");
    insert(
      `INSERT INTO custom_fields (id, entity_type, entity_id, definition_id, api_slug, value, display_value, raw, synced_at)
       VALUES ('v1', 'shipment', 's1', 'd1', 'po', '"PO-1"', 'PO-1', '{}', '2026-03-05T00:00:00.250Z')`,
    );
    v8.close();

    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(storedRecordOf(db, 'transport_event', 'e1')).toEqual(e1);
    expect(storedRecordOf(db, 'transport_event', E2)).toEqual(e2);
    expect(storedRecordOf(db, 'transport_event', 'e3')).toEqual(e3);
    expect(storedRecordOf(db, 'custom_field', 'v1')).toEqual(value);
    expect(
      db
        .prepare(
          `SELECT e.text AS entity_id, i.text AS definition, v.synced_at FROM custom_fields v
           JOIN interned i ON i.key = v.definition_key JOIN interned e ON e.key = v.entity_key`,
        )
        .get(),
    ).toEqual({ entity_id: 's1', definition: 'd1', synced_at: Date.parse('2026-03-05T00:00:00.250Z') });
    expect(
      db
        .prepare("SELECT name FROM sqlite_master WHERE tbl_name = 'custom_fields' AND type = 'index' ORDER BY name")
        .pluck()
        .all(),
    ).toEqual([
      'custom_fields_entity',
      'custom_fields_list_text',
      'custom_fields_list_value',
      'sqlite_autoindex_custom_fields_1',
    ]);
    // Instants as milliseconds, the one that would not read back the same aside in raw.
    expect(db.prepare('SELECT typeof(id) AS kind, timestamp FROM transport_events ORDER BY timestamp').all()).toEqual([
      { kind: 'text', timestamp: Date.parse(e1.attributes.timestamp) },
      { kind: 'blob', timestamp: Date.parse(e2.attributes.timestamp) },
      { kind: 'text', timestamp: Date.parse(e3.attributes.timestamp) },
    ]);
    expect(db.prepare('SELECT hex(id) FROM transport_events WHERE typeof(id) = ?').pluck().get('blob')).toBe(
      E2.replaceAll('-', '').toUpperCase(),
    );
    // Each text once, every event column a key to it.
    const texts = db.prepare('SELECT text FROM interned ORDER BY text').pluck().all();
    expect(texts).toEqual(
      [
        'Asia/Shanghai',
        'c1',
        'container.transport.vessel_loaded',
        'd1',
        'm1',
        'p1',
        // 0010: a custom field value's slug and record type.
        'po',
        's1',
        'shipment',
        'shipping_line',
        't1',
        'v1',
      ].sort(),
    );
    const keyed = db
      .prepare(
        `SELECT ${uuidText('e', 'id')} AS id, ${Object.values(events.renamed.transport_events!)
          .map((c) => `(SELECT text FROM interned WHERE key = e.${c}) AS ${c}`)
          .join(', ')} FROM transport_events e ORDER BY e.timestamp`,
      )
      .all();
    expect(keyed).toEqual([
      expect.objectContaining({ id: 'e1', container_key: 'c1', location_key: 'p1', metro_area_key: null }),
      expect.objectContaining({ id: E2, container_key: 'c1', location_key: null, metro_area_key: 'm1' }),
      expect.objectContaining({ id: 'e3', container_key: 'c1', location_key: 'p1', metro_area_key: null }),
    ]);
    // The views read them back, names joined in.
    expect(containerTransportEvents(db, 'c1')).toEqual([
      expect.objectContaining({
        id: 'e1',
        container_id: 'c1',
        location: 'Shanghai',
        terminal: 'Yangshan',
        vessel: 'EVER GIVEN',
        event: 'container.transport.vessel_loaded',
        timezone: 'Asia/Shanghai',
        data_source: 'shipping_line',
        timestamp: '2026-03-01T10:00:00Z',
        replaced_by: E2,
      }),
      expect.objectContaining({ id: E2, location: 'Chicago', previous_version_id: 'e1', replaced_by: null }),
      // The views read the instant as the store keeps it: UTC.
      expect.objectContaining({ id: 'e3', timestamp: '2026-03-03T10:00:00Z' }),
    ]);
    const corrections = db
      .prepare("SELECT sql FROM sqlite_master WHERE name = 'transport_events_previous_version_id'")
      .pluck()
      .get() as string;
    expect(corrections).toMatch(/WHERE previous_version_id IS NOT NULL/);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('freelist_count', { simple: true })).toBe(0);
    db.close();
  });

  /** A document as the service sends it (0010 strips what its columns hold). */
  const document = {
    type: 'document',
    id: 'doc1',
    attributes: {
      id: 'doc1',
      name: 'Bill of lading',
      document_type: 'bill_of_lading',
      document_type_manual: null,
      classification_notes: null,
      source: 'email',
      file_name: 'bl.pdf',
      file_content_type: 'application/pdf',
      file_size_bytes: 28700,
      created_at: '2026-03-01T10:00:00Z',
      updated_at: '2026-03-01T10:00:00Z',
    },
    relationships: {
      user: { data: null },
      email_submission: { data: null },
      last_document_representation: { data: null },
      shipments: { data: [{ type: 'shipment', id: 's1' }] },
    },
    links: { self: '/v2/documents/doc1', download: 'https://files.example/doc1.pdf?signature=x' },
  };

  it('0010 sorts the lists by the column alone, ties by rowid, and keeps custom field values’ ids as keys, from a v9 file', () => {
    const file = join(tempDir(), 'v9.sqlite');
    const v9 = new Database(file);
    migrate(v9, migrations.slice(0, 9));
    // Five shipments, three of them created in the same minute, written in an order their ids do not sort in.
    const insert = v9.prepare(
      "INSERT INTO shipments (id, created_at, synced_at) VALUES (?, ?, '2026-03-05T00:00:00.000Z')",
    );
    const written = [
      ['s-e', '2026-03-01T10:00:00Z'],
      ['s-c', '2026-03-02T10:00:00Z'],
      ['s-a', '2026-03-02T10:00:00Z'],
      ['s-d', '2026-03-02T10:00:00Z'],
      ['s-b', null],
    ];
    for (const [id, at] of written) insert.run(id, at);
    v9.prepare(
      `INSERT INTO custom_fields (id, entity_type, entity_id, definition_key, api_slug, value, display_value, raw, synced_at)
       VALUES ('v1', 'shipment', 's1', NULL, 'po', '"PO-1"', 'PO-1', ?, 1772668800250)`,
    ).run(JSON.stringify({ relationships: { definition: { data: null } } }));
    // A document as 0009 kept it: whole.
    v9.prepare(
      `INSERT INTO documents (id, name, document_type, source, file_name, content_type, size_bytes, created_at, updated_at, raw, synced_at)
       VALUES ('doc1', 'Bill of lading', 'bill_of_lading', 'email', 'bl.pdf', 'application/pdf', 28700,
         '2026-03-01T10:00:00Z', '2026-03-01T10:00:00Z', ?, '2026-03-05T00:00:00.000Z')`,
    ).run(JSON.stringify(document));
    v9.close();

    const db = openDatabase(file);
    const sql = (name: string) =>
      db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(name) as string;
    expect(sql('shipments_created')).toBe('CREATE INDEX shipments_created ON shipments (created_at)');
    expect(sql('containers_lfd')).toBe('CREATE INDEX containers_lfd ON containers (lfd_deadline_at)');
    expect(sql('tracking_requests_updated')).toBe(
      'CREATE INDEX tracking_requests_updated ON tracking_requests (updated_at)',
    );
    // A filter reads the carrier's index too: it keeps the id.
    expect(sql('shipments_scac')).toBe('CREATE INDEX shipments_scac ON shipments (shipping_line_scac, id)');
    // Newest first; the three of one minute in the reverse of the order they were written; no date last.
    const seen: string[] = [];
    let after: string | undefined;
    do {
      const page = listShipments(db, {}, { sort: { field: 'created_at', direction: 'desc' }, limit: 2, after });
      seen.push(...page.rows.map((r) => r.id));
      after = page.next ?? undefined;
    } while (after);
    expect(seen).toEqual(['s-d', 's-a', 's-c', 's-e', 's-b']);
    // A custom field value: its record, record type and slug as keys, the record given back whole.
    expect(
      db
        .prepare(
          `SELECT e.text AS entity, t.text AS type, a.text AS slug, v.display_value FROM custom_fields v
             JOIN interned e ON e.key = v.entity_key JOIN interned t ON t.key = v.entity_type_key
             JOIN interned a ON a.key = v.api_slug_key`,
        )
        .all(),
    ).toEqual([{ entity: 's1', type: 'shipment', slug: 'po', display_value: 'PO-1' }]);
    expect(storedRecordOf(db, 'custom_field', 'v1')).toEqual({
      type: 'custom_field',
      id: 'v1',
      attributes: { api_slug: 'po', value: 'PO-1', display_value: 'PO-1' },
      relationships: { entity: { data: { type: 'shipment', id: 's1' } }, definition: { data: null } },
      links: { self: '/v2/custom_fields/v1' },
    });
    // A document: its raw only what no column holds, the record given back whole, its link still read.
    expect(JSON.parse(db.prepare("SELECT raw FROM documents WHERE id = 'doc1'").pluck().get() as string)).toEqual({
      attributes: { id: 'doc1', document_type: 'bill_of_lading' },
      relationships: { shipments: { data: [{ type: 'shipment', id: 's1' }] } },
      links: document.links,
    });
    expect(storedRecordOf(db, 'document', 'doc1')).toEqual(document);
    expect(documentById(db, 'doc1')?.link).toBe(document.links.download);
    expect(sql('custom_fields_list_text')).toBe(
      'CREATE INDEX custom_fields_list_text ON custom_fields (entity_type_key, api_slug_key, display_value, entity_key)',
    );
    expect(db.pragma('foreign_key_check')).toEqual([]);
    // The first page walks the index alone: no sort of the rows it finds.
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT s.id FROM shipments s WHERE s.created_at IS NOT NULL
          ORDER BY s.created_at DESC, s.rowid DESC LIMIT 3`,
      )
      .all() as { detail: string }[];
    const details = plan.map((p) => p.detail).join(' | ');
    expect(details).toMatch(/USING INDEX shipments_created/);
    expect(details).not.toMatch(/TEMP B-TREE/);
    db.close();
  });

  it('0011 counts the default lists’ rows from their live index alone, from a v10 file, every row counted', () => {
    const file = join(tempDir(), 'v10.sqlite');
    const v10 = new Database(file);
    migrate(v10, migrations.slice(0, 10));
    const shipment = v10.prepare('INSERT INTO shipments (id, created_at, synced_at) VALUES (?, ?, ?)');
    // Given and dated, given without a date, and not given yet (a placeholder a container named).
    for (const [id, at, synced] of [
      ['s1', '2026-03-01T10:00:00Z', '2026-03-05T00:00:00.000Z'],
      ['s2', '2026-03-02T10:00:00Z', '2026-03-05T00:00:00.000Z'],
      ['s3', null, '2026-03-05T00:00:00.000Z'],
      ['s4', '2026-03-03T10:00:00Z', null],
    ])
      shipment.run(id, at, synced);
    const container = v10.prepare('INSERT INTO containers (id, status, created_at, synced_at) VALUES (?, ?, ?, ?)');
    container.run('c1', 'available', '2026-03-01T10:00:00Z', '2026-03-05T00:00:00.000Z');
    container.run('c2', 'picked_up', null, '2026-03-05T00:00:00.000Z');
    v10.close();

    const db = openDatabase(file);
    const sql = (name: string) =>
      db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(name) as string;
    expect(sql('shipments_live')).toBe(
      'CREATE INDEX shipments_live ON shipments (synced_at, created_at) WHERE synced_at IS NOT NULL',
    );
    expect(sql('containers_live')).toBe(
      'CREATE INDEX containers_live ON containers (status, synced_at, created_at) WHERE synced_at IS NOT NULL',
    );
    const plan = (query: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${query}`).all() as { detail: string }[]).map((p) => p.detail).join(' | ');
    const count = (query: string) => db.prepare(query).pluck().get() as number;
    // The export's counts of the default order's two phases: the index alone, every row counted.
    const dated = 'SELECT count(*) FROM shipments s WHERE s.synced_at IS NOT NULL AND s.created_at IS NOT NULL';
    expect(plan(dated)).toMatch(/COVERING INDEX shipments_live/);
    expect(count(dated)).toBe(2);
    expect(count('SELECT count(*) FROM shipments s WHERE s.synced_at IS NOT NULL AND s.created_at IS NULL')).toBe(1);
    const boxes = 'SELECT count(*) FROM containers c WHERE c.synced_at IS NOT NULL AND c.created_at IS NOT NULL';
    expect(plan(boxes)).toMatch(/COVERING INDEX containers_live/);
    expect(count(boxes)).toBe(1);
    // The dashboard still counts boxes by status from it.
    expect(plan('SELECT status, count(*) FROM containers WHERE synced_at IS NOT NULL GROUP BY status')).toMatch(
      /COVERING INDEX containers_live/,
    );
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('0014 counts each filter chip’s values from an index of its own, from a v13 file, every given row counted', () => {
    const file = join(tempDir(), 'v13.sqlite');
    const v13 = new Database(file);
    migrate(v13, migrations.slice(0, 13));
    const shipment = v13.prepare(
      `INSERT INTO shipments (id, customer_name, shipping_line_scac, shipping_line_name, pol_locode, pol_name,
         pod_locode, pod_name, destination_locode, destination_name, pod_terminal_id, synced_at)
       VALUES (?, ?, 'MSCU', 'MSC', 'CNSHA', 'Shanghai', 'USLAX', 'Los Angeles', 'USCHI', 'Chicago', NULL, ?)`,
    );
    // Given, with customers whose names differ only by case; and a placeholder a container named.
    for (const [id, customer, synced] of [
      ['s1', 'Acme', '2026-03-05T00:00:00.000Z'],
      ['s2', 'ACME', '2026-03-05T00:00:00.000Z'],
      ['s3', 'Acme', '2026-03-05T00:00:00.000Z'],
      ['s4', 'Bolt', '2026-03-05T00:00:00.000Z'],
      ['s5', 'Acme', null],
    ])
      shipment.run(id, customer, synced);
    const container = v13.prepare('INSERT INTO containers (id, holds, holds_count, synced_at) VALUES (?, ?, ?, ?)');
    container.run('c1', '[{"name":"customs"}]', 1, '2026-03-05T00:00:00.000Z');
    container.run('c2', '[]', 0, '2026-03-05T00:00:00.000Z');
    v13.close();

    const db = openDatabase(file);
    const plan = (query: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${query}`).all() as { detail: string }[]).map((p) => p.detail).join(' | ');
    // Customers: in the order shown from the index, no sort after it, each spelling its own value.
    const customers = `SELECT customer_name AS value, count(*) AS n FROM shipments WHERE synced_at IS NOT NULL
      AND customer_name >= 'a' COLLATE NOCASE GROUP BY customer_name COLLATE NOCASE, customer_name
      ORDER BY customer_name COLLATE NOCASE, customer_name`;
    expect(plan(customers)).toMatch(/USING INDEX shipments_customer_values \(customer_name>\?\)/);
    expect(plan(customers)).not.toMatch(/TEMP B-TREE/);
    expect(db.prepare(customers).all()).toEqual([
      { value: 'ACME', n: 1 },
      { value: 'Acme', n: 2 },
      { value: 'Bolt', n: 1 },
    ]);
    for (const [column, index] of [
      ['shipping_line_scac', 'shipments_carrier_values'],
      ['pol_locode', 'shipments_pol_values'],
      ['pod_locode', 'shipments_pod_values'],
      ['destination_locode', 'shipments_destination_values'],
      ['pod_terminal_id', 'shipments_terminal_values'],
    ]) {
      const counted = `SELECT ${column}, count(*) AS n FROM shipments WHERE synced_at IS NOT NULL GROUP BY ${column}`;
      expect(plan(counted), column).toMatch(new RegExp(`USING (COVERING )?INDEX ${index}`));
      expect(plan(counted), column).not.toMatch(/TEMP B-TREE/);
      expect(
        db
          .prepare(counted)
          .all()
          .reduce((n: number, r) => n + (r as { n: number }).n, 0),
      ).toBe(4);
    }
    const held = 'SELECT count(*) FROM containers WHERE synced_at IS NOT NULL AND holds_count > 0';
    expect(plan(held)).toMatch(/USING (COVERING )?INDEX containers_held/);
    expect(db.prepare(held).pluck().get()).toBe(1);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('0015 reads the insights from indexes alone, from a v14 file, every arrival, box and event kept', () => {
    const file = join(tempDir(), 'v14.sqlite');
    const v14 = new Database(file);
    migrate(v14, migrations.slice(0, 14));
    const shipment = v14.prepare(
      `INSERT INTO shipments (id, shipping_line_scac, pol_locode, pod_locode, pod_original_eta_at, pod_eta_at, pod_ata_at,
         created_at, synced_at, raw) VALUES (?, 'MSCU', 'CNSHA', 'USLAX', '2026-03-01T00:00:00Z', NULL, ?, '2026-01-01T00:00:00Z',
         '2026-03-05T00:00:00Z', '{}')`,
    );
    shipment.run('s1', '2026-03-02T00:00:00Z');
    shipment.run('s2', null);
    const container = v14.prepare(
      `INSERT INTO containers (id, shipment_id, pod_discharged_at, pod_full_out_at, synced_at, raw)
       VALUES (?, ?, '2026-03-02T06:00:00Z', '2026-03-04T06:00:00Z', '2026-03-05T00:00:00Z', '{}')`,
    );
    container.run('c1', 's1');
    container.run('c2', 's2');
    v14.prepare("INSERT INTO containers (id) VALUES ('c3')").run();
    const key = (text: string) =>
      v14.prepare('INSERT INTO interned (text) VALUES (?) RETURNING key').pluck().get(text) as number;
    const [box, available, withdrawn] = [key('c1'), key('container.transport.available'), key('other')];
    const event = v14.prepare(
      'INSERT INTO transport_events (id, container_key, event_key, timestamp, invalidated_at, raw) VALUES (?, ?, ?, ?, ?, ?)',
    );
    event.run('e1', box, available, Date.parse('2026-03-02T12:00:00Z'), null, '{}');
    event.run('e2', box, available, Date.parse('2026-03-02T09:00:00Z'), Date.parse('2026-03-03T00:00:00Z'), '{}');
    event.run('e3', box, withdrawn, Date.parse('2026-03-02T08:00:00Z'), null, '{}');
    v14.close();

    const db = openDatabase(file);
    const plan = (query: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${query}`).all() as { detail: string }[]).map((p) => p.detail).join(' | ');
    const arrived = `SELECT s.id, s.shipping_line_scac, s.pol_locode, s.pod_locode, s.pod_original_eta_at, s.pod_eta_at,
        s.pol_atd_at, s.created_at, s.destination_terminal_id FROM shipments s WHERE s.pod_ata_at >= '' AND s.pod_ata_at < '~'`;
    expect(plan(arrived)).toMatch(/COVERING INDEX shipments_arrivals/);
    expect(db.prepare(arrived).pluck().all()).toEqual(['s1']);
    const boxes = `SELECT c.id, c.pod_terminal_id, c.ind_ata_at, c.pod_rail_loaded_at, c.lfd_source, c.pod_discharged_at,
        c.pod_full_out_at, c.final_destination_full_out_at, c.empty_terminated_at, c.lfd_deadline_at
      FROM shipments s JOIN containers c ON c.shipment_id = s.id WHERE s.pod_ata_at >= '' AND s.pod_ata_at < '~'`;
    expect(plan(boxes)).toMatch(/COVERING INDEX containers_dwell/);
    expect(db.prepare(boxes).pluck().all()).toEqual(['c1']);
    // The first "available" not withdrawn, from the events' index alone.
    const first = `SELECT min(timestamp) FROM transport_events WHERE container_key = ${box}
        AND event_key = ${available} AND invalidated_at IS NULL`;
    expect(plan(first)).toMatch(/COVERING INDEX transport_events_container/);
    expect(db.prepare(first).pluck().get()).toBe(Date.parse('2026-03-02T12:00:00Z'));
    // Every box of a shipment is still found by its shipment.
    expect(db.prepare("SELECT id FROM containers WHERE shipment_id = 's2'").pluck().all()).toEqual(['c2']);
    expect(db.prepare('SELECT count(*) FROM transport_events').pluck().get()).toBe(3);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('0017 finds boxes by shipment through containers_dwell and holds the check times, from a v16 file, every record read back as before', () => {
    const file = join(tempDir(), 'v16.sqlite');
    const v16 = new Database(file);
    migrate(v16, migrations.slice(0, 16));
    const checked = '{"attributes":{"updated_at":"2026-03-05T00:00:00Z","line_tracking_last_attempted_at":null}}';
    v16
      .prepare(
        "INSERT INTO shipments (id, synced_at, raw) VALUES ('s1', '2026-03-05T00:00:00Z', ?), ('s2', '2026-03-05T00:00:00Z', '{}'), ('s3', NULL, NULL)",
      )
      .run(checked);
    const container = v16.prepare(
      "INSERT INTO containers (id, shipment_id, number, synced_at, raw) VALUES (?, ?, ?, '2026-03-05T00:00:00Z', ?)",
    );
    container.run(
      'c1',
      's1',
      'MSCU1000001',
      '{"attributes":{"shipment_last_tracking_request_at":"2026-03-04T10:00:00Z"}}',
    );
    container.run('c2', 's1', 'MSCU1000002', '{"~absent":["a:ssl_lfd"]}');
    container.run('c3', 's3', 'MSCU1000003', '{}');
    // A record kept whole, and one that had no attributes at all: left as they are.
    const whole = '[{"type":"container","id":"c5","attributes":{"number":"MSCU1000005"}}]';
    container.run('c5', 's3', 'MSCU1000005', whole);
    container.run('c6', 's3', 'MSCU1000006', '{"~absent":["attributes"]}');
    // Bytes no Quayside wrote: the migration does not stop on them, nor change them.
    container.run('c7', null, 'MSCU1000007', '{"attributes": broken');
    v16.prepare("INSERT INTO containers (id) VALUES ('c4')").run();
    v16.close();

    const db = openDatabase(file);
    const indexes = (db.pragma('index_list(containers)') as { name: string }[]).map((i) => i.name);
    expect(indexes).toContain('containers_dwell');
    expect(indexes).not.toContain('containers_shipment');
    const plan = (query: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${query}`).all() as { detail: string }[]).map((p) => p.detail).join(' | ');
    const boxes = "SELECT id FROM containers WHERE shipment_id = 's1' ORDER BY id";
    expect(plan(boxes)).toMatch(/INDEX containers_dwell \(shipment_id=\?\)/);
    expect(db.prepare(boxes).pluck().all()).toEqual(['c1', 'c2']);
    const joined =
      "SELECT c.number FROM shipments s JOIN containers c ON c.shipment_id = s.id WHERE s.id = 's3' ORDER BY 1";
    expect(plan(joined)).toMatch(/INDEX containers_dwell \(shipment_id=\?\)/);
    expect(db.prepare(joined).pluck().all()).toEqual(['MSCU1000003', 'MSCU1000005', 'MSCU1000006']);
    // Each record reads back as it did: a check time it had, from raw; one it lacked, still absent.
    const attributes = (type: string, id: string) =>
      storedRecordOf(db, type, id)!.attributes as Record<string, unknown>;
    expect(attributes('shipment', 's1')).toMatchObject({
      updated_at: '2026-03-05T00:00:00Z',
      line_tracking_last_attempted_at: null,
    });
    expect(attributes('shipment', 's1')).not.toHaveProperty('line_tracking_last_succeeded_at');
    expect(attributes('shipment', 's2')).not.toHaveProperty('updated_at');
    expect(attributes('shipment', 's2')).not.toHaveProperty('shipping_line_short_name');
    expect(attributes('container', 'c1')).toMatchObject({ shipment_last_tracking_request_at: '2026-03-04T10:00:00Z' });
    expect(attributes('container', 'c1')).not.toHaveProperty('updated_at');
    for (const id of ['c2', 'c3']) {
      expect(attributes('container', id)).not.toHaveProperty('updated_at');
      expect(attributes('container', id)).not.toHaveProperty('shipment_last_tracking_request_at');
    }
    expect(attributes('container', 'c2')).not.toHaveProperty('ssl_lfd');
    expect(attributes('shipment', 's1')).not.toHaveProperty('shipping_line_short_name');
    expect(storedRecordOf(db, 'container', 'c5')).toEqual(JSON.parse(whole)[0]);
    expect(db.prepare("SELECT raw FROM containers WHERE id IN ('c5', 'c6', 'c7') ORDER BY id").pluck().all()).toEqual([
      whole,
      '{"~absent":["attributes"]}',
      '{"attributes": broken',
    ]);
    expect(storedRecordOf(db, 'container', 'c6')).not.toHaveProperty('attributes');
    expect(db.prepare('SELECT count(*) FROM containers').pluck().get()).toBe(7);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('applies pending migrations once; running again changes nothing', () => {
    const db = new Database(':memory:');
    migrate(db);
    db.prepare("INSERT INTO parties (id, company_name) VALUES ('p1', 'Acme')").run();
    migrate(db);
    expect(db.prepare('SELECT count(*) AS n FROM parties').get()).toEqual({ n: 1 });
  });

  it('rolls back a failing migration whole and leaves the version as it was', () => {
    const db = new Database(':memory:');
    const broken = [
      ...migrations,
      {
        version: migrations.length + 1,
        name: 'broken',
        up: 'CREATE TABLE extra (a INTEGER) STRICT; SELECT * FROM missing_table;',
      },
    ];
    migrate(db, migrations);
    expect(() => migrate(db, broken)).toThrow(/missing_table/);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'extra'").get()).toEqual({ n: 0 });
  });

  it('refuses a database from a newer Quayside with a clear message, and leaves it untouched', () => {
    const file = join(tempDir(), 'future.sqlite');
    const future = new Database(file);
    future.pragma('user_version = 99');
    future.close();
    expect(() => openDatabase(file)).toThrow(/written by a newer version of Quayside \(schema 99/);
    const check = new Database(file);
    expect(check.pragma('user_version', { simple: true })).toBe(99);
    check.close();
  });

  it('opens in WAL mode with foreign keys on', () => {
    const db = openDatabase(join(tempDir(), 'q.sqlite'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
  });

  it('0007 (feed) keeps a container’s vessel track beside its route, from a v6 database, gone with the route', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, migrations.slice(0, 6));
    db.prepare("INSERT INTO containers (id) VALUES ('c1')").run();
    db.prepare(
      "INSERT INTO container_routes (container_id, geojson, fetched_at) VALUES ('c1', '{}', '2026-05-01T00:00:00Z')",
    ).run();
    migrate(db, migrations.slice(0, 7));
    const insert = db.prepare(
      "INSERT INTO vessel_future_positions (container_id, vessel_id, positions, fetched_at) VALUES (?, 'v1', '[]', '2026-05-01T00:00:00Z')",
    );
    insert.run('c1');
    // Only beside a stored route.
    expect(() => insert.run('c2')).toThrow(/FOREIGN KEY/);
    expect(db.prepare('SELECT container_id FROM vessel_future_positions').pluck().all()).toEqual(['c1']);
    db.prepare("DELETE FROM container_routes WHERE container_id = 'c1'").run();
    expect(db.prepare('SELECT count(*) FROM vessel_future_positions').pluck().get()).toBe(0);
  });
});
