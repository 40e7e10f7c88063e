/**
 * What the service knows at a simulated instant, derived from the plans: a milestone is known
 * once reported, an ETA is the revision in force, holds and fees follow the terminal's clock.
 * Stopping tracking freezes a shipment at the moment it stopped.
 */
import { DAY, HOUR } from './generate';
import type {
  ContainerPlan,
  EtaRevision,
  Milestone,
  MilestoneKey,
  ShipmentPlan,
  TrackingRequestPlan,
  WithdrawnReport,
} from './model';
import { hash32 } from './random';
import { localMidnightAfter } from './zoned-time';

export type StopReason =
  | 'all_containers_terminated'
  | 'past_arrival_window'
  | 'past_full_out_window'
  | 'no_updates_at_line'
  | 'cancelled_by_user'
  | 'booking_cancelled';

export interface TrackingStop {
  at: number;
  reason: StopReason;
  byUser: boolean;
}

/**
 * When the last of a shipment's containers was returned empty (Infinity while one is still out),
 * by the plan's milestones. A shipment's containers and their milestones are fixed once the world
 * is made, so it is found once: a list of shipments filtered on tracking asks it of every shipment
 * on every page, and at 100k shipments the search through each container's milestones made each
 * page cost a tenth of a second.
 */
const lastReturns = new WeakMap<ShipmentPlan, number>();
function lastReturnOf(shipment: ShipmentPlan): number {
  let lastReturn = lastReturns.get(shipment);
  if (lastReturn === undefined) {
    lastReturn = 0;
    for (const container of shipment.containers) {
      const emptyIn = container.milestones.find((m) => m.key === 'empty_in');
      if (!emptyIn) {
        lastReturn = Infinity;
        break;
      }
      lastReturn = Math.max(lastReturn, emptyIn.reportedAt);
    }
    lastReturns.set(shipment, lastReturn);
  }
  return lastReturn;
}

/** Tracking stops by user, by a cancelled booking, or a day after the last empty return. */
export function trackingStop(shipment: ShipmentPlan, now: number): TrackingStop | null {
  let stop: TrackingStop | null = null;
  if (shipment.stoppedByUserAt !== null && shipment.stoppedByUserAt <= now) {
    stop = { at: shipment.stoppedByUserAt, reason: 'cancelled_by_user', byUser: true };
  }
  if (
    shipment.bookingCancelledAt !== null &&
    shipment.bookingCancelledAt <= now &&
    (stop === null || shipment.bookingCancelledAt < stop.at)
  ) {
    stop = { at: shipment.bookingCancelledAt, reason: 'booking_cancelled', byUser: false };
  }
  const terminated = lastReturnOf(shipment) + DAY;
  if (terminated <= now && (stop === null || terminated < stop.at)) {
    stop = { at: terminated, reason: 'all_containers_terminated', byUser: false };
  }
  return stop;
}

/** The instant up to which the service has information about this shipment. */
export function knownUntil(shipment: ShipmentPlan, now: number): number {
  const stop = trackingStop(shipment, now);
  return stop ? Math.min(now, stop.at) : now;
}

export function revisionAt(revisions: readonly EtaRevision[], at: number): number | null {
  let eta: number | null = null;
  for (const revision of revisions) {
    if (revision.from <= at) eta = revision.eta;
    else break;
  }
  return eta;
}

export function knownMilestones(container: ContainerPlan, at: number): Milestone[] {
  return container.milestones.filter((m) => m.reportedAt <= at);
}

export type ContainerStatus =
  | 'new'
  | 'on_ship'
  | 'available'
  | 'not_available'
  | 'grounded'
  | 'on_rail'
  | 'picked_up'
  | 'off_dock'
  | 'delivered'
  | 'dropped'
  | 'loaded'
  | 'empty_returned'
  | 'awaiting_inland_transfer';

type Fee = { type: 'demurrage' | 'exam' | 'total'; amount: number; currency_code: string };

/** A list of fees with its total, as the service sends them; empty when nothing is owed. */
function withTotal(fees: Fee[]): Fee[] {
  if (fees.length === 0) return fees;
  return [...fees, { type: 'total', amount: fees.reduce((sum, f) => sum + f.amount, 0), currency_code: 'USD' }];
}

