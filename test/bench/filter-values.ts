/**
 * A filter chip's values as the forwarder types (store/queries/filter-values.ts) over the store
 * suite's 100k shipments: each source's list with nothing typed and with a few letters typed,
 * p95 under 100 ms (a person waits on it between keys: an absolute time is the target). Then the
 * customers again once they are tens of thousands of different names (far more than any
 * forwarder has): the first names, a name's start, a part found inside names, a text found nowhere.
 */
import type { Db } from '../../src/core/store/database';
import { filterOptions } from '../../src/core/store/queries/filter-options';
import { filterValues } from '../../src/core/store/queries/filter-values';
import type { FilterSource } from '../../src/shared/filter-values';
import { measure, percentile, type Measure } from './report';

/** The chips the target is for: customer, carrier, the ports and the terminal. */
const sources: FilterSource[] = [
  'customers',
  'carriers',
  'portsOfLading',
  'portsOfDischarge',
  'destinations',
  'terminals',
];
const TARGET_MS = 100;
const SAMPLES = 20;

function p95(run: () => unknown): number {
  run(); // once untimed: the statement prepared, the index's pages read from disk
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return percentile(samples, 95);
}

/** Each source's list, nothing typed and the first three letters of a value's name typed. */
export function filterValueMeasures(db: Db): Measure[] {
  const measures: Measure[] = [];
  for (const source of sources) {
    const first = filterValues(db, { source });
    const name = first.options[Math.floor(first.options.length / 2)]?.label ?? 'a';
    const typed = name.slice(0, 3).toLowerCase();
    measures.push(
      measure(
        `${source} values, nothing typed, p95 (100k shipments)`,
        p95(() => filterValues(db, { source })),
        'ms',
        {
          below: TARGET_MS,
        },
      ),
      measure(
        `${source} values, "${typed}" typed, p95 (100k shipments)`,
        p95(() => filterValues(db, { source, query: typed })),
        'ms',
        { below: TARGET_MS },
      ),
    );
  }
  // For the record: every chip's values at once, as chip names, print and saved views read them.
  measures.push(
    measure(
      'every chip’s values at once (filters:options), p95',
      p95(() => filterOptions(db)),
      'ms',
      {},
    ),
  );
  return measures;
}

/**
 * The customers' list once each of the 100k shipments' customers is split in numbered branches
 * (`Acme 00042`, 20k numbers): about 80k different names. This rewrites the database's
 * customers: measured last.
 */
export function manyCustomersMeasures(db: Db): Measure[] {
  db.prepare(
    `UPDATE shipments SET customer_name = printf('%s %05d', customer_name, rowid % 20000) WHERE customer_name IS NOT NULL`,
  ).run();
  const count = db.prepare('SELECT count(DISTINCT customer_name) FROM shipments').pluck().get() as number;
  const name = filterValues(db, { source: 'customers', limit: 1 }).options[0]!.label;
  const cases: [string, string][] = [
    ['nothing typed', ''],
    [`"${name.slice(0, 4).toLowerCase()}" typed (a name's start)`, name.slice(0, 4).toLowerCase()],
    [`"${name.slice(0, 12).toLowerCase()}" typed (a name's start)`, name.slice(0, 12).toLowerCase()],
    ['"ding" typed (inside names)', 'ding'],
    ['"zzz" typed (found nowhere)', 'zzz'],
  ];
  return cases.map(([what, query]) =>
    measure(
      `customers values among ${count.toLocaleString('en-US')} customers, ${what}, p95 (100k shipments)`,
      p95(() => filterValues(db, { source: 'customers', query })),
      'ms',
      { below: TARGET_MS },
    ),
  );
}
