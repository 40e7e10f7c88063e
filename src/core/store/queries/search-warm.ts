/**
 * The search tables' stored texts read into a connection's page cache, a slice at a time, by the
 * reads' worker when it starts (`reads/read-worker.ts`). A search of one or two characters reads
 * every row's text (no trigram narrows it): at 100k shipments ~15 MB, which the first such
 * keystroke otherwise reads from the file (~40 ms more than from the cache). Warmed between
 * reads, never ahead of one.
 */
import { descriptors } from '../../resources';
import type { Db } from '../database';

/** Rows of a search table's stored text read per step (~1.5 MB of shipments' text). */
const ROWS_PER_STEP = 10_000;

const searchTables = [...new Set(descriptors.flatMap((d) => (d.search ? [d.search.table] : [])))];

/** One step per slice of each search table's stored text; done when every row has been read once. */
export function* warmSearchTexts(db: Db): Generator<void, void, void> {
  for (const table of searchTables) {
    // The largest rowid of the next slice: reading the slice's rows loads their pages.
    const slice = db
      .prepare(`SELECT max(id) FROM (SELECT id FROM ${table}_content WHERE id > ? ORDER BY id LIMIT ${ROWS_PER_STEP})`)
      .pluck();
    let after = -Infinity;
    for (;;) {
      const last = slice.get(after) as number | null;
      if (last === null) break;
      after = last;
      yield;
    }
  }
}
