/**
 * The insights figures computed a second way, in plain TypeScript from the stored records (every
 * row read, each group's values sorted here), to hold the store's SQL to: the same definitions
 * (src/shared/insights.ts, src/core/store/queries/insights-*.ts), none of the same code but the
 * rate pricing the exposure estimate shares.
 */
import type { Db } from '../../src/core/store/database';
import { priceDays, rateFor, type Rates } from '../../src/shared/exposure';
import type { ArrivalGroup, DwellCost, DwellGroup, Spread } from '../../src/shared/insights';
import { localDate } from '../../src/shared/zoned-time';

const DAY = 86_400_000;
const ms = (t: unknown) => (typeof t === 'string' ? Date.parse(t) : NaN);
const known = (n: number) => !Number.isNaN(n);
const round = (v: number | null, places: number) => (v === null ? null : Math.round(v * 10 ** places) / 10 ** places);

/** Nearest rank: the value at rank ⌈p·n/100⌉ of the sorted values. */
function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(1, Math.ceil((p * sorted.length) / 100)) - 1]!;
}

export interface ReferenceOptions {
  zone: string;
  fromInstant: string | null;
  untilInstant: string | null;
  customer: string | null;
  minimum: number;
  historyFrom: string | null;
  rates: Rates | null;
}

type Row = Record<string, unknown>;

function arrived(db: Db, o: ReferenceOptions): Row[] {
  const all = db.prepare('SELECT * FROM shipments WHERE raw IS NOT NULL').all() as Row[];
  return all.filter((s) => {
    const ata = ms(s.pod_ata_at);
    if (!known(ata)) return false;
    if (o.fromInstant && ata < Date.parse(o.fromInstant)) return false;
    if (o.untilInstant && ata >= Date.parse(o.untilInstant)) return false;
    return o.customer === null || s.customer_name === o.customer;
  });
}

/**
 * Ranks within each month and each arrival dimension (terminals and rail terminals together), only
 * groups not small whose figure stands on at least the minimum of known rows.
 */
function rankGroups<G extends { small: boolean; rank: number | null; month: string | null; dimension?: string }>(
  groups: G[],
  has: (g: G) => boolean,
  better: (a: G, b: G) => number,
): void {
  const pools = new Set(groups.map((g) => `${g.dimension ?? ''}|${g.month}`));
  for (const pool of pools) {
    groups
      .filter((g) => `${g.dimension ?? ''}|${g.month}` === pool && !g.small && has(g))
      .sort(better)
      .forEach((g, i) => (g.rank = i + 1));
  }
}