/** A transport event the service shows: a milestone's report, withdrawn or correcting another. */
export interface EventReport {
  milestone: Milestone;
  /** When the service learnt of this report (its `created_at`). */
  reportedAt: number;
  /** When the carrier withdrew it, once it has. */
  invalidatedAt: number | null;
  /** The withdrawn report this one corrects. */
  previousVersion: Milestone | null;
}

/** A milestone's first report, as it stood before the carrier withdrew it. */
function firstReport(m: Milestone & { withdrawn: WithdrawnReport }): Milestone {
  const { id, at } = m.withdrawn;
  return {
    id,
    rawId: m.rawId,
    key: m.key,
    at,
    reportedAt: m.reportedAt,
    port: m.port,
    terminal: m.terminal,
    vessel: m.vessel,
    voyage: m.voyage,
    dataSource: m.dataSource,
  };
}

/**
 * The milestones known at `at` and their transport events. A milestone whose first report the
 * carrier withdraws is known at the wrong time until the withdrawal; from then on it is known at
 * its own time, and both events show: the withdrawn one with `invalidated_at`, and the
 * milestone's own event naming it as its previous version.
 */
function knownAt(container: ContainerPlan, at: number): { known: Map<MilestoneKey, Milestone>; events: EventReport[] } {
  const known = new Map<MilestoneKey, Milestone>();
  const events: EventReport[] = [];
  for (const m of knownMilestones(container, at)) {
    if (!m.withdrawn) {
      known.set(m.key, m);
      events.push({ milestone: m, reportedAt: m.reportedAt, invalidatedAt: null, previousVersion: null });
      continue;
    }
    const first = firstReport(m as Milestone & { withdrawn: WithdrawnReport });
    const { withdrawnAt } = m.withdrawn;
    if (at < withdrawnAt) {
      known.set(m.key, first);
      events.push({ milestone: first, reportedAt: first.reportedAt, invalidatedAt: null, previousVersion: null });
      continue;
    }
    known.set(m.key, m);
    events.push({ milestone: first, reportedAt: first.reportedAt, invalidatedAt: withdrawnAt, previousVersion: null });
    events.push({ milestone: m, reportedAt: withdrawnAt, invalidatedAt: null, previousVersion: first });
  }
  return { known, events };
}

export interface ContainerState {
  known: Map<MilestoneKey, Milestone>;
  /** The transport events the service shows, withdrawn ones included. */
  events: EventReport[];
  status: ContainerStatus;
  holds: { name: string; status: 'hold'; description: string | null }[];
  availableForPickup: boolean | null;
  availabilityKnown: boolean;
  lastFreeDay: number | null;
  railLastFreeDay: number | null;
  lineLastFreeDay: number | null;
  fees: Fee[];
  /** Holds at the inland rail facility (rail boxes, from rail unloading; kept once released), else null. */
  facilityHolds: { name: string; status: 'hold' | 'released'; description: string | null }[] | null;
  /** What the inland rail facility charges (storage past its last free day), else null. */
  facilityFees: Fee[] | null;
  /** When the railroad was last asked about the box: every check while it rides or waits inland. */
  railCheckedAt: number | null;
  deliveredAt: number | null;
  location: string | null;
  appointmentAt: number | null;
  terminalCheckedAt: number | null;
  shipmentCheckedAt: number | null;
  updatedAt: number;
}

function tick(from: number, at: number, every: number): number {
  return from + Math.floor((at - from) / every) * every;
}

