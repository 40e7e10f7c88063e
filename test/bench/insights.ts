/**
 * Insights over the store suite's 100k-shipment database, each figure the first call on the
 * connection (its statements prepared afresh, as when the view opens): the view's first figures,
 * the carriers table over every arrival, and every table together, each under 1 s; every table
 * with the month trends, and one customer's, reported. The generated database holds no transport
 * events or change history: the available milestone and the ETA moves find none.
 */
import { computeInsights } from '../../src/core/insights/insights';
import type { Db } from '../../src/core/store/database';
import { measure, type Measure } from './report';

function timed(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

export function insightsMeasures(db: Db): Measure[] {
  const zone = 'America/New_York';
  const first = timed(() => computeInsights(db, { zone, months: false, tables: ['carriers'] }));
  const tables = timed(() => computeInsights(db, { zone, months: false }));
  const withMonths = timed(() => computeInsights(db, { zone }));
  const customer = db
    .prepare('SELECT customer_name FROM shipments WHERE customer_name IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC')
    .pluck()
    .get() as string | undefined;
  const measures = [
    measure('insights first figures: carriers, every arrival (100k shipments)', first, 'ms', { below: 1000 }),
    measure('insights, every table (100k shipments)', tables, 'ms', { below: 1000 }),
    measure('insights, every table with the month trends (100k shipments)', withMonths, 'ms', {}),
  ];
  if (customer !== undefined) {
    const one = timed(() => computeInsights(db, { zone, customer }));
    measures.push(measure('insights for the largest customer, every table and month (100k shipments)', one, 'ms', {}));
  }
  return measures;
}
