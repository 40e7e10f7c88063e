/**
 * A page written in steps, so the process that hosts the core never stops for a whole page
 * (no synchronous task over ~20 ms on the core's event loop). A page of
 * containers with their events is 50–100 ms of writing on a laptop; here it is cut, in write
 * order (`rank`: referenced resources first), into slices of a few milliseconds each, every
 * slice one `writeResources` transaction, with the event loop let go between two slices.
 *
 * What the page promised still holds:
 * - the last slice carries what must commit with the whole page (`alsoInTransaction`: the sync
 *   checkpoint naming the next page; `eventsCompleteFor`: the events-complete marks), so a sync
 *   killed between two slices has not moved its checkpoint and writes the page again on resume;
 *   upserts by id make the slices already written change nothing the second time;
 * - each slice keeps the foreign keys by construction (its references stubbed first, or written
 *   by an earlier slice), so every commit leaves a consistent database;
 * - each slice reads the change history's "before" itself, so a record another writer touched
 *   between two slices is compared with what is stored, never with a stale copy.
 */
import { nextTurn } from '../loop-turns';
import type { Db } from './database';
import type { StoredResource } from './resource';
import { writeSlice, type SearchLater, type WriteCounts, type WriteOptions } from './writer';
import { rank } from './writer-columns';

/**
 * The time one slice may take, in ms: well under the 20 ms a task may hold the loop, with room
 * for the resource that is being written when it runs out and for the commit.
 */
const SLICE_MS = 5;

/**
 * Writes one page as `writeResources` would, in slices of about SLICE_MS each with the event
 * loop let go between them; resolves to the page's counts by type.
 */
export async function writeResourcesInSteps(
  db: Db,
  resources: readonly StoredResource[],
  options: WriteOptions & { sliceMs?: number },
): Promise<WriteCounts> {
  const sliceMs = options.sliceMs ?? SLICE_MS;
  const sorted = [...resources].sort((a, b) => rank(a.type) - rank(b.type));
  const counts: WriteCounts = {};
  const searchLater: SearchLater[] = [];
  let from = 0;
  for (;;) {
    // Every slice, the first too, waits for its turn: the page's parse or another walk's slice
    // may just have used this one.
    await nextTurn();
    const slice = writeSlice(db, sorted, from, performance.now() + sliceMs, options, searchLater);
    for (const [type, n] of Object.entries(slice.counts)) counts[type] = (counts[type] ?? 0) + n;
    from = slice.next;
    if (slice.done) return counts;
  }
}
