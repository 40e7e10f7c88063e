/**
 * A shipment is found by any of its containers' numbers through its own search row, which holds
 * them beside its text (migration 0016): written with the shipment, kept as its boxes arrive
 * later, are renumbered, move to another shipment or are deleted, and brought in by the upgrade
 * of a file from before. The containers list still finds a box by its own number only, never by
 * a sibling's.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resources } from '../../src/core/resources';
import { openDatabase, type Db } from '../../src/core/store/database';
import { migrations } from '../../src/core/store/migrations/index';
import * as leaner from '../../src/core/store/migrations/0017-leaner-boxes-and-shipments';
import { countContainers, listContainers } from '../../src/core/store/queries/containers';
import { deletePulledRecord } from '../../src/core/store/queries/hub-pull';
import { countShipments, listShipments } from '../../src/core/store/queries/shipments';
import { writeResources } from '../../src/core/store/writer';
import { containerResource, shipmentResource } from '../helpers/resources';
import { tempDir } from '../helpers/temp-dir';

const syncedAt = '2026-03-01T00:00:00.000Z';
const write = (db: Db, ...records: Parameters<typeof writeResources>[1]) => writeResources(db, records, { syncedAt });

/** The shipments the list shows for `search`, and the count beside it (which must agree). */
function shipmentsFound(db: Db, search: string): string[] {
  const ids = listShipments(db, { search }, { limit: 100 }).rows.map((r) => r.id);
  expect(countShipments(db, { search }), `the count for ${search}`).toBe(ids.length);
  return ids.sort();
}

function containersFound(db: Db, search: string): string[] {
  const ids = listContainers(db, { search }, { limit: 100 }).rows.map((r) => r.id);
  expect(countContainers(db, { search }), `the count for ${search}`).toBe(ids.length);
  return ids.sort();
}

/** Two shipments, the first with two boxes written in a later page than itself. */
function twoShipments(db: Db): void {
  write(
    db,
    shipmentResource({ bill_of_lading_number: 'BLONE0001' }, { id: 's1', containers: ['c1', 'c2'] }),
    shipmentResource({ bill_of_lading_number: 'BLTWO0002' }, { id: 's2', containers: ['c3'] }),
    containerResource('s2', { number: 'ZZZU3000003' }, 'c3'),
  );
  write(
    db,
    containerResource('s1', { number: 'QQQU1000001' }, 'c1'),
    containerResource('s1', { number: 'QQQU2000002' }, 'c2'),
  );
}

describe('a shipment found by its containers’ numbers', () => {
  it('finds the shipment by a box written after it, by any part of the number, and the box alone in the containers list', () => {
    const db = openDatabase(join(tempDir(), 'boxes.sqlite'));
    twoShipments(db);
    expect(shipmentsFound(db, 'QQQU2000002')).toEqual(['s1']);
    expect(shipmentsFound(db, 'u2000')).toEqual(['s1']);
    // One or two characters are read from the stored text, numbers included.
    expect(shipmentsFound(db, 'QQ')).toEqual(['s1']);
    expect(shipmentsFound(db, 'ZZ')).toEqual(['s2']);
    // A word of the shipment's own text and one of a box's, together.
    expect(shipmentsFound(db, 'BLONE QQQU1')).toEqual(['s1']);
    expect(shipmentsFound(db, 'BLONE ZZZU')).toEqual([]);
    // The containers list: the box by its own number, not its sibling; both by their shipment's BL.
    expect(containersFound(db, 'QQQU2000002')).toEqual(['c2']);
    expect(containersFound(db, 'BLONE0001')).toEqual(['c1', 'c2']);
    db.close();
  });

  it('follows a box renumbered, moved to another shipment and deleted', () => {
    const db = openDatabase(join(tempDir(), 'moves.sqlite'));
    twoShipments(db);
    write(db, containerResource('s1', { number: 'QQQU9000009' }, 'c2'));
    expect(shipmentsFound(db, 'QQQU2000002')).toEqual([]);
    expect(shipmentsFound(db, 'QQQU9000009')).toEqual(['s1']);
    write(db, containerResource('s2', { number: 'QQQU9000009' }, 'c2'));
    expect(shipmentsFound(db, 'QQQU9000009')).toEqual(['s2']);
    expect(shipmentsFound(db, 'QQQU1000001')).toEqual(['s1']);
    // The shipment written again (its own text changed) keeps its boxes.
    write(db, shipmentResource({ bill_of_lading_number: 'BLNEW0001' }, { id: 's1', containers: ['c1'] }));
    expect(shipmentsFound(db, 'QQQU1000001')).toEqual(['s1']);
    expect(shipmentsFound(db, 'BLNEW')).toEqual(['s1']);
    expect(shipmentsFound(db, 'BLONE')).toEqual([]);
    db.transaction(() => deletePulledRecord(db, resources.containers, 'container', 'c1'))();
    expect(shipmentsFound(db, 'QQQU1000001')).toEqual([]);
    db.close();
  });

  it('brings the numbers into the search rows of a file from before, where they were apart', () => {
    const file = join(tempDir(), 'v15.sqlite');
    const db = openDatabase(file);
    twoShipments(db);
    db.close();
    // The file as the previous version left it: one text column, no triggers, and as before 0017
    // (its own index of boxes by shipment, no columns for the check times).
    const old = new Database(file);
    old.exec(`
      CREATE INDEX containers_shipment ON containers (shipment_id);
      ${leaner.held.map(([table, column]) => `ALTER TABLE ${table} DROP COLUMN ${column};`).join('\n')}
      DROP TRIGGER shipment_search_box_added;
      DROP TRIGGER shipment_search_box_changed;
      DROP TRIGGER shipment_search_box_removed;
      CREATE TABLE kept AS SELECT rowid AS id, body FROM shipment_search;
      DROP TABLE shipment_search;
      CREATE VIRTUAL TABLE shipment_search USING fts5 (body, tokenize = 'trigram');
      INSERT INTO shipment_search (rowid, body) SELECT id, body FROM kept;
      DROP TABLE kept;
      PRAGMA user_version = 15;
    `);
    expect(old.prepare("SELECT count(*) FROM shipment_search WHERE body LIKE '%QQQU%'").pluck().get()).toBe(0);
    old.close();
    const upgraded = openDatabase(file);
    expect(upgraded.pragma('user_version', { simple: true })).toBe(migrations.at(-1)!.version);
    expect(shipmentsFound(upgraded, 'QQQU2000002')).toEqual(['s1']);
    expect(containersFound(upgraded, 'QQQU2000002')).toEqual(['c2']);
    // And the triggers keep them from then on.
    write(upgraded, containerResource('s2', { number: 'WWWU4000004' }, 'c4'));
    expect(shipmentsFound(upgraded, 'WWWU4000004')).toEqual(['s2']);
    upgraded.close();
  });
});
