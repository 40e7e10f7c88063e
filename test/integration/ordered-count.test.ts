/**
 * An export made in two (export-aside.ts) counts its rows first and splits there, so the count of
 * an ordered query must be the number of rows its statements give, for every list, sort and
 * filter: it is asked without the statements' columns and order (their own `count`), and a
 * count that left a row out or took one twice would write a row twice or never. Also: a range of
 * the rows (what each half reads) is that stretch of the whole walk.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lists } from '../../src/core/resources/lists';
import type { Db } from '../../src/core/store/database';
import { countOrdered } from '../../src/core/store/queries/keyset';
import { checkedListQueries } from '../../src/core/store/queries/list-view';
import type { ListName } from '../../src/shared/list-views';
import { buildBigDatabase } from '../helpers/generated-database';
import { useSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';
import { tempDir } from '../helpers/temp-dir';

let db: Db;
const at = { now: new Date().toISOString(), staleHours: 24 };

beforeAll(() => {
  db = buildBigDatabase(join(tempDir(), 'count.sqlite'), 300, 'ordered-count', { customFields: true }).db;
}, 120_000);
afterAll(() => db?.close());

/** Every sort a list has (its own fields, and a custom field of its records), each way round. */
function sortsOf(name: ListName): ({ field: string; direction: 'asc' | 'desc' } | undefined)[] {
  const fields = Object.keys(lists[name].sort);
  if (name === 'shipments') fields.push('cf.po_number');
  if (name === 'containers') fields.push('cf.pallet_count');
  return [
    undefined,
    ...fields.flatMap((field) => (['asc', 'desc'] as const).map((direction) => ({ field, direction }))),
  ];
}

/** Filters that leave some rows out, some through another table. */
const filtersOf: Record<ListName, unknown[]> = {
  shipments: [{}, { carriers: ['MSCU', 'MAEU'] }, { customFields: { incoterm: { kind: 'options', values: ['FOB'] } } }],
  containers: [{}, { onHold: true }, { statuses: ['available', 'picked_up'] }, { overdue: true }],
  trackingRequests: [{}, { statuses: ['failed'] }],
  emailSubmissions: [{}],
};

/** Each list's statements counted against the rows they give, for every sort and filter it is asked with. */
function expectCountsOf(database: Db, name: ListName): void {
  const queries = checkedListQueries(name);
  let nonEmpty = 0;
  for (const filters of filtersOf[name]) {
    for (const sort of sortsOf(name)) {
      const statements = queries.orderedSql(database, filters, sort, at);
      const ids = [...queries.iterate(database, filters, sort, at)].map((row) => row.id);
      expect(countOrdered(database, statements), `${name} ${JSON.stringify({ filters, sort })}`).toBe(ids.length);
      expect(new Set(ids).size).toBe(ids.length);
      if (ids.length > 0) nonEmpty++;
    }
  }
  // Most of the cases had rows to count.
  expect(nonEmpty).toBeGreaterThan((filtersOf[name].length * sortsOf(name).length) / 2);
}

describe('the count of an ordered list', { timeout: 120_000 }, () => {
  for (const name of ['shipments', 'containers'] as const) {
    it(`is the rows the ${name} list's statements give, for every sort and filter`, () => expectCountsOf(db, name));
  }

  describe('of the lists a sync fills from the sandbox', () => {
    const sandbox = useSandbox({ seed: 'ordered-count', shipments: 40, tick: 0 });
    let sync: ReturnType<typeof syncOf>;
    beforeAll(async () => {
      sync = syncOf(sandbox.get());
      expect((await sync.engine.run({ mode: 'full' })).status).toBe('ok');
      return () => sync.close();
    });
    for (const name of ['trackingRequests', 'emailSubmissions'] as const) {
      it(`is the rows the ${name} list's statements give, for every sort and filter`, () =>
        expectCountsOf(sync.db, name));
    }
  });

  it('gives a range of rows as that stretch of the whole walk, across the two phases', () => {
    const queries = checkedListQueries('containers');
    for (const sort of [undefined, { field: 'last_free_day', direction: 'asc' } as const]) {
      const all = [...queries.iterate(db, {}, sort, at)].map((row) => row.id);
      expect(all.length).toBeGreaterThan(300);
      const half = Math.ceil(all.length / 2);
      const first = [...queries.iterate(db, {}, sort, at, { offset: 0, limit: half })].map((row) => row.id);
      const second = [...queries.iterate(db, {}, sort, at, { offset: half, limit: null })].map((row) => row.id);
      expect([...first, ...second]).toEqual(all);
      expect(first).toHaveLength(half);
    }
  });
});
