/**
 * A search matching many rows (past the 2,000 rowids a page or a count reads first) is answered
 * without reading every match: a page tests each row as it walks the list's order, and a count
 * tests the set's rowids (`searchEither`). A forwarder must still get the same rows: the pages
 * walked to the end equal the export's one statement, and they and the count equal a plain
 * reading of the stored search text, for rows matched by their own text and rows matched only
 * through a related row (a shipment through one of its containers' numbers, a container through
 * its shipment).
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
  db = buildBigDatabase(join(tempDir(), 'many.sqlite'), 10_000, 'search-many-matches').db;
}, 300_000);
afterAll(() => db?.close());

type Page = { rows: { id: string }[]; next: string | null };

function walk(page: (after: string | undefined) => Page): string[] {
  const ids: string[] = [];
  let after: string | undefined;
  for (;;) {
    const { rows, next } = page(after);
    ids.push(...rows.map((r) => r.id));
    if (next === null) return ids;
    after = next;
  }
}

const plain = (sql: string, ...params: unknown[]) =>
  new Set(
    db
      .prepare(sql)
      .pluck()
      .all(...params) as string[],
  );

/** Shipments whose own stored text holds `part`, and those holding it only through a container. */
function shipmentsHolding(part: string): { own: Set<string>; throughContainers: Set<string> } {
  const like = `%${part}%`;
  const own = plain(
    'SELECT s.id FROM shipments s JOIN shipment_search_content t ON t.id = s.rowid WHERE t.c0 LIKE ?',
    like,
  );
  const viaContainers = plain(
    'SELECT c.shipment_id FROM containers c JOIN container_search_content t ON t.id = c.rowid WHERE t.c0 LIKE ?',
    like,
  );
  return { own, throughContainers: new Set([...viaContainers].filter((id) => !own.has(id))) };
}

/** Containers whose own number holds `part`, or whose shipment's text does. */
function containersHolding(part: string): Set<string> {
  const like = `%${part}%`;
  return plain(
    `SELECT c.id FROM containers c JOIN container_search_content t ON t.id = c.rowid WHERE t.c0 LIKE ?
     UNION SELECT c.id FROM containers c JOIN shipments s ON s.id = c.shipment_id
       JOIN shipment_search_content t ON t.id = s.rowid WHERE t.c0 LIKE ?`,
    like,
    like,
  );
}

const count = (sql: string, ...params: unknown[]) =>
  db
    .prepare(sql)
    .pluck()
    .get(...params) as number;

/**
 * A text of `length` characters (from the containers' numbers and the first shipments' text) whose
 * rowids read first for `list` are past 2,000 (each row matched by its own text, and each row a
 * related match reaches), at least `through` rows of the list matching only through a related
 * row (no text of three characters reaches 2,000 shipments through their containers here).
 */
function commonPart(list: 'shipments' | 'containers', length: number, through = 1): string {
  const texts = [
    ...(db.prepare('SELECT c0 FROM container_search_content').pluck().all() as string[]),
    ...(db.prepare('SELECT c0 FROM shipment_search_content LIMIT 50').pluck().all() as string[]),
  ];
  const seen = new Set<string>();
  for (const text of texts) {
    for (let i = 0; i + length <= text.length; i++) {
      const part = text.slice(i, i + length).toUpperCase();
      if (seen.has(part) || /\s|%|_|\\/.test(part)) continue;
      seen.add(part);
      const like = `%${part}%`;
      const ownShipments = count('SELECT count(*) FROM shipment_search_content WHERE c0 LIKE ?', like);
      const ownContainers = count('SELECT count(*) FROM container_search_content WHERE c0 LIKE ?', like);
      if (list === 'shipments') {
        if (ownShipments + ownContainers > 2000 && shipmentsHolding(part).throughContainers.size >= through)
          return part;
      } else {
        const ofShipments = count(
          `SELECT count(*) FROM containers c JOIN shipments s ON s.id = c.shipment_id
           JOIN shipment_search_content t ON t.id = s.rowid WHERE t.c0 LIKE ?`,
          like,
        );
        if (ownContainers + ofShipments > 2000 && containersHolding(part).size > ownContainers) return part;
      }
    }
  }
  throw new Error(`no text of ${length} characters is common enough in this database`);
}

describe('a search matching many rows', { timeout: 300_000 }, () => {
  for (const length of [3, 2]) {
    it(`pages and counts the same shipments for a text of ${length} characters`, () => {
      const search = commonPart('shipments', length, length === 3 ? 0 : 1);
      const { own, throughContainers } = shipmentsHolding(search);
      const expected = new Set([...own, ...throughContainers]);
      const shipments = walk((after) => listShipments(db, { search }, { limit: 100, after }));
      expect(new Set(shipments)).toEqual(expected);
      expect(shipments).toHaveLength(expected.size);
      expect(shipments).toEqual([...iterateShipments(db, { search })].map((r) => r.id));
      expect(countShipments(db, { search })).toBe(expected.size);
      // Oldest first: the walk the other way finds the same rows.
      const ascending = walk((after) =>
        listShipments(db, { search }, { limit: 100, after, sort: { field: 'created_at', direction: 'asc' } }),
      );
      expect(ascending).toEqual([...shipments].reverse());
    });

    it(`pages and counts the same containers for a text of ${length} characters`, () => {
      const search = commonPart('containers', length);
      const containers = walk((after) => listContainers(db, { search }, { limit: 100, after }));
      expect(new Set(containers)).toEqual(containersHolding(search));
      expect(containers).toHaveLength(containersHolding(search).size);
      expect(containers).toEqual([...iterateContainers(db, { search })].map((r) => r.id));
      expect(countContainers(db, { search })).toBe(containers.length);
    });
  }
});
