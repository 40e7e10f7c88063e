/**
 * Insights end to end: the sandbox synced into a store over several simulated weeks (ETAs
 * revised between syncs, boxes discharged, picked up and returned), then the figures from the
 * store's SQL, the same computed a second way from the stored records in plain TypeScript
 * (test/helpers/insights-reference.ts), and `npm run cli -- insights --json`: all three agree,
 * over every arrival and over a range of days for one customer.
 */
import { describe, expect, it } from 'vitest';
import { exitCodes } from '../../src/cli/exit-codes';
import { runCli } from '../../src/cli/index';
import { flatArrival, flatDwell, byRank } from '../../src/core/insights/flat';
import { computeInsights } from '../../src/core/insights/insights';
import type { Db } from '../../src/core/store/database';
import type { Rates } from '../../src/shared/exposure';
import type { ArrivalGroup, DwellGroup, InsightsResult } from '../../src/shared/insights';
import { localDate } from '../../src/shared/zoned-time';
import { capture } from '../helpers/capture';
import { referenceArrivals, referenceDwell, type ReferenceOptions } from '../helpers/insights-reference';
import { useSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';

const DAY_S = 86_400;
const zone = 'America/Chicago';
const rates: Rates = {
  currency: 'USD',
  sets: [
    {
      scope: 'default',
      match: '',
      demurrage: [
        { fromDay: 1, perDay: 150 },
        { fromDay: 5, perDay: 300 },
      ],
      detention: null,
    },
    { scope: 'carrier', match: 'MSCU', demurrage: [], detention: { freeDays: 4, tiers: [{ fromDay: 1, perDay: 90 }] } },
  ],
};

async function cli(args: string[]) {
  const out = capture();
  const err = capture();
  const code = await runCli(args, { out: out.stream, err: err.stream });
  return { code, out: out.text(), err: err.text() };
}

const idOf = (g: { month: string | null; key: string } & ({ dimension: string } | { kind: string })) =>
  `${'dimension' in g ? g.dimension : g.kind}|${g.key}|${g.month}`;

/** Each group of the SQL answer equals the reference's, and neither has one the other lacks. */
function expectSame<G extends ArrivalGroup | DwellGroup>(sql: G[], reference: G[]) {
  const expected = new Map(reference.map((g) => [idOf(g), g]));
  expect(sql.map(idOf).sort()).toEqual([...expected.keys()].sort());
  for (const g of sql) expect(g, idOf(g)).toEqual(expected.get(idOf(g)));
}

function compare(db: Db, result: InsightsResult, withRates: boolean) {
  const options: ReferenceOptions = {
    zone: result.zone,
    fromInstant: result.fromInstant,
    untilInstant: result.untilInstant,
    customer: result.customer,
    minimum: result.minimum,
    historyFrom: result.historyFrom,
    rates: withRates ? rates : null,
  };
  const arrivals = referenceArrivals(db, options);
  const dwell = referenceDwell(db, options);
  const pick = (dim: string, monthly: boolean) =>
    arrivals.filter((g) => g.dimension === dim && (g.month !== null) === monthly);
  expectSame(result.carriers, pick('carrier', false));
  expectSame(result.lanes, pick('lane', false));
  expectSame(result.carrierLanes, pick('carrier-lane', false));
  expectSame(
    result.terminals,
    dwell.filter((g) => g.month === null),
  );
  expectSame(result.months.carriers, pick('carrier', true));
  expectSame(result.months.lanes, pick('lane', true));
  expectSame(result.months.carrierLanes, pick('carrier-lane', true));
  expectSame(
    result.months.terminals,
    dwell.filter((g) => g.month !== null),
  );
  return { arrivals, dwell };
}

describe('insights from a synced sandbox', () => {
  // The sandbox's clock starts at this machine's, so the syncs' own times (the change history's
  // start) fall inside its world; it moves on only when told.
  const start = Math.floor(Date.now() / 60_000) * 60_000;
  const sandbox = useSandbox({ seed: 'insights', shipments: 260, start, tick: 0 });

  it('gives the same figures from the SQL, from the stored records and from the CLI', async () => {
    const sync = syncOf(sandbox.get(), { now: () => sandbox.get().clock.now() });
    expect((await sync.engine.run({ mode: 'full' })).status).toBe('ok');
    for (let i = 0; i < 6; i++) {
      sandbox.get().advance(3 * DAY_S);
      expect((await sync.engine.run({ mode: 'incremental' })).status).toBe('ok');
    }
    const db = sync.db;
    // A service that gives no original ETA for some shipments: their first ETA is the history's.
    db.prepare(
      `UPDATE shipments SET pod_original_eta_at = NULL
       WHERE id IN (SELECT record_id FROM record_changes WHERE field = 'eta' AND old_value IS NOT NULL)
         AND rowid % 2 = 0`,
    ).run();
    const now = sandbox.get().clock.now();

    const all = computeInsights(db, { zone }, { rates, now });
    const { arrivals, dwell } = compare(db, all, true);
    // The data exercises every figure: ranked and small groups, first ETAs from the history,
    // voyages the history covers and ones it does not, rail terminals, boxes picked up late.
    expect(all.carriers.some((g) => g.rank === 1) && all.carriers.some((g) => g.small)).toBe(true);
    expect(arrivals.reduce((n, g) => n + g.firstEtaFromHistory, 0)).toBeGreaterThan(0);
    expect(all.carriers.reduce((n, g) => n + g.etaMoves.count, 0)).toBeGreaterThan(0);
    expect(all.carriers.reduce((n, g) => n + g.etaMoves.unknown, 0)).toBeGreaterThan(0);
    expect(all.carriers.reduce((n, g) => n + (g.etaMoves.mean ?? 0), 0)).toBeGreaterThan(0);
    expect(dwell.some((g) => g.kind === 'rail') && dwell.some((g) => g.kind === 'terminal')).toBe(true);
    expect(all.terminals.reduce((n, g) => n + g.dischargeToAvailable.count, 0)).toBeGreaterThan(0);
    expect(all.terminals.some((g) => (g.pickedUpAfterLfd.share ?? 0) > 0)).toBe(true);
    expect(all.terminals.some((g) => (g.cost?.total ?? 0) > 0)).toBe(true);
    expect(all.months.carriers.length).toBeGreaterThan(all.carriers.length);
    // A terminal of enough boxes whose median stands on fewer known ones than the minimum is shown
    // but not ranked: every rank stands on at least the minimum.
    const thin = all.terminals.filter((g) => !g.small && g.dischargeToPickedUp.count < all.minimum);
    expect(thin.length, 'a terminal with too few boxes picked up to rank').toBeGreaterThan(0);
    expect(thin.map((g) => g.rank)).toEqual(thin.map(() => null));
    for (const g of [...all.terminals, ...all.carriers, ...all.lanes, ...all.carrierLanes]) {
      if (g.rank === null) continue;
      const known = 'onTime' in g ? g.onTime.count : g.dischargeToPickedUp.count;
      expect(known, `${g.key} ranked ${g.rank}`).toBeGreaterThanOrEqual(all.minimum);
    }

    // A range of days for one customer: fewer shipments, the same agreement.
    const customer = db
      .prepare(
        'SELECT customer_name FROM shipments WHERE pod_ata_at IS NOT NULL AND customer_name IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC',
      )
      .pluck()
      .get() as string;
    // From the day of its arrival a quarter of the way through to the day of the one three quarters through.
    const days = (
      db
        .prepare('SELECT pod_ata_at FROM shipments WHERE customer_name = ? AND pod_ata_at IS NOT NULL ORDER BY 1')
        .pluck()
        .all(customer) as string[]
    ).map((t) => localDate(Date.parse(t), zone));
    const from = days[Math.floor(days.length / 4)]!;
    const to = days[Math.floor((days.length * 3) / 4)]!;
    const ranged = computeInsights(db, { zone, from, to, customer }, { now });
    compare(db, ranged, false);
    const rangedCount = ranged.carriers.reduce((n, g) => n + g.shipments, 0);
    expect(rangedCount).toBeGreaterThan(0);
    expect(rangedCount).toBeLessThan(all.carriers.reduce((n, g) => n + g.shipments, 0));
    sync.close();

    // The CLI prints the same groups, ranked first, as the flat rows the export writes.
    for (const by of ['carrier', 'lane', 'carrier-lane', 'terminal'] as const) {
      const printed = await cli(['insights', '--db', sync.dbPath, '--by', by, '--zone', zone, '--json']);
      expect(printed.code, printed.err).toBe(exitCodes.ok);
      const { groups } = JSON.parse(printed.out) as { groups: Record<string, unknown>[] };
      const expected =
        by === 'terminal'
          ? byRank(
              dwell.filter((g) => g.month === null).map((g) => ({ ...g, cost: null })),
              (g) => g.containers,
            ).map(flatDwell)
          : byRank(
              arrivals.filter((g) => g.dimension === by && g.month === null),
              (g) => g.shipments,
            ).map(flatArrival);
      expect(groups).toEqual(expected);
    }
    const carriers = await cli(['insights', '--db', sync.dbPath, '--zone', zone, '--json']);
    expect((JSON.parse(carriers.out) as { groups: { key: string }[] }).groups[0]!.key).toBe(
      all.carriers.find((g) => g.rank === 1)!.key,
    );
    const text = await cli([
      'insights',
      '--db',
      sync.dbPath,
      '--zone',
      zone,
      '--from',
      from,
      '--to',
      to,
      '--customer',
      customer,
    ]);
    expect(text.code).toBe(exitCodes.ok);
    expect(text.out).toContain(`arrivals from ${from} to ${to} (${zone}) for ${customer}`);
    expect(text.out.trim().split('\n')).toHaveLength(ranged.carriers.length + 2);
  }, 120_000);
});
