/**
 * A filter chip's values as the forwarder types (`filters:values`): any customer is found by
 * typing its name, however many there are; those that start with the text come first; each
 * value's count is the rows its filter shows; text with SQL's wildcards, quotes, CJK or of any
 * length finds what holds it and nothing else, or is refused in a sentence.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core';
import type { Db } from '../../src/core/store/database';
import { filterValues } from '../../src/core/store/queries/filter-values';
import type { FilterValues } from '../../src/shared/filter-values';
import type { FilterOptions } from '../../src/shared/types';
import { failure, testCore, value } from '../helpers/core';
import { buildBigDatabase } from '../helpers/generated-database';
import { tempDir } from '../helpers/temp-dir';

/** Names a forwarder's customers may have, beside the many numbered ones. */
const named = [
  'Harbor Freight Partners',
  'North Harbor Foods',
  '100% Cotton Ltd',
  'Under_score Co',
  `O'Brien "Quoted" Freight`,
  '东京物流株式会社',
  'Zeta Shipping',
];

const dataDir = tempDir();
let db: Db;
let core: Core;

beforeAll(() => {
  mkdirSync(join(dataDir, 'demo'), { recursive: true });
  db = buildBigDatabase(join(dataDir, 'demo', 'demo.sqlite'), 900, 'filter-values').db;
  // 650 numbered customers (most with one or two shipments), the named ones, and shipments without one.
  db.prepare(`UPDATE shipments SET customer_name = printf('Customer %03d', rowid % 650)`).run();
  const rename = db.prepare('UPDATE shipments SET customer_name = ? WHERE rowid = ?');
  named.forEach((name, i) => rename.run(name, 651 + i * 3));
  rename.run('Harbor Freight Partners', 700);
  db.prepare('UPDATE shipments SET customer_name = NULL WHERE rowid IN (880, 881)').run();
  ({ core } = testCore({ dataDir, demo: undefined, readsAside: 'always' }));
});
afterAll(async () => {
  await core.close();
  db.close();
});

const values = (source: string, query?: string, limit?: number) =>
  value<FilterValues>(core, 'filters:values', { source, query, limit });
const shipmentsWith = (key: string, option: string) =>
  value<number>(core, 'shipments:count', { filters: { [key]: [option] } });

describe('a chip’s values as typed', () => {
  it('finds a customer beyond the first 500 by typing its name, counted as its filter counts', async () => {
    const all = await value<FilterOptions>(core, 'filters:options');
    expect(all.customers).toHaveLength(500);
    expect(all.customers.map((o) => o.value)).not.toContain('Zeta Shipping');

    const first = await values('customers');
    expect(first.options).toHaveLength(200);
    expect(first.more).toBe(true);
    expect(first.options[0]!.value).toBe('100% Cotton Ltd');

    const typed = await values('customers', 'zeta');
    expect(typed).toEqual({ options: [{ value: 'Zeta Shipping', label: 'Zeta Shipping', count: 1 }], more: false });
    expect(await shipmentsWith('customers', 'Zeta Shipping')).toBe(1);
  });

  it('lists those that start with the text first, ignoring case, then those that hold it further in', async () => {
    const harbor = await values('customers', '  HARBOR ');
    expect(harbor.options.map((o) => o.value)).toEqual(['Harbor Freight Partners', 'North Harbor Foods']);
    expect(harbor.options[0]!.count).toBe(2);
    // One value's rows in the find box: a numbered customer among many that start alike.
    const numbered = await values('customers', 'customer 64');
    expect(numbered.options.map((o) => o.value)).toEqual(Array.from({ length: 10 }, (_, i) => `Customer 64${i}`));
    // A port by its name or its code, a carrier by its code.
    const ports = await values('portsOfDischarge');
    const port = ports.options[0]!;
    expect((await values('portsOfDischarge', port.label.slice(0, 4).toLowerCase())).options[0]).toEqual(port);
    expect((await values('portsOfDischarge', port.value)).options).toEqual([port]);
    const carrier = (await values('carriers')).options[0]!;
    expect((await values('carriers', carrier.value.toLowerCase())).options).toContainEqual(carrier);
  });

  it('counts each value as the rows its filter shows, in every source', async () => {
    for (const [source, key] of [
      ['customers', 'customers'],
      ['carriers', 'carriers'],
      ['portsOfLading', 'portsOfLading'],
      ['portsOfDischarge', 'portsOfDischarge'],
      ['destinations', 'destinations'],
      ['terminals', 'terminals'],
      ['tags', 'tags'],
    ] as const) {
      const answer = await values(source);
      expect(answer.options.length, source).toBeGreaterThan(1);
      for (const option of [answer.options[0]!, answer.options.at(-1)!])
        expect(await shipmentsWith(key, option.value), `${source} ${option.value}`).toBe(option.count);
    }
    // Every customer's count added up: each shipment that names one, once.
    const everyCustomer = filterValues(db, { source: 'customers', limit: 10_000 });
    expect(everyCustomer.options).toHaveLength(650 + named.length);
    expect(everyCustomer.options.reduce((n, o) => n + o.count, 0)).toBe(
      (await value<number>(core, 'shipments:count', { filters: {} })) - 2,
    );
  });

  it('finds text with wildcards, quotes and CJK as it is, and nothing else', async () => {
    const found = async (query: string) => (await values('customers', query)).options.map((o) => o.value);
    expect(await found('%')).toEqual(['100% Cotton Ltd']);
    expect(await found('_')).toEqual(['Under_score Co']);
    expect(await found(`o'brien "quoted"`)).toEqual([`O'Brien "Quoted" Freight`]);
    expect(await found('"')).toEqual([`O'Brien "Quoted" Freight`]);
    expect(await found('物流')).toEqual(['东京物流株式会社']);
    expect(await found('东京')).toEqual(['东京物流株式会社']);
    expect(await found('\\')).toEqual([]);
    expect((await values('carriers', '%')).options).toEqual([]);
    expect((await values('terminals', `'; DROP TABLE shipments; --`)).options).toEqual([]);
  });

  it('refuses text longer than any name in a sentence, answers it in the store, and answers on after it', async () => {
    const long = '物'.repeat(10_000);
    const refused = await failure(core, 'filters:values', { source: 'customers', query: long });
    expect(refused.code).toBe('invalid_argument');
    expect(refused.message).toMatch(/text to find is too long: at most 1000 characters/);
    for (const source of ['customers', 'carriers', 'holdTypes'] as const)
      expect(filterValues(db, { source, query: long })).toEqual({ options: [], more: false });
    expect(filterValues(db, { source: 'customers', query: 'zeta'.repeat(2_500) })).toEqual({
      options: [],
      more: false,
    });
    expect(await failure(core, 'filters:values', { source: 'nowhere' })).toMatchObject({ code: 'invalid_argument' });
    expect((await values('customers', 'zeta')).options).toHaveLength(1);
  });

  it('gives in the read worker what the store gives in place', async () => {
    for (const [source, query] of [
      ['customers', ''],
      ['customers', 'harbor'],
      ['carriers', ''],
      ['terminals', 'a'],
      ['holdTypes', ''],
    ] as const)
      expect(await values(source, query)).toEqual(filterValues(db, { source, query }));
  });
});
