import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase, schemaVersion } from '../../src/core/store/database';
import { migrations } from '../../src/core/store/migrations/index';
import { tempDir } from '../helpers/temp-dir';

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
});
