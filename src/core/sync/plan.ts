/**
 * A run's plan: which of the registry's walks it makes (each as its descriptor's `when` says),
 * each walk's request (its list, query, includes and cursor), and what a finished walk leaves
 * for the next run (its cursor moved, its period restarted).
 */
import type { JsonApiDocument } from '../api/document';
import { walks, type Walk } from '../resources';
import type { Db } from '../store/database';
import { trustedInstant } from '../store/instant';
import { clearState, readState, writeState } from '../store/sync-state';
import type { Query } from './types';
import { hasCheckpoint, type WalkSpec } from './walk';

/** A walk of the plan, with the descriptor's walk it came from. */
export interface PlannedWalk extends WalkSpec {
  walk: Walk;
}

type Mode = 'full' | 'incremental';

/**
 * The walks of a run, in the registry's walk order: each as its descriptor's `when` says
 * (every run; full runs; or once its period has passed), and an interrupted walk always.
 */
export function planWalks(
  db: Db,
  mode: Mode,
  now: Date,
  eventsComplete: (doc: JsonApiDocument) => string[],
): PlannedWalk[] {
  const due = (key: string, every: number) => {
    // A time that is no date, or far ahead of this clock, would keep a walk from ever being due.
    const last = trustedInstant(readState<unknown>(db, key), now);
    return mode === 'full' || last === null || now.getTime() - last >= every;
  };
  const planned = (w: Walk): boolean => {
    switch (w.when.kind) {
      case 'always':
        return true;
      case 'full':
        return mode === 'full' || hasCheckpoint(db, w.key);
      case 'every':
        return due(w.when.doneKey, w.when.every) || hasCheckpoint(db, w.when.resumeWith);
    }
  };
  return walks.filter(planned).map((w) => walkSpec(db, w, mode, now, eventsComplete));
}

/** A walk's request: its list, query and includes, and from its cursor on incremental runs. */
export function walkSpec(
  db: Db,
  walk: Walk,
  mode: Mode,
  now: Date,
  eventsComplete: (doc: JsonApiDocument) => string[],
): PlannedWalk {
  const query: Query = { ...walk.query };
  if (walk.cursor) {
    // A cursor that is no date or lies in the future is no cursor: every record is read, and
    // the walk's newest update becomes the cursor again.
    const cursor = mode === 'incremental' ? trustedInstant(readState<unknown>(db, walk.cursor.key), now) : null;
    query[walk.cursor.filter] = cursor === null ? undefined : new Date(cursor - walk.cursor.overlapMs).toISOString();
  }
  if (walk.includes.length > 0) query.include = walk.includes.join(',');
  return {
    key: walk.key,
    path: walk.path,
    noun: walk.noun,
    resource: walk.resource,
    query,
    walk,
    eventsComplete: walk.carriesEvents ? eventsComplete : undefined,
  };
}

/** What a walk leaves for the next run: its cursor moved, or the time its period restarts. */
export function afterWalk(db: Db, mode: Mode, { walk }: PlannedWalk, maxUpdatedAt: string | null, now: Date): void {
  if (walk.cursor) {
    const { key } = walk.cursor;
    // Instants, not text. A full run read every record, so its newest update is the cursor
    // (a bad one stored before is reset); an incremental run only moves a trusted one forward.
    const previous = mode === 'full' ? null : trustedInstant(readState<unknown>(db, key), now);
    const latest = trustedInstant(maxUpdatedAt, now);
    if (latest !== null && (previous === null || latest > previous)) {
      writeState(db, key, maxUpdatedAt);
    } else if (previous === null && latest === null) clearState(db, key);
  }
  if (walk.when.kind === 'every' && walk.when.markedBy === walk.key) {
    writeState(db, walk.when.doneKey, now.toISOString());
  }
}
