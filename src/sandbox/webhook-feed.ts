/**
 * Webhook notifications as the simulated world changes. The world is a plan and its state a
 * function of time (`state.ts`), so the changes are too: every instant at which something the
 * service shows of a shipment or container moves (a milestone reported or corrected, a new
 * estimate, a hold released, a day more of storage owed, an appointment, the delivery, tracking
 * stopped) is a change with the event the service names it by. Each active webhook gets one
 * notification per change it subscribes to that happened after it was created and after the
 * sandbox started (what came before is the generated history, `generate.ts`), listed newest first.
 * Nothing is stored: the list at an instant is computed from the plans.
 */
import { DAY, HOUR } from './generate';
import { containerChangeset } from './changeset';
import { eventNames } from './event-names';
import type {
  ContainerPlan,
  EtaRevision,
  MilestoneKey,
  NotificationReference,
  PortRec,
  ShipmentPlan,
  TrackingRequestPlan,
  WebhookNotificationRec,
  WebhookRec,
} from './model';
import { hash32, stableUuid } from './random';
import { trackingStop } from './state';
import type { SandboxStore } from './store';
import { localMidnightAfter } from './zoned-time';

/** One change of the world: when, the event it is told by, and what it is about. */
interface Change {
  at: number;
  event: string;
  /** Unique and stable: the notification's id is made from it. */
  key: string;
  reference: NotificationReference;
}

/** A window of simulated time, `from` excluded, `to` included. */
interface Window {
  from: number;
  to: number;
}

const inWindow = (at: number, w: Window) => at > w.from && at <= w.to;

/** The instants after `lfd` at which one more day of storage is owed, within the window, before `until`. */
function feeSteps(lfd: number, until: number, w: Window): number[] {
  const out: number[] = [];
  // Days owed are ceil((t - lfd) / DAY): a day more just after each whole day past the last free day.
  const first = Math.max(0, Math.ceil((w.from - lfd - 1000) / DAY));
  for (let k = first; ; k++) {
    const at = lfd + k * DAY + 1000;
    if (at > w.to || at >= until) break;
    if (inWindow(at, w)) out.push(at);
  }
  return out;
}

function containerChanges(seed: string, c: ContainerPlan, w: Window, out: Change[]): void {
  const s = c.shipment;
  const rail = s.rail !== null && s.destination !== s.pod;
  const event = (at: number, eventId: string, key: MilestoneKey) => {
    if (!inWindow(at, w)) return;
    out.push({
      at,
      event: eventNames[key],
      key: `${c.id}:event:${eventId}`,
      reference: { type: 'transport_event', container: c, eventId },
    });
  };
  const updated = (at: number, label: string, name = 'container.updated') => {
    // A change nobody could see (a hold released before the box was discharged, a delivery not yet reported) is none.
    if (!inWindow(at, w) || Object.keys(containerChangeset(c, at)).length === 0) return;
    const key = `${c.id}:${label}`;
    out.push({
      at,
      event: name,
      key,
      reference: {
        type: 'container_updated_event',
        rec: { id: stableUuid(seed, `container_updated_event:${key}`), container: c, timestamp: at },
      },
    });
  };
  for (const m of c.milestones) {
    if (m.withdrawn) {
      event(m.reportedAt, m.withdrawn.id, m.key);
      event(m.withdrawn.withdrawnAt, m.id, m.key);
    } else event(m.reportedAt, m.id, m.key);
  }
  c.holds.forEach((h, i) => h.releasedAt !== null && updated(h.releasedAt, `hold:${i}`));
  c.facilityHolds.forEach((h, i) => h.releasedAt !== null && updated(h.releasedAt, `facility_hold:${i}`));
  const fullOut = c.milestones.find((m) => m.key === 'full_out');
  if (fullOut) {
    updated(fullOut.at + c.deliveredAfterMs, 'delivered');
    if (c.appointmentLeadMs !== null)
      updated(fullOut.at - c.appointmentLeadMs, 'appointment', 'container.pickup_appointment.changed');
  }
  // Storage owed grows by the day past the last free day until the box is out. A discharge
  // reported at a wrong time first gives another last free day until the carrier corrects it:
  // both are counted (a change told twice costs a request; one never told loses data).
  const from = rail
    ? c.milestones.find((m) => m.key === 'available')
    : c.milestones.find((m) => m.key === 'vessel_discharged');
  const until = fullOut ? fullOut.reportedAt : Infinity;
  // Storage is owed only after the last free day, which follows the discharge (or availability).
  if (!from || until <= w.from || Math.min(from.at, from.withdrawn?.at ?? Infinity) > w.to) return;
  const zone = rail ? s.destination.data.timeZone : s.pod.data.timeZone;
  const days = rail ? 2 : c.freeDays;
  const times = from.withdrawn ? [from.at, from.withdrawn.at] : [from.at];
  for (const at of times) {
    const lfd = localMidnightAfter(at, zone, days);
    for (const step of feeSteps(lfd, until, w)) updated(step, `fees:${step}`);
  }
}

function estimateChanges(
  seed: string,
  s: ShipmentPlan,
  w: Window,
  out: Change[],
  event: string,
  label: string,
  revisions: readonly EtaRevision[],
  actual: number | null,
  port: PortRec,
): void {
  const add = (at: number, estimatedAt: number, part: string) => {
    if (!inWindow(at, w) || at < s.createdAt) return;
    const key = `${s.id}:${label}:${part}`;
    out.push({
      at,
      event,
      key,
      reference: {
        type: 'estimated_event',
        rec: { id: stableUuid(seed, `estimated_event:${key}`), event, shipment: s, estimatedAt, port, createdAt: at },
      },
    });
  };
  revisions.forEach((r, i) => i > 0 && add(r.from, r.eta, `revision:${i}`));
  if (actual !== null) add(actual, actual, 'actual');
}