export function referenceArrivals(db: Db, o: ReferenceOptions): ArrivalGroup[] {
  const changes = db
    .prepare("SELECT record_id, old_value, new_value FROM record_changes WHERE field = 'eta' ORDER BY seen_at, id")
    .all() as { record_id: string; old_value: string | null; new_value: string | null }[];
  const etaChanges = new Map<string, typeof changes>();
  for (const c of changes) etaChanges.set(c.record_id, [...(etaChanges.get(c.record_id) ?? []), c]);
  const lines = new Map(
    (db.prepare('SELECT scac, name FROM shipping_lines').all() as Row[]).map((r) => [r.scac, r.name]),
  );
  const ports = new Map((db.prepare('SELECT code, name FROM ports').all() as Row[]).map((r) => [r.code, r.name]));
  const facts = arrived(db, o).map((s) => {
    const history = etaChanges.get(s.id as string) ?? [];
    const seen = history.find((c) => c.old_value !== null);
    const fromHistory = seen ? (JSON.parse(seen.old_value!) as string) : ((s.pod_eta_at as string | null) ?? null);
    const first = (s.pod_original_eta_at as string | null) ?? fromHistory;
    const slip = ms(s.pod_ata_at) - ms(first);
    const departed = (s.pol_atd_at ?? s.created_at) as string | null;
    return {
      carrier: (s.shipping_line_scac as string | null) ?? '',
      pol: (s.pol_locode as string | null) ?? '',
      pod: (s.pod_locode as string | null) ?? '',
      month: localDate(ms(s.pod_ata_at), o.zone).slice(0, 7),
      slip: known(slip) ? slip : null,
      fromHistory: s.pod_original_eta_at === null && first !== null,
      covered: o.historyFrom !== null && departed !== null && ms(departed) >= Date.parse(o.historyFrom),
      moves: history.filter((c) => c.old_value !== null && c.new_value !== null).length,
    };
  });
  const groups = new Map<string, { g: Omit<ArrivalGroup, 'shipments'>; rows: typeof facts }>();
  for (const f of facts) {
    for (const dim of ['carrier', 'lane', 'carrier-lane'] as const) {
      for (const month of [null, f.month]) {
        const carrier = dim === 'lane' ? null : f.carrier;
        const [pol, pod] = dim === 'carrier' ? [null, null] : [f.pol, f.pod];
        const key =
          dim === 'carrier' ? f.carrier : dim === 'lane' ? `${f.pol}→${f.pod}` : `${f.carrier} ${f.pol}→${f.pod}`;
        const id = `${dim}|${key}|${month}`;
        const entry = groups.get(id) ?? {
          g: {
            dimension: dim,
            key,
            carrier: carrier || null,
            carrierName: carrier === null ? null : ((lines.get(carrier) as string | undefined) ?? null),
            pol: pol || null,
            polName: pol === null ? null : ((ports.get(pol) as string | undefined) ?? null),
            pod: pod || null,
            podName: pod === null ? null : ((ports.get(pod) as string | undefined) ?? null),
            month,
          } as Omit<ArrivalGroup, 'shipments'>,
          rows: [],
        };
        entry.rows.push(f);
        groups.set(id, entry);
      }
    }
  }
  const out = [...groups.values()].map(({ g, rows }): ArrivalGroup => {
    const slips = rows.flatMap((r) => (r.slip === null ? [] : [r.slip])).sort((a, b) => a - b);
    const covered = rows.filter((r) => r.covered);
    // Tenths of an hour, half up (as SQLite's floor(ms / 360000.0 + 0.5)).
    const hours = (v: number | null) => (v === null ? null : Math.floor(v / 360_000 + 0.5) / 10);
    return {
      ...g,
      shipments: rows.length,
      small: rows.length < o.minimum,
      rank: null,
      onTime: {
        share: slips.length === 0 ? null : round(slips.filter((s) => s <= DAY).length / slips.length, 4),
        count: slips.length,
        unknown: rows.length - slips.length,
      },
      slipHours: {
        p50: hours(percentile(slips, 50)),
        p90: hours(percentile(slips, 90)),
        count: slips.length,
        unknown: rows.length - slips.length,
      },
      etaMoves: {
        mean: covered.length === 0 ? null : round(covered.reduce((n, r) => n + r.moves, 0) / covered.length, 2),
        movedShare: covered.length === 0 ? null : round(covered.filter((r) => r.moves > 0).length / covered.length, 4),
        count: covered.length,
        unknown: rows.length - covered.length,
      },
      firstEtaFromHistory: rows.filter((r) => r.fromHistory).length,
    };
  });
  rankGroups(
    out,
    (g) => g.onTime.share !== null && g.onTime.count >= o.minimum,
    (a, b) =>
      b.onTime.share! - a.onTime.share! ||
      (a.slipHours.p50 ?? 0) - (b.slipHours.p50 ?? 0) ||
      a.key.localeCompare(b.key),
  );
  return out;
}