export function containerState(container: ContainerPlan, now: number): ContainerState {
  const shipment = container.shipment;
  const at = knownUntil(shipment, now);
  const { known, events } = knownAt(container, at);
  const has = (key: MilestoneKey) => known.has(key);
  const rail = shipment.rail !== null && shipment.destination !== shipment.pod;
  const discharged = known.get('vessel_discharged');
  const available = known.get('available');

  const holds = discharged
    ? container.holds
        .filter((h) => h.releasedAt === null || h.releasedAt > at)
        .map((h) => ({ name: h.name, status: 'hold' as const, description: h.description }))
    : [];

  const podTz = shipment.pod.data.timeZone;
  const lastFreeDay = !rail && discharged ? localMidnightAfter(discharged.at, podTz, container.freeDays) : null;
  const railLastFreeDay =
    rail && available ? localMidnightAfter(available.at, shipment.destination.data.timeZone, 2) : null;
  const lineLastFreeDay = lastFreeDay ?? railLastFreeDay;

  const pickedUp = known.get('full_out');
  // Storage past the last free day is owed where the box waits: the port terminal, or the rail facility.
  const demurrage: Fee[] = [];
  const lfd = lastFreeDay ?? railLastFreeDay;
  if (lfd !== null) {
    const end = pickedUp ? pickedUp.at : at;
    const days = Math.ceil((end - lfd) / DAY);
    if (days > 0) demurrage.push({ type: 'demurrage', amount: days * container.demurragePerDay, currency_code: 'USD' });
  }
  const exam: Fee[] = container.customsExam && discharged ? [{ type: 'exam', amount: 385, currency_code: 'USD' }] : [];
  const fees = withTotal(rail ? exam : [...demurrage, ...exam]);
  const unloaded = rail ? known.get('rail_unloaded') : undefined;
  const facilityHolds = !rail
    ? null
    : unloaded
      ? container.facilityHolds.map((h) => ({
          name: h.name,
          status: h.releasedAt !== null && h.releasedAt <= at ? ('released' as const) : ('hold' as const),
          description: h.description,
        }))
      : [];
  const delivered = pickedUp ? pickedUp.at + container.deliveredAfterMs : null;

  let status: ContainerStatus;
  if (has('empty_in')) status = 'empty_returned';
  else if (pickedUp) status = 'picked_up';
  else if (rail && has('rail_loaded') && !has('rail_unloaded')) status = 'on_rail';
  else if (rail && has('rail_unloaded')) status = available ? 'available' : 'grounded';
  else if (rail && discharged) status = 'awaiting_inland_transfer';
  else if (discharged) status = available && holds.length === 0 ? 'available' : 'not_available';
  else if (has('vessel_departed')) status = 'on_ship';
  else if (has('vessel_loaded')) status = 'loaded';
  else status = 'new';

  const seed = hash32(container.id);
  let location: string | null = null;
  if (pickedUp) {
    // Out of the terminal: "Picked up" until the delivery is reported, then "Delivered".
    const deliveredNow = delivered !== null && delivered <= at;
    const d = new Date(deliveredNow ? delivered : pickedUp.at);
    location = `${deliveredNow ? 'Delivered' : 'Picked up'} ${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
  } else if (discharged && !(rail && has('rail_departed'))) {
    location = `Yard - ${String.fromCharCode(65 + (seed % 8))}${String(seed % 1000).padStart(3, '0')}${String.fromCharCode(65 + ((seed >> 8) % 6))}`;
  } else if (has('vessel_arrived')) location = 'On vessel';

  const fullOutPlan = container.milestones.find((m) => m.key === 'full_out');
  const appointmentAt =
    container.appointmentLeadMs !== null && fullOutPlan && at >= fullOutPlan.at - container.appointmentLeadMs
      ? fullOutPlan.at - 2 * HOUR
      : null;

  const terminalWatchFrom = shipment.arrivedAt - 2 * DAY;
  const terminalCheckedAt =
    at >= terminalWatchFrom && !has('empty_in') ? tick(terminalWatchFrom, at, 3 * HOUR) + (seed % 900) * 1000 : null;
  const shipmentCheckedAt = at >= shipment.createdAt ? tick(shipment.createdAt, at, 6 * HOUR) : null;

  let updatedAt = container.createdAt;
  for (const e of events) updatedAt = Math.max(updatedAt, e.invalidatedAt ?? e.reportedAt);
  for (const h of [...container.holds, ...(unloaded ? container.facilityHolds : [])])
    if (h.releasedAt !== null && h.releasedAt <= at) updatedAt = Math.max(updatedAt, h.releasedAt);
  if (delivered !== null && delivered <= at) updatedAt = Math.max(updatedAt, delivered);

  return {
    known,
    events,
    status,
    holds,
    availableForPickup: discharged || available ? status === 'available' : null,
    availabilityKnown: discharged !== undefined,
    lastFreeDay,
    railLastFreeDay,
    lineLastFreeDay,
    fees,
    facilityHolds,
    facilityFees: rail ? withTotal(demurrage) : null,
    // Moves with the clock (to the second) from discharge until the box leaves the ramp.
    railCheckedAt: rail && discharged && !pickedUp ? Math.floor(at / 1000) * 1000 : null,
    deliveredAt: delivered !== null && delivered <= at ? delivered : null,
    location,
    appointmentAt,
    terminalCheckedAt: terminalCheckedAt === null ? null : Math.min(terminalCheckedAt, at),
    shipmentCheckedAt,
    updatedAt,
  };
}

export interface ShipmentState {
  stop: TrackingStop | null;
  etd: number | null;
  atd: number | null;
  eta: number | null;
  originalEta: number | null;
  ata: number | null;
  destinationEta: number | null;
  destinationAta: number | null;
  lastAttemptedAt: number;
  updatedAt: number;
}

export function shipmentState(shipment: ShipmentPlan, now: number): ShipmentState {
  const stop = trackingStop(shipment, now);
  const at = stop ? Math.min(now, stop.at) : now;
  const departed = shipment.departedAt + 2 * HOUR <= at;
  const arrived = shipment.arrivedAt + HOUR <= at;
  const inland = shipment.destinationArrivedAt;
  const inlandArrived = inland !== null && inland + HOUR <= at;
  const eta = revisionAt(shipment.etaRevisions, at);
  let updatedAt = shipment.createdAt;
  for (const list of [shipment.etaRevisions, shipment.etdRevisions, shipment.destinationEtaRevisions]) {
    for (const r of list) if (r.from <= at) updatedAt = Math.max(updatedAt, r.from);
  }
  if (departed) updatedAt = Math.max(updatedAt, shipment.departedAt + 2 * HOUR);
  if (arrived) updatedAt = Math.max(updatedAt, shipment.arrivedAt + HOUR);
  if (stop) updatedAt = Math.max(updatedAt, stop.at);
  return {
    stop,
    etd: departed ? null : revisionAt(shipment.etdRevisions, at),
    atd: departed ? shipment.departedAt : null,
    eta: arrived ? null : eta,
    originalEta: shipment.etaRevisions[0]?.eta ?? null,
    ata: arrived ? shipment.arrivedAt : null,
    destinationEta: inland !== null && !inlandArrived ? revisionAt(shipment.destinationEtaRevisions, at) : null,
    destinationAta: inlandArrived ? inland : shipment.rail ? null : arrived ? shipment.arrivedAt : null,
    lastAttemptedAt: tick(shipment.createdAt, at, 6 * HOUR),
    updatedAt,
  };
}

export interface TrackingRequestState {
  status: 'pending' | 'awaiting_manifest' | 'created' | 'failed' | 'tracking_stopped';
  failedReason: string | null;
  isRetrying: boolean;
  retryCount: number | null;
  updatedAt: number;
}

export function trackingRequestState(request: TrackingRequestPlan, now: number): TrackingRequestState {
  let current = request.transitions[0]!;
  for (const t of request.transitions) if (t.at <= now) current = t;
  let updatedAt = current.at;
  let status: TrackingRequestState['status'] = current.status;
  if (status === 'created' && request.shipment) {
    const stop = trackingStop(request.shipment, now);
    if (stop) {
      status = 'tracking_stopped';
      updatedAt = Math.max(updatedAt, stop.at);
    } else if (request.shipment.stoppedByUserAt === null && request.shipment.resumedAt !== null) {
      updatedAt = Math.max(updatedAt, Math.min(request.shipment.resumedAt, now));
    }
  }
  if (request.editedAt !== null && request.editedAt <= now) updatedAt = Math.max(updatedAt, request.editedAt);
  return {
    status,
    failedReason: current.failedReason ?? null,
    isRetrying: current.isRetrying ?? current.status === 'pending',
    retryCount: current.retryCount ?? (current.status === 'pending' ? 0 : null),
    updatedAt,
  };
}
