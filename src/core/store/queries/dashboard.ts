/**
 * The dashboard: what needs action, counted straight from the store. Every count here has a
 * list behind it (the tile opens the same filters), so the numbers and the lists agree.
 */
import { failedReasonLabels, holdLabel } from '../../../shared/labels';
import { computerTimeZone } from '../../../shared/date-formatters';
import { containerStatuses, containerStatusLabels } from '../../../shared/status';
import { localDate, localMidnightAfter } from '../../../shared/zoned-time';
import type { CountBucket, DashboardSummary } from '../../../shared/types';
import { trackingRequests } from '../../resources/tracking-requests';
import type { Db } from '../database';
import { readState, URGENT_STORED_KEY } from '../sync-state';
import { countContainers } from './containers';
import { countShipments } from './shipments';

const DAY = 86_400_000;

/** The filters behind each tile, from `now`: shared with the renderer through the summary's use. */
export function dashboardFilters(now: number) {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    arrivingNext7Days: { etaFrom: iso(now), etaTo: iso(now + 7 * DAY) },
    arrivedNotAvailable: { statuses: ['arrived', 'discharged'] as ('arrived' | 'discharged')[] },
    lfdToday: {
      lfdFrom: iso(now),
      lfdTo: iso(now + DAY),
      statuses: ['discharged', 'available', 'on_rail'] as ('discharged' | 'available' | 'on_rail')[],
    },
    lfdWithin3Days: {
      lfdFrom: iso(now),
      lfdTo: iso(now + 3 * DAY),
      statuses: ['discharged', 'available', 'on_rail'] as ('discharged' | 'available' | 'on_rail')[],
    },
    overdue: { overdue: true },
    // Monday's question: what must be picked up this working week, the overdue ones with it.
    // Kept as days from today, so the list the tile opens (and a view saved from it) stays relative.
    pickupSoon: {
      statusGroups: ['not_picked_up'] as 'not_picked_up'[],
      lfdDays: { next: 5, overdue: true } as { next: number; overdue: true },
    },
    etaSlipped: { etaSlipped: true, etaFrom: iso(now) },
  };
}

/**
 * `zone`: whose calendar days the arrivals chart counts (the renderer sends the one it shows
 * dates in; by default this computer's). Each day runs from local midnight to the next, so a
 * day's link lists exactly the shipments its column counts, across daylight-saving changes too.
 */
export function dashboardSummary(db: Db, now = Date.now(), zone = computerTimeZone()): DashboardSummary {
  const f = dashboardFilters(now);
  const nowIso = new Date(now).toISOString();
  const holds = db
    .prepare(
      // One bar per hold type whatever the spelling ('USDA' and 'usda'); the list's hold-type
      // filter matches case-insensitively too, so the bar's link lists what it counted.
      `SELECT lower(trim(json_extract(h.value, '$.name'))) AS name, count(DISTINCT c.id) AS n
       FROM containers c, json_each(c.holds) h
       WHERE c.synced_at IS NOT NULL AND c.holds_count > 0 AND c.status NOT IN ('picked_up', 'empty_returned')
       GROUP BY 1 ORDER BY n DESC, name`,
    )
    .all() as { name: string | null; n: number }[];
  const failed = db
    .prepare(
      `SELECT coalesce(failed_reason, 'unknown') AS reason, count(*) AS n FROM ${trackingRequests.table}
       WHERE synced_at IS NOT NULL AND status = 'failed' GROUP BY reason ORDER BY n DESC`,
    )
    .all() as { reason: string; n: number }[];
  const byStatus = new Map(
    (
      db.prepare('SELECT status, count(*) AS n FROM containers WHERE synced_at IS NOT NULL GROUP BY status').all() as {
        status: string;
        n: number;
      }[]
    ).map((r) => [r.status, r.n]),
  );
  const starts = Array.from({ length: 29 }, (_, i) => localMidnightAfter(now, zone, i));
  const etas = db
    .prepare(
      `SELECT pod_eta_at AS eta FROM shipments
       WHERE synced_at IS NOT NULL AND pod_ata_at IS NULL AND pod_eta_at >= ? AND pod_eta_at < ?`,
    )
    .pluck()
    .all(new Date(starts[0]!).toISOString(), new Date(starts[28]!).toISOString()) as string[];
  const arrivalsByDay = new Map<string, number>();
  for (const eta of etas) {
    const day = localDate(Date.parse(eta), zone);
    arrivalsByDay.set(day, (arrivalsByDay.get(day) ?? 0) + 1);
  }
  // Delays: the shipments the "ETA slipped" tile counts, by carrier, with their average slip.
  const delays = db
    .prepare(
      `SELECT shipping_line_scac AS carrier, count(*) AS n, avg(eta_slip_hours) / 24.0 AS slip FROM shipments
       WHERE synced_at IS NOT NULL AND eta_slip_hours >= 24 AND coalesce(pod_ata_at, pod_eta_at) >= ?
         AND shipping_line_scac IS NOT NULL
       GROUP BY carrier ORDER BY n DESC, slip DESC LIMIT 8`,
    )
    .all(nowIso) as { carrier: string; n: number; slip: number }[];
  const awaiting = db
    .prepare(
      `SELECT count(*) AS n FROM ${trackingRequests.table} WHERE synced_at IS NOT NULL AND status = 'awaiting_manifest'`,
    )
    .get() as { n: number };

  return {
    generatedAt: nowIso,
    urgentStoredAt: readState<string>(db, URGENT_STORED_KEY),
    filters: f,
    arrivingNext7Days: countShipments(db, f.arrivingNext7Days),
    arrivedNotAvailable: countContainers(db, f.arrivedNotAvailable, { now: nowIso }),
    lfdToday: countContainers(db, f.lfdToday, { now: nowIso }),
    lfdWithin3Days: countContainers(db, f.lfdWithin3Days, { now: nowIso }),
    overdue: countContainers(db, f.overdue, { now: nowIso }),
    pickupSoon: countContainers(db, f.pickupSoon, { now: nowIso }),
    onHold: holds.map((h): CountBucket => ({
      key: h.name ?? 'hold',
      label: h.name ? holdLabel(h.name) : 'Hold',
      count: h.n,
    })),
    etaSlipped: countShipments(db, f.etaSlipped),
    trackingFailed: failed.map((r): CountBucket => ({
      key: r.reason,
      label: failedReasonLabels[r.reason] ?? r.reason,
      count: r.n,
    })),
    awaitingManifest: awaiting.n,
    arrivalsZone: zone,
    arrivalsPerDay: starts.slice(0, 28).map((start, i) => {
      const date = localDate(start, zone);
      const to = new Date(starts[i + 1]! - 1).toISOString();
      return { date, count: arrivalsByDay.get(date) ?? 0, from: new Date(start).toISOString(), to };
    }),
    containersByStatus: containerStatuses.map((status) => ({
      key: status,
      label: containerStatusLabels[status],
      count: byStatus.get(status) ?? 0,
    })),
    delaysByCarrier: delays.map((d) => ({
      carrier: d.carrier,
      shipments: d.n,
      averageSlipDays: Math.round(d.slip * 10) / 10,
    })),
  };
}
