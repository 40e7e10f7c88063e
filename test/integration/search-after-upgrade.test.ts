/**
 * The search tables are keyed by their record table's rowid, and the upgrades that run VACUUM
 * (0008 to 0010) rewrite every table. SQLite documents that VACUUM may renumber the rowids of a
 * table without an INTEGER PRIMARY KEY; its copy keeps them, and the search relies on it. A file
 * from before those upgrades, with gaps where shipments were deleted, still finds each shipment
 * by its own number afterwards, and never a deleted one's.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase, schemaVersion } from '../../src/core/store/database';
import { migrations } from '../../src/core/store/migrations/index';
import { countShipments, listShipments } from '../../src/core/store/queries/shipments';
import { tempDir } from '../helpers/temp-dir';

const blOf = (i: number) => `QSBL${String(i).padStart(6, '0')}`;

describe('search after the upgrades that rewrite the file', () => {
  it('finds each shipment of a v7 file with deleted rows by its number, and no deleted one', () => {
    const file = join(tempDir(), 'v7-gaps.sqlite');
    const v7 = new Database(file);
    v7.pragma('journal_mode = WAL');
    migrate(v7, migrations.slice(0, 7));
    const shipment = v7.prepare(
      'INSERT INTO shipments (id, bill_of_lading, created_at, raw, synced_at) VALUES (?, ?, ?, ?, ?)',
    );
    const search = v7.prepare('INSERT INTO shipment_search (rowid, body) VALUES (?, ?)');
    v7.transaction(() => {
      for (let i = 0; i < 600; i++) {
        const id = `s${i}`;
        const createdAt = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
        const raw = { type: 'shipment', id, attributes: { bill_of_lading_number: blOf(i), created_at: createdAt } };
        const { lastInsertRowid } = shipment.run(id, blOf(i), createdAt, JSON.stringify(raw), createdAt);
        search.run(lastInsertRowid, blOf(i));
      }
      // Deleted as the v7 store deleted: the row and its search row, leaving gaps in the rowids.
      for (let i = 0; i < 600; i += 3) {
        const rowid = v7.prepare('SELECT rowid FROM shipments WHERE id = ?').pluck().get(`s${i}`);
        v7.prepare('DELETE FROM shipment_search WHERE rowid = ?').run(rowid);
        v7.prepare('DELETE FROM shipments WHERE id = ?').run(`s${i}`);
      }
    })();
    v7.close();

    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(schemaVersion);
    for (let i = 0; i < 600; i++) {
      const found = listShipments(db, { search: blOf(i) }, { limit: 10 }).rows.map((r) => r.id);
      expect(found, blOf(i)).toEqual(i % 3 === 0 ? [] : [`s${i}`]);
    }
    expect(countShipments(db, { search: 'QSBL' })).toBe(400);
    db.close();
  });
});
