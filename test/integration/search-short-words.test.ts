/**
 * Words shorter than three characters in a list's search box are a LIKE no trigram narrows: a
 * page and a count read the matching ids first, and where they are many (one letter matches
 * nearly every row) test each row as the page walks instead (`searchEither`). Whichever way a
 * statement is made, a forwarder must get the same rows: the pages walked to the end, and the
 * count, equal the export's one statement (which keeps the whole set) and a plain reading of the
 * stored search text.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/core/store/database';
import { countContainers, iterateContainers, listContainers } from '../../src/core/store/queries/containers';
import { countShipments, iterateShipments, listShipments } from '../../src/core/store/queries/shipments';
import { buildBigDatabase } from '../helpers/generated-database';
import { tempDir } from '../helpers/temp-dir';

let db: Db;
beforeAll(() => {
  db = buildBigDatabase(join(tempDir(), 'short.sqlite'), 2500, 'search-short-words').db;
}, 120_000);
afterAll(() => db?.close());

type Lister = (
  filters: { search: string },
  after: string | undefined,
) => { rows: { id: string }[]; next: string | null };
const shipmentsPage: Lister = (filters, after) => listShipments(db, filters, { limit: 100, after });
const containersPage: Lister = (filters, after) => listContainers(db, filters, { limit: 100, after });

function walk(page: Lister, search: string): string[] {
  const ids: string[] = [];
  let after: string | undefined;
  for (;;) {
    const { rows, next } = page({ search }, after);
    ids.push(...rows.map((r) => r.id));
    if (next === null) return ids;
    after = next;
  }
}

/** Shipments whose own text or any container's holds `part` (any case), read plainly. */
function shipmentsHolding(part: string): Set<string> {
  const like = `%${part}%`;
  return new Set(
    db
      .prepare(
        `SELECT s.id FROM shipments s JOIN shipment_search_content t ON t.id = s.rowid WHERE t.c0 LIKE ?
         UNION SELECT c.shipment_id FROM containers c JOIN container_search_content t ON t.id = c.rowid WHERE t.c0 LIKE ?`,
      )
      .pluck()
      .all(like, like) as string[],
  );
}

/** How many ids the page's first read finds: the shipments whose search row (own text or boxes' numbers) matches. */
function idsReadFirst(part: string): number {
  return db
    .prepare('SELECT count(*) FROM shipment_search_content WHERE c0 LIKE ? OR c1 LIKE ?')
    .pluck()
    .get(`%${part}%`, `%${part}%`) as number;
}

describe('a search of one or two characters', { timeout: 120_000 }, () => {
  it('pages and counts the same shipments whether their ids are many or few', () => {
    // One letter of every bill of lading's prefix: nearly every shipment, far past the 2,000 ids read first.
    const many = listShipments(db, {}, { limit: 1 }).rows[0]!.billOfLading!.slice(0, 1);
    // Two characters few shipments hold (each letter pair counted over the stored text).
    const counts = new Map<string, number>();
    for (const text of db.prepare('SELECT c0 FROM shipment_search_content').pluck().all() as string[]) {
      for (const pair of new Set(text.toUpperCase().match(/[A-Z]{2}/g) ?? []))
        counts.set(pair, (counts.get(pair) ?? 0) + 1);
    }
    const few = [...counts].filter(([, n]) => n >= 5 && n <= 200).map(([pair]) => pair)[0]!;
    expect(few).toBeDefined();

    for (const [search, expectMany] of [
      [many, true],
      [few, false],
      [few.toLowerCase(), false],
    ] as const) {
      const expected = shipmentsHolding(search);
      // The ids read first, as the page reads them: past 2,000 the rows are tested one by one instead.
      expect(idsReadFirst(search) > 2000).toBe(expectMany);
      const paged = walk(shipmentsPage, search);
      expect(new Set(paged)).toEqual(expected);
      expect(paged).toHaveLength(expected.size);
      // In the list's order, as the export's one statement gives it.
      expect(paged).toEqual([...iterateShipments(db, { search })].map((r) => r.id));
      expect(countShipments(db, { search })).toBe(expected.size);
      // Beside another filter the count reads the set, not the search table alone.
      const carrier = db
        .prepare('SELECT shipping_line_scac FROM shipments WHERE id = ?')
        .pluck()
        .get([...expected][0]) as string;
      const ofCarrier = [...expected].filter(
        (id) => db.prepare('SELECT shipping_line_scac FROM shipments WHERE id = ?').pluck().get(id) === carrier,
      );
      expect(countShipments(db, { search, carriers: [carrier] })).toBe(ofCarrier.length);
      expect(
        walk((filters, after) => listShipments(db, { ...filters, carriers: [carrier] }, { limit: 100, after }), search),
      ).toHaveLength(ofCarrier.length);
    }
    // Words of both kinds: the long one narrows through the trigram index, the short one still holds.
    const both = `${many} ${few}`;
    expect(countShipments(db, { search: both })).toBe(
      [...shipmentsHolding(few)].filter((id) => shipmentsHolding(many).has(id)).length,
    );
  });

  it('pages and counts the same containers, matched by their own text or their shipment’s', () => {
    const one = listContainers(db, {}, { limit: 1 }).rows[0]!.number!.slice(0, 1);
    const search = one;
    const paged = walk(containersPage, search);
    expect(paged.length).toBeGreaterThan(2000);
    expect(paged).toEqual([...iterateContainers(db, { search })].map((r) => r.id));
    expect(countContainers(db, { search })).toBe(paged.length);
  });
});
