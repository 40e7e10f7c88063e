/**
 * A container's raw events as the carrier reported them (read one box at a time by the sync's
 * child-list step): the carrier's own wording of each milestone, for the container page and the
 * events export.
 */
import type { Db } from '../database';
import { perDb } from '../statements';

export interface CarrierWording {
  /** The service's normalised event (`vessel_discharged`), null when it did not normalise it. */
  event: string | null;
  /** The carrier's own words. */
  wording: string;
  timestamp: string | null;
  estimated: boolean;
}

const reads = perDb((db) => ({
  ofContainer: db.prepare<
    [string],
    { event: string | null; wording: string; timestamp: string | null; estimated: number | null }
  >(
    `SELECT event, original_event AS wording, timestamp, estimated FROM raw_events
     WHERE container_id = ? AND original_event IS NOT NULL AND original_event <> '' ORDER BY position, timestamp`,
  ),
}));

/** The carrier's wording of each of a container's raw events, in the carrier's order. */
export function carrierWordings(db: Db, containerId: string): CarrierWording[] {
  return reads(db)
    .ofContainer.all(containerId)
    .map((r) => ({ event: r.event, wording: r.wording, timestamp: r.timestamp, estimated: r.estimated === 1 }));
}

/** The milestone a raw event's normalised name is (the service says `arrived_at_destination` for the inland arrival). */
export function milestoneKeyOf(event: string | null): string | null {
  if (event === null) return null;
  return event === 'arrived_at_destination' ? 'arrived_at_inland_destination' : event;
}

/**
 * The carrier's wording for a milestone of `key` at `at`: the raw event of that kind at that
 * instant, else the one of that kind nearest to it (a carrier's time and the service's may differ
 * by its rounding), else none.
 */
export function wordingFor(wordings: readonly CarrierWording[], key: string, at: string | null): string | null {
  const ofKind = wordings.filter((w) => milestoneKeyOf(w.event) === key);
  if (ofKind.length === 0) return null;
  if (at === null) return ofKind[0]!.wording;
  const target = Date.parse(at);
  const distance = (w: CarrierWording) =>
    w.timestamp === null ? Infinity : Math.abs(Date.parse(w.timestamp) - target);
  return ofKind.reduce((best, w) => (distance(w) < distance(best) ? w : best)).wording;
}