export function referenceDwell(db: Db, o: ReferenceOptions): DwellGroup[] {
  const shipments = new Map(arrived(db, o).map((s) => [s.id as string, s]));
  const terminals = new Map((db.prepare('SELECT id, name FROM terminals').all() as Row[]).map((r) => [r.id, r.name]));
  const available = new Map<string, number[]>();
  const events = db
    .prepare(
      `SELECT (SELECT text FROM interned WHERE key = e.container_key) AS container, e.timestamp
       FROM transport_events e
       WHERE e.invalidated_at IS NULL AND (SELECT text FROM interned WHERE key = e.event_key) = 'container.transport.available'`,
    )
    .all() as { container: string; timestamp: number | null }[];
  for (const e of events) {
    if (e.timestamp !== null) available.set(e.container, [...(available.get(e.container) ?? []), e.timestamp]);
  }
  const boxes = (db.prepare('SELECT * FROM containers WHERE raw IS NOT NULL').all() as Row[]).flatMap((c) => {
    const s = shipments.get(c.shipment_id as string);
    if (!s) return [];
    const rail = c.ind_ata_at !== null || c.pod_rail_loaded_at !== null || c.lfd_source === 'rail';
    const kind = rail ? ('rail' as const) : ('terminal' as const);
    const t0 = ms(rail ? c.ind_ata_at : c.pod_discharged_at);
    const tp = ms(rail ? c.final_destination_full_out_at : c.pod_full_out_at);
    const te = ms(c.empty_terminated_at);
    const tl = ((c.lfd_source as string | null) ?? 'terminal') === kind ? ms(c.lfd_deadline_at) : NaN;
    const after = (available.get(c.id as string) ?? []).filter((t) => known(t0) && t >= t0);
    const ta = after.length === 0 ? NaN : Math.min(...after);
    const terminal = ((rail ? s.destination_terminal_id : c.pod_terminal_id) as string | null) ?? '';
    return [
      {
        kind,
        terminal,
        month: localDate(ms(s.pod_ata_at), o.zone).slice(0, 7),
        carrier: s.shipping_line_scac as string | null,
        t0,
        ta,
        tp,
        te,
        tl,
      },
    ];
  });
  type Box = (typeof boxes)[number];
  const groups = new Map<string, Box[]>();
  for (const b of boxes) {
    for (const month of [null, b.month]) {
      const id = `${b.kind}|${b.terminal}|${month}`;
      groups.set(id, [...(groups.get(id) ?? []), b]);
    }
  }
  const span = (rows: Box[], a: (b: Box) => number, z: (b: Box) => number): Spread => {
    const days = rows
      .filter((b) => known(a(b)) && known(z(b)) && z(b) >= a(b))
      .map((b) => (z(b) - a(b)) / DAY)
      .sort((x, y) => x - y);
    return {
      p50: round(percentile(days, 50), 2),
      p90: round(percentile(days, 90), 2),
      count: days.length,
      unknown: rows.length - days.length,
    };
  };
  const out = [...groups.entries()].map(([id, rows]): DwellGroup => {
    const [kind, terminal, month] = id.split('|') as [DwellGroup['kind'], string, string];
    const judged = rows.filter((b) => known(b.tp) && known(b.tl));
    let cost: DwellCost | null = null;
    if (o.rates) {
      const rates = o.rates;
      cost = { currency: rates.currency, demurrage: 0, detention: 0, total: 0, priced: 0, unpriced: 0 };
      for (const b of judged) {
        const input = {
          status: 'picked_up' as const,
          carrierScac: b.carrier,
          terminals: [(terminals.get(terminal) as string | undefined) ?? null],
          lastFreeDay: null,
          zone: null,
          pickedUpAt: null,
          emptyReturnedAt: null,
        };
        const lateDays = b.tp > b.tl ? Math.ceil((b.tp - b.tl) / DAY) : 0;
        let chargeable = false;
        let unpriced = false;
        if (lateDays > 0) {
          chargeable = true;
          const set = rateFor(rates, 'demurrage', input);
          if (set) cost.demurrage += priceDays(set.demurrage, lateDays).amount;
          else unpriced = true;
        }
        const set = rateFor(rates, 'detention', input);
        if (known(b.te) && b.te >= b.tp && set?.detention) {
          const out = Math.floor((b.te - b.tl) / DAY) - Math.floor((b.tp - b.tl) / DAY) + 1;
          const days = Math.max(0, out - set.detention.freeDays);
          if (days > 0) {
            chargeable = true;
            cost.detention += priceDays(set.detention.tiers, days).amount;
          }
        }
        if (chargeable) cost[unpriced ? 'unpriced' : 'priced'] += 1;
      }
      cost.demurrage = Math.round(cost.demurrage * 100) / 100;
      cost.detention = Math.round(cost.detention * 100) / 100;
      cost.total = Math.round((cost.demurrage + cost.detention) * 100) / 100;
      if (judged.length === 0) cost = null;
    }
    return {
      kind,
      key: terminal,
      name: (terminals.get(terminal) as string | undefined) ?? null,
      month: month === 'null' ? null : month,
      containers: rows.length,
      small: rows.length < o.minimum,
      rank: null,
      dischargeToAvailable: span(
        rows,
        (b) => b.t0,
        (b) => b.ta,
      ),
      availableToPickedUp: span(
        rows,
        (b) => b.ta,
        (b) => b.tp,
      ),
      dischargeToPickedUp: span(
        rows,
        (b) => b.t0,
        (b) => b.tp,
      ),
      pickedUpToEmptyReturned: span(
        rows,
        (b) => b.tp,
        (b) => b.te,
      ),
      pickedUpAfterLfd: {
        share: judged.length === 0 ? null : round(judged.filter((b) => b.tp > b.tl).length / judged.length, 4),
        count: judged.length,
        unknown: rows.length - judged.length,
      },
      cost,
    };
  });
  rankGroups(
    out,
    (g) => g.dischargeToPickedUp.p50 !== null && g.dischargeToPickedUp.count >= o.minimum,
    (a, b) =>
      a.dischargeToPickedUp.p50! - b.dischargeToPickedUp.p50! ||
      a.kind.localeCompare(b.kind) ||
      a.key.localeCompare(b.key),
  );
  return out;
}