/** Every change of one shipment (and its containers) within the window, the world frozen once tracking stopped. */
function shipmentChanges(
  seed: string,
  s: ShipmentPlan,
  request: TrackingRequestPlan | undefined,
  w: Window,
  out: Change[],
): void {
  const changes: Change[] = [];
  for (const c of s.containers) containerChanges(seed, c, w, changes);
  estimateChanges(seed, s, w, changes, 'shipment.estimated.arrival', 'eta', s.etaRevisions, s.arrivedAt + HOUR, s.pod);
  estimateChanges(
    seed,
    s,
    w,
    changes,
    'container.transport.estimated.vessel_departed',
    'etd',
    s.etdRevisions,
    s.departedAt + 2 * HOUR,
    s.pol,
  );
  if (s.destinationArrivedAt !== null || s.destinationEtaRevisions.length > 0) {
    estimateChanges(
      seed,
      s,
      w,
      changes,
      'container.transport.estimated.arrived_at_inland_destination',
      'inland_eta',
      s.destinationEtaRevisions,
      s.destinationArrivedAt === null ? null : s.destinationArrivedAt + HOUR,
      s.destination,
    );
  }
  const stop = trackingStop(s, w.to);
  for (const change of changes) if (change.at >= s.createdAt && (!stop || change.at <= stop.at)) out.push(change);
  if (!request) return;
  const tracking = (at: number, event: string, part: string) => {
    if (inWindow(at, w))
      out.push({ at, event, key: `${request.id}:${part}`, reference: { type: 'tracking_request', rec: request } });
  };
  if (stop) tracking(stop.at, 'tracking_request.tracking_stopped', `stopped:${stop.at}`);
  // Resumed: what happened while it was stopped shows at once.
  if (s.resumedAt !== null) tracking(s.resumedAt, 'tracking_request.succeeded', `resumed:${s.resumedAt}`);
}

const requestEvents: Record<string, string> = {
  created: 'tracking_request.succeeded',
  failed: 'tracking_request.failed',
  awaiting_manifest: 'tracking_request.awaiting_manifest',
};

/** What changed in the world within the window, in no particular order. */
export function changesWithin(store: SandboxStore, w: Window): Change[] {
  const seed = store.world.seed;
  const out: Change[] = [];
  const requestOf = new Map<ShipmentPlan, TrackingRequestPlan>();
  for (const r of store.trackingRequests) {
    if (r.shipment) requestOf.set(r.shipment, r);
    r.transitions.forEach((t, i) => {
      const event = requestEvents[t.status];
      if (i > 0 && event && inWindow(t.at, w))
        out.push({ at: t.at, event, key: `${r.id}:transition:${i}`, reference: { type: 'tracking_request', rec: r } });
    });
  }
  for (const s of store.shipments) shipmentChanges(seed, s, requestOf.get(s), w, out);
  return out;
}

interface Cached {
  /** Changes within (world.startedAt, to], extended as the clock moves on (it only moves forward). */
  to: number;
  changes: Change[];
  /** Notifications made so far, by webhook and change, so each id is made once. */
  made: Map<string, WebhookNotificationRec>;
}
const cache = new WeakMap<SandboxStore, Cached>();

/** The changes since the sandbox started, up to `now`. */
function changesUntil(store: SandboxStore, now: number): Change[] {
  let hit = cache.get(store);
  if (!hit) {
    hit = { to: store.world.startedAt, changes: [], made: new Map() };
    cache.set(store, hit);
  }
  if (now > hit.to) {
    // Only the time since the last answer is scanned: what happened before it is already listed.
    hit.changes.push(...changesWithin(store, { from: hit.to, to: now }));
    hit.to = now;
  }
  return now === hit.to ? hit.changes : hit.changes.filter((c) => c.at <= now);
}

/**
 * The notifications listed at `now`, newest first: the generated history, then one per change
 * since the sandbox started for each active webhook subscribed to its event.
 */
export function webhookNotificationsAt(store: SandboxStore, now: number): WebhookNotificationRec[] {
  const world = store.world;
  const live = new Set(world.webhooks);
  const list = world.webhookNotifications.filter((n) => n.createdAt <= now && live.has(n.webhook));
  const hooks: WebhookRec[] = world.webhooks.filter((h) => h.active);
  if (hooks.length > 0) {
    const changes = changesUntil(store, now);
    const made = cache.get(store)!.made;
    for (const hook of hooks) {
      const events = new Set(hook.events);
      for (const change of changes) {
        if (change.at < hook.createdAt || !events.has(change.event)) continue;
        const label = `webhook_notification:${hook.id}:${change.key}`;
        let rec = made.get(label);
        if (!rec) {
          const id = stableUuid(world.seed, label);
          rec = {
            id,
            webhook: hook,
            event: change.event,
            // Most endpoints answer; now and then one does not.
            deliveryStatus: hash32(id) % 13 === 0 ? 'failed' : 'succeeded',
            reference: change.reference,
            createdAt: change.at,
          };
          made.set(label, rec);
        }
        list.push(rec);
      }
    }
  }
  return list.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}
