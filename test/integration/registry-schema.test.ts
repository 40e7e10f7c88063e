/**
 * The resource registry against the hand-written migrations: every column a descriptor declares
 * is in its table with the declared SQL type (and no table column is left undeclared), references
 * are the migration's foreign keys, `indexed` matches the indexes, and each JSON:API type the
 * writer keeps belongs to exactly one descriptor.
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { descriptors, resources, stubFills, views, walks, type ResourceDescriptor } from '../../src/core/resources';
import { migrate } from '../../src/core/store/database';
import { storedRecordOf } from '../../src/core/store/queries/raw';
import { countWalkedRows, stubIds } from '../../src/core/store/queries/sync-plan';
import { writeResources } from '../../src/core/store/writer';
import { lookupNames } from '../../src/shared/lookups';

interface ColumnInfo {
  name: string;
  type: string;
}

function migrated(): Database.Database {
  const db = new Database(':memory:');
  migrate(db);
  return db;
}

describe('resource registry and schema', () => {
  const db = migrated();
  const tableColumns = (table: string) => db.pragma(`table_info(${table})`) as ColumnInfo[];

  for (const d of descriptors) {
    it(`${d.name}: its table ${d.table} has exactly the declared columns, with their SQL types`, () => {
      const declared = Object.fromEntries([
        ...Object.entries(d.columns).map(([name, c]) => [name, c.type]),
        ...Object.entries(d.keptColumns ?? {}).map(([name, c]) => [name, c.type]),
      ]);
      const actual = Object.fromEntries(tableColumns(d.table).map((c) => [c.name, c.type]));
      expect(actual).toEqual(declared);
      expect(Object.keys(d.columns)[0]).toBe('id');
    });

    it(`${d.name}: each reference is a foreign key to the target's table`, () => {
      const keys = db.pragma(`foreign_key_list(${d.table})`) as { from: string; table: string; to: string }[];
      // An interned column holds a key of `interned` (its reference is stubbed by id all the same).
      const declared = Object.entries(d.columns)
        .filter(([, c]) => c.references !== undefined || c.interned)
        .map(([name, c]) =>
          c.interned
            ? { from: name, table: 'interned', to: 'key' }
            : { from: name, table: resources[c.references as keyof typeof resources].table, to: 'id' },
        );
      expect(keys.map(({ from, table, to }) => ({ from, table, to }))).toEqual(expect.arrayContaining(declared));
      expect(keys).toHaveLength(declared.length);
    });

    it(`${d.name}: columns marked indexed are exactly those leading an index`, () => {
      const indexes = db.pragma(`index_list(${d.table})`) as { name: string; origin: string }[];
      const leading = new Set(
        indexes
          .filter((i) => i.origin === 'c')
          .map((i) => (db.pragma(`index_info(${i.name})`) as { seqno: number; name: string }[])[0]!.name),
      );
      const marked = Object.entries(d.columns)
        .filter(([, c]) => c.indexed)
        .map(([name]) => name);
      expect(new Set(marked)).toEqual(leading);
    });

    if (d.search) {
      const search = d.search;
      // Its text in `body`, then the column its rows are inserted with beside it, if it declares one.
      const columns = ['body', ...(search.also ? [search.also.column] : [])].join(', ');
      it(`${d.name}: its search table ${search.table} is a trigram FTS5 table of (${columns})`, () => {
        const sql = db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(search.table) as string;
        expect(sql).toContain(`USING fts5 (${columns}, tokenize = 'trigram')`);
      });
    }

    if (d.listTable) {
      const list = d.listTable;
      it(`${d.name}: its list table ${list.table} has its parent and value columns`, () => {
        expect(tableColumns(list.table).map((c) => c.name)).toEqual([list.parent, list.column]);
      });
    }

    for (const name of d.context ?? []) {
      it(`${d.name}: context column ${name} is one it writes`, () => {
        expect(Object.keys(d.columns)).toContain(name);
      });
    }
  }

  it('a table keeping its ids as UUID bytes is one no reference, search row, list or context reads by id', () => {
    // Those read ids as text (stubs, rowid lookups, context reads); the writer binds bytes only for
    // the upsert, its check of a run's writes and `storedRecord`.
    const byBytes = descriptors.filter((d) => d.columns.id?.uuid);
    expect(byBytes.map((d) => d.name).sort()).toEqual(['customFields', 'transportEvents']);
    const referenced = new Set(descriptors.flatMap((d) => Object.values(d.columns).map((c) => c.references)));
    for (const d of byBytes) {
      expect(referenced.has(d.name), d.name).toBe(false);
      expect([d.search, d.listTable, d.context], d.name).toEqual([undefined, undefined, undefined]);
    }
  });

  it("each child list names its parent's table and columns, and a key column that references the parent", () => {
    const tableColumnNames = (d: ResourceDescriptor) => new Set(tableColumns(d.table).map((c) => c.name));
    const lists = descriptors.filter((d) => d.api?.under);
    expect(lists.map((d) => d.name)).toEqual(expect.arrayContaining(['customFieldOptions', 'rawEvents']));
    for (const d of lists) {
      const under = d.api!.under!;
      const parent = descriptors.find((p) => p.name === under.parent);
      expect(parent, `${d.name}: parent ${under.parent}`).toBeDefined();
      const key = d.columns[under.key] as { references?: string } | undefined;
      expect(key?.references, `${d.name}.${under.key}`).toBe(under.parent);
      expect(tableColumnNames(d).has(under.key), `${d.table}.${under.key}`).toBe(true);
      const parentColumns = tableColumnNames(parent!);
      expect(parentColumns.has(under.fresh.changed), `${parent!.table}.${under.fresh.changed}`).toBe(true);
      if (under.where)
        expect(parentColumns.has(under.where.column), `${parent!.table}.${under.where.column}`).toBe(true);
      if (under.order === 'urgent') expect(parent!.name, `${d.name}: urgent order`).toBe('containers');
      expect(under.budget, `${d.name}: budget`).toBeGreaterThan(0);
    }
  });

  it('every JSON:API type the writer keeps is declared by exactly one descriptor', () => {
    const types = descriptors.flatMap((d) => d.types);
    expect(new Set(types).size).toBe(types.length);
    // Each is a resource type of the service's reference: a schema's `type`, or its name (the
    // container schema's `type` enum names another model's).
    const reference = JSON.parse(
      readFileSync(new URL('../fixtures/tracking-api/openapi-trimmed.json', import.meta.url), 'utf8'),
    ) as { components: { schemas: Record<string, { properties?: { type?: { enum?: string[] } } }> } };
    const referenceTypes = new Set([
      ...Object.keys(reference.components.schemas),
      ...Object.values(reference.components.schemas).flatMap((schema) => schema.properties?.type?.enum ?? []),
    ]);
    expect(types.filter((type) => !referenceTypes.has(type))).toEqual([]);
  });

  it('the writer stores each declared type in its descriptor table, and nothing of an undeclared type', () => {
    const target = migrated();
    for (const d of descriptors) {
      for (const type of d.types) {
        const id = `${type}-1`;
        const relationships = { container: { data: { type: 'container', id: 'c-1' } } };
        const counts = writeResources(target, [{ id, type, attributes: {}, relationships }], {
          syncedAt: '2026-01-01T00:00:00.000Z',
        });
        expect(counts).toEqual({ [type]: 1 });
        // The record as the store gives it back (a big table's raw keeps only what its columns do not hold).
        expect(storedRecordOf(target, type, id)).toMatchObject({ id, type });
      }
    }
    expect(writeResources(target, [{ id: 'x', type: 'invoice', attributes: {} }], { syncedAt: 'x' })).toEqual({});
    // An event belongs to a container: without one (none named, or an empty id) it is not written.
    for (const data of [null, { type: 'container', id: '' }]) {
      const event = { id: 'e-none', type: 'transport_event', attributes: {}, relationships: { container: { data } } };
      expect(writeResources(target, [event], { syncedAt: 'x' })).toEqual({});
    }
    expect(target.pragma('foreign_key_check')).toEqual([]);
  });

  it('walk keys are unique and every walked resource names its API list', () => {
    expect(new Set(walks.map((w) => w.key)).size).toBe(walks.length);
    for (const w of walks) expect(w.path).toMatch(/^\/[a-z_]+$/);
  });

  for (const v of Object.values(views)) {
    it(`view ${v.name}: ${v.view.table} is a SQL view with exactly its declared columns, reading each source's table`, () => {
      const row = db.prepare('SELECT type, sql FROM sqlite_master WHERE name = ?').get(v.view.table) as
        { type: string; sql: string } | undefined;
      expect(row?.type).toBe('view');
      expect(tableColumns(v.view.table).map((c) => c.name)).toEqual([...v.columns]);
      for (const source of v.view.sources) {
        const d = resources[source];
        expect(row!.sql).toMatch(new RegExp(`\\bFROM ${d.table}\\b`));
        // Every column the view reads from a source by name is one the source's descriptor keeps.
        const own = v.columns.filter((c) => c !== 'kind' && Object.keys(d.columns).includes(c));
        expect(own.length).toBeGreaterThan(1);
      }
      // Synced rows of every source come through it, named and with their kind.
      const target = migrated();
      const page = v.view.sources.flatMap((source) =>
        resources[source].types
          .slice(0, 1)
          .map((type) => ({ id: `${type}-v`, type, attributes: { name: `${type} name` } })),
      );
      writeResources(target, page, { syncedAt: '2026-01-01T00:00:00.000Z' });
      const rows = target.prepare(`SELECT kind, id, name FROM ${v.view.table} ORDER BY id`).all();
      expect(rows).toEqual(
        page.map((r) => ({ kind: r.type, id: r.id, name: `${r.type} name` })).sort((a, b) => a.id.localeCompare(b.id)),
      );
    });
  }

  it('every resource fetched by id (api.get) names a path with {id} and a stub query for its table', () => {
    expect(stubFills.map((f) => f.resource)).toContain('metroAreas');
    for (const f of stubFills) {
      expect(f.get).toMatch(/^\/[a-z_]+\/\{id\}$/);
      // The stub query derived from the descriptor runs against the migrated table.
      expect(stubIds(db, f.resource, 10)).toEqual([]);
    }
  });

  it('every lookup (<name>:get) names a record by a column its descriptor keeps, and a path with {id}', () => {
    for (const name of lookupNames) {
      const d: ResourceDescriptor = resources[name];
      expect(d.lookup, name).toBeDefined();
      const { title, alt, path } = d.lookup!;
      for (const column of [title, ...(alt ? [alt] : [])]) expect(Object.keys(d.columns), name).toContain(column);
      expect(path).toMatch(/^\/[a-z_]+\/\{id\}$/);
    }
  });

  it("a walk estimated from stored rows counts its resource's table; other resources are refused", () => {
    expect(() => countWalkedRows(db, 'ports')).toThrow(/no walk estimated from stored rows/);
    expect(() => stubIds(db, 'shipments', 10)).toThrow(/not filled by id/);
    for (const w of walks.filter((w) => w.estimate === 'stored rows')) {
      expect(countWalkedRows(db, w.resource)).toBe(0);
    }
  });
});
