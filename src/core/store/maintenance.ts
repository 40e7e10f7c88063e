/**
 * Upkeep that would otherwise run inside some page's commit: merging the search indexes' segments
 * (automatic merging is off, see migration 0002) and checkpointing the WAL. The sync engine calls
 * it between pages, while the next ones are on the network, and once when a run ends.
 */
import type { Db } from './database';

const searchTables = ['shipment_search', 'container_search', 'tracking_request_search'] as const;
/** Pages of merged output each search index may write per call (FTS5's 'merge' command). */
const MERGE_PAGES = 500;

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
