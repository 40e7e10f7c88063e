/**
 * Upkeep that would otherwise run inside some page's commit: merging the search indexes' segments
 * (automatic merging is off, see migration 0002) and checkpointing the WAL. The sync engine calls
 * it between pages, while the next ones are on the network, and once when a run ends.
 */
import { nextTurn } from '../loop-turns';
import { checkpointAside } from './checkpointer';
import type { Db } from './database';

const searchTables = ['shipment_search', 'container_search', 'tracking_request_search'] as const;
/** Pages of merged output each search index may write per call (FTS5's 'merge' command). */
const MERGE_PAGES = 500;
/**
 * Pages merged in one step of `maintainStoreInSteps`, between two turns of the event loop: a
 * merge of 500 pages took up to 200 ms on a busy machine, one of 16 a few ms.
 */
const MERGE_STEP_PAGES = 16;

/**
 * Merges search segments where a level holds four or more (FTS5 `usermerge`, the same rule
 * automatic merging used), up to MERGE_PAGES pages each; with `checkpoint`, then runs a passive
 * WAL checkpoint (it never waits for readers, so an export in progress is not blocked).
 */
export function maintainStore(db: Db, options: { checkpoint: boolean }): void {
  for (const table of searchTables) {
    db.prepare(`INSERT INTO ${table} (${table}, rank) VALUES ('merge', ?)`).run(MERGE_PAGES);
  }
  if (options.checkpoint) db.pragma('wal_checkpoint(PASSIVE)');
}

/**
 * `maintainStore` for the sync, never holding the event loop long: the same
 * merges in steps of MERGE_STEP_PAGES pages, the loop let go between steps, each index until a
 * step finds nothing to merge (the merge command alone is the one change SQLite counts) or
 * MERGE_PAGES are written; the checkpoint in a worker thread (`checkpointer.ts`), or on `db`
 * itself with `checkpointHere` (a process with no window to keep answering spares that thread).
 */
export async function maintainStoreInSteps(
  db: Db,
  options: { checkpoint: boolean; checkpointHere?: boolean },
): Promise<void> {
  const changes = db.prepare('SELECT total_changes()').pluck();
  for (const table of searchTables) {
    const merge = db.prepare(`INSERT INTO ${table} (${table}, rank) VALUES ('merge', ?)`);
    for (let pages = 0; pages < MERGE_PAGES; pages += MERGE_STEP_PAGES) {
      const before = changes.get() as number;
      merge.run(MERGE_STEP_PAGES);
      const merged = (changes.get() as number) - before > 1;
      await nextTurn();
      // Closed meanwhile (the session ended): nothing left to keep up.
      if (!db.open) return;
      if (!merged) break;
    }
  }
  if (options.checkpoint) {
    if (options.checkpointHere) checkpointHere(db);
    else await checkpointAside(db);
  }
}

/** A passive WAL checkpoint on `db` itself: from a worker thread's connection, whose loop no window waits on. */
export function checkpointHere(db: Db): void {
  db.pragma('wal_checkpoint(PASSIVE)');
}
