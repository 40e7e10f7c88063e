/**
 * The store side of custom field lists over a database big enough for both
 * ways a page sorted by a custom field is read (2,500 shipments, 5,000+ containers, written from
 * the generator as the bench's database is): the field's list index walked in order when many
 * rows match, each row's value read by its id when few do. Every statement is checked with
 * EXPLAIN QUERY PLAN: the values are read through an index (the lists' own, or the record's),
 * never by walking a field's whole list once per row.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/core/store/database';
import { listQueries } from '../../src/core/store/queries/list-view';
import type { CustomFieldFilters } from '../../src/shared/views';
import { buildBigDatabase } from '../helpers/generated-database';
import { tempDir } from '../helpers/temp-dir';

let db: Db;
const plans: { sql: string; plan: string[] }[] = [];

/** Records each statement that reads custom field values, with SQLite's plan for it. */
function watchPlans(database: Db): void {
  const prepare = database.prepare.bind(database);
  database.prepare = ((sql: string) => {
    const statement = prepare(sql);
    if (!/custom_fields/.test(sql) || !/^\s*SELECT/i.test(sql)) return statement;
    const planOf = (args: unknown[]) =>
      (prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail);
    const watched: typeof statement = new Proxy(statement, {
      get(target, property) {
        const member = Reflect.get(target, property) as unknown;
        if (typeof member !== 'function') return member;
        if (property === 'all' || property === 'get' || property === 'iterate') {
          return (...args: unknown[]) => {
            plans.push({ sql, plan: planOf(args) });
            return (member as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        // `pluck()`, `raw()`… give the statement back: keep watching it.
        return (...args: unknown[]) => {
          const result = (member as (...a: unknown[]) => unknown).apply(target, args);
          return result === target ? watched : result;
        };
      },
    });
    return watched;
  }) as Db['prepare'];
}

beforeAll(() => {
  db = buildBigDatabase(join(tempDir(), 'cf.sqlite'), 2500, 'cf-lists-store', { customFields: true }).db;
  watchPlans(db);
}, 120_000);
afterAll(() => db?.close());

type Sortable = string | number;

/**
 * How the list orders records it cannot tell apart: those with the same value by their id's key
 * in `interned` (as the values' index ends), the rest by their rowid (as every index ends).
 */
function tiesOf(table: 'shipments' | 'containers'): Map<string, { key: number; rowid: number }> {
  const rows = db
    .prepare<[], { id: string; key: number | null; rowid: number }>(
      `SELECT t.id, t.rowid AS rowid, i.key FROM ${table} t LEFT JOIN interned i ON i.text = t.id`,
    )
    .all();
  return new Map(rows.map((r) => [r.id, { key: r.key ?? -1, rowid: r.rowid }]));
}

/** Values first by value (ties by record key), then the records without one by rowid; the other way round for desc. */
function expectedOrder(
  table: 'shipments' | 'containers',
  values: Map<string, Sortable | null>,
  direction: 'asc' | 'desc',
): string[] {
  const ties = tiesOf(table);
  const tie = (id: string) => ties.get(id)!;
  const sign = direction === 'asc' ? 1 : -1;
  const cmp = (a: Sortable, b: Sortable) => (a < b ? -1 : a > b ? 1 : 0);
  const withValue = [...values].filter((e): e is [string, Sortable] => e[1] !== null);
  withValue.sort(([ia, a], [ib, b]) => sign * (cmp(a, b) || tie(ia).key - tie(ib).key));
  const without = [...values].filter(([, v]) => v === null).map(([id]) => id);
  without.sort((a, b) => sign * (tie(a).rowid - tie(b).rowid));
  return [...withValue.map(([id]) => id), ...without];
}

/** A value as it sorts: numbers and text as they are, yes/no as 1/0. */
function typedValue(json: string | null): Sortable | null {
  if (json === null) return null;
  const value = JSON.parse(json) as unknown;
  return typeof value === 'boolean' ? (value ? 1 : 0) : (value as Sortable);
}

/** Each record of a table with its value of one field, read plainly (no list code). */
function valuesOf(table: 'shipments' | 'containers', entityType: string, slug: string, typed: boolean) {
  const held = new Map(
    db
      .prepare<[string, string], { id: string; value: string | null; text: string | null }>(
        `SELECT e.text AS id, v.value, v.display_value AS text FROM custom_fields v
           JOIN interned e ON e.key = v.entity_key JOIN interned t ON t.key = v.entity_type_key
           JOIN interned a ON a.key = v.api_slug_key WHERE t.text = ? AND a.text = ?`,
      )
      .all(entityType, slug)
      .map((r) => [r.id, typed ? typedValue(r.value) : r.text]),
  );
  const ids = db
    .prepare<[], { id: string }>(`SELECT id FROM ${table} WHERE synced_at IS NOT NULL`)
    .all()
    .map((r) => r.id);
  return new Map(ids.map((id) => [id, held.get(id) ?? null]));
}

function walk<N extends 'shipments' | 'containers'>(
  name: N,
  filters: { customFields?: CustomFieldFilters; onHold?: boolean },
  sort: { field: `cf.${string}`; direction: 'asc' | 'desc' },
  limit: number,
): string[] {
  const queries = listQueries[name] as (typeof listQueries)['shipments'];
  const ids: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = queries.page(db, filters, { sort, limit, after });
    ids.push(...page.rows.map((r) => r.id));
    if (page.next === null) return ids;
    after = page.next;
  }
}

/** Plans recorded while `run` runs. */
function plansOf(run: () => unknown): { sql: string; plan: string[] }[] {
  plans.length = 0;
  run();
  return [...plans];
}

/** No plan line reads custom field values by walking a whole list (a SCAN, or a list index inside a loop). */
function expectIndexed(recorded: { sql: string; plan: string[] }[]): void {
  expect(recorded.length).toBeGreaterThan(0);
  for (const { sql, plan } of recorded) {
    const lines = plan.join('\n');
    expect(lines, sql).not.toMatch(/SCAN (cfs|v|custom_fields)\b/);
    expect(lines, sql).toMatch(/custom_fields_(list_value|list_text|entity)/);
  }
}

describe('custom field lists in the store', { timeout: 120_000 }, () => {
  it('pages the whole list by a field, walking its list index in order, the same as the export', () => {
    const po = valuesOf('shipments', 'shipment', 'po_number', false);
    expect([...po.values()].filter((v) => v === null).length).toBeGreaterThan(100);
    for (const direction of ['asc', 'desc'] as const) {
      const sort = { field: 'cf.po_number', direction } as const;
      const recorded = plansOf(() =>
        expect(walk('shipments', {}, sort, 500)).toEqual(expectedOrder('shipments', po, direction)),
      );
      expectIndexed(recorded);
      // The first page walks the text list index, no sorting of every row.
      const first = recorded[0]!;
      expect(first.plan[0]).toMatch(/SEARCH cfs USING COVERING INDEX custom_fields_list_text/);
      expect(first.plan.join('\n')).not.toMatch(/TEMP B-TREE/);
      // Rows without a value: each looked up by its id.
      expect(recorded.some((r) => r.sql.includes('NOT EXISTS'))).toBe(true);
      const exported = plansOf(() => {
        const ids = [...listQueries.shipments.iterate(db, {}, sort)].map((r) => r.id);
        expect(ids).toEqual(expectedOrder('shipments', po, direction));
      });
      expectIndexed(exported);
      expect(exported[0]!.plan.join('\n')).toMatch(/custom_fields_entity\b/);
    }
  });

  it('sorts numbers by value through the typed list index, also beside another filter', () => {
    const pallets = valuesOf('containers', 'container', 'pallet_count', true);
    const sort = { field: 'cf.pallet_count', direction: 'desc' } as const;
    const recorded = plansOf(() =>
      expect(walk('containers', {}, sort, 400)).toEqual(expectedOrder('containers', pallets, 'desc')),
    );
    expectIndexed(recorded);
    expect(recorded[0]!.plan[0]).toMatch(/SEARCH cfs USING COVERING INDEX custom_fields_list_value/);

    // Boxes not on hold, many: still the list index outermost, never inside the boxes' loop.
    const free = new Set(
      db
        .prepare<[], { id: string }>('SELECT id FROM containers WHERE synced_at IS NOT NULL AND holds_count = 0')
        .all()
        .map((r) => r.id),
    );
    expect(free.size).toBeGreaterThan(2000);
    const kept = new Map([...pallets].filter(([id]) => free.has(id)));
    const notOnHold = plansOf(() =>
      expect(walk('containers', { onHold: false }, sort, 500)).toEqual(expectedOrder('containers', kept, 'desc')),
    );
    expectIndexed(notOnHold);
    expect(notOnHold[0]!.plan[0]).toMatch(/SEARCH cfs USING COVERING INDEX custom_fields_list_value/);
  });

  it('reads few matching rows’ values by their ids, and filters through the list indexes', () => {
    const po = valuesOf('shipments', 'shipment', 'po_number', false);
    const incoterm = valuesOf('shipments', 'shipment', 'incoterm', true);
    const filters: CustomFieldFilters = {
      incoterm: { kind: 'options', values: ['FOB'] },
      po_number: { kind: 'text', contains: '1' },
    };
    const kept = new Map(
      [...po].filter(([id, text]) => incoterm.get(id) === 'FOB' && typeof text === 'string' && text.includes('1')),
    );
    expect(kept.size).toBeGreaterThan(20);
    const recorded = plansOf(() =>
      expect(walk('shipments', { customFields: filters }, { field: 'cf.po_number', direction: 'asc' }, 9)).toEqual(
        expectedOrder('shipments', kept, 'asc'),
      ),
    );
    expectIndexed(recorded);
    // Each filter's records first, once a page, through its list index; then the matching rows'
    // ids from those two lists, reading no value again; then those rows, each value by id.
    const sets = recorded.filter((r) => /^SELECT i\.text FROM custom_fields v .* LIMIT 2001$/s.test(r.sql));
    const setPlans = sets.map((r) => r.plan.join('\n'));
    expect(
      setPlans.filter((p) =>
        /custom_fields_list_value \(entity_type_key=\? AND api_slug_key=\? AND <expr>=\?\)/.test(p),
      ).length,
    ).toBe(sets.length / 2);
    expect(
      setPlans.filter((p) => /custom_fields_list_text \(entity_type_key=\? AND api_slug_key=\?\)/.test(p)).length,
    ).toBe(sets.length / 2);
    const pages = recorded.filter((r) => r.sql.includes('__sort IS NOT NULL')).length;
    expect(pages).toBeGreaterThan(1);
    expect(sets).toHaveLength(2 * pages);
    expect(recorded.filter((r) => /^SELECT s\.id FROM .* LIMIT 2001$/s.test(r.sql))).toEqual([]);
    const few = recorded.find((r) => r.sql.includes('__sort IS NOT NULL'))!;
    expect(few.plan.join('\n')).toMatch(/SEARCH cfs USING INDEX custom_fields_entity\b/);

    const pallets = valuesOf('containers', 'container', 'pallet_count', true);
    const cold = valuesOf('containers', 'container', 'temperature_controlled', true);
    const expected = [...pallets].filter(
      ([id, n]) => typeof n === 'number' && n >= 10 && n <= 12 && cold.get(id) === 1,
    ).length;
    expect(expected).toBeGreaterThan(0);
    const counted = plansOf(() =>
      expect(
        listQueries.containers.count(db, {
          customFields: {
            pallet_count: { kind: 'number', min: 10, max: 12 },
            temperature_controlled: { kind: 'flag', is: true },
          },
        }),
      ).toBe(expected),
    );
    expectIndexed(counted);
    expect(counted.map((r) => r.plan.join('\n')).join('\n')).toMatch(/<expr>>\? AND <expr><\?/);

    // A filter that many records match keeps its subquery in the statement (no list of ids).
    const numbered = [...pallets].filter(([, n]) => typeof n === 'number').length;
    expect(numbered).toBeGreaterThan(2000);
    const broad = plansOf(() =>
      expect(listQueries.containers.count(db, { customFields: { pallet_count: { kind: 'number' } } })).toBe(numbered),
    );
    expectIndexed(broad);
    expect(broad.map((r) => r.sql)).toContainEqual(
      expect.stringMatching(/^SELECT count\(\*\).*IN \(SELECT i\.text FROM custom_fields v/s),
    );
  });
});
