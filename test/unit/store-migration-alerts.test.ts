/**
 * Migration 0007's part notifications, from a version-6 database: the alerts
 * table, STRICT, one row per rule, record and occurrence, read by sync and by time through indexes.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/core/store/database';
import { migrations } from '../../src/core/store/migrations/index';

describe('migration 0007 (notifications)', () => {
  it('adds the alerts, each occurrence once, keeping every row of a version-6 database', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, 6));
    db.prepare("INSERT INTO shipments (id, raw) VALUES ('s1', '{}')").run();
    migrate(db, migrations.slice(0, 7));
    expect(db.pragma('user_version', { simple: true })).toBe(7);
    expect(db.prepare('SELECT id FROM shipments').pluck().all()).toEqual(['s1']);
    const sqlOf = (name: string) =>
      db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(name) as string | undefined;
    expect(sqlOf('alerts')).toMatch(/\) STRICT$/);
    const insert = db.prepare(
      `INSERT OR IGNORE INTO alerts (run_id, rule, resource, record_id, detail, occurrence, raised_at)
       VALUES (?, ?, 'container', 'c1', 'Last free day', ?, '2026-03-02T09:00:00.000Z')`,
    );
    expect(insert.run(1, 'lfd_soon', 'lfd:2026-03-04').changes).toBe(1);
    // The same box's same last free day is raised once; another day is another alert.
    expect(insert.run(2, 'lfd_soon', 'lfd:2026-03-04').changes).toBe(0);
    expect(insert.run(2, 'lfd_soon', 'lfd:2026-03-06').changes).toBe(1);
    // A rule this version does not know is refused.
    expect(() =>
      db
        .prepare(
          `INSERT INTO alerts (rule, resource, record_id, detail, occurrence, raised_at)
           VALUES ('everything', 'container', 'c1', 'x', 'x', 'now')`,
        )
        .run(),
    ).toThrow(/CHECK constraint/);
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((p) => p.detail).join(' ');
    expect(plan('SELECT * FROM alerts WHERE run_id = 2 ORDER BY id')).toMatch(/USING INDEX alerts_run/);
    expect(plan("SELECT * FROM alerts WHERE raised_at >= '2026-01-01' ORDER BY raised_at DESC")).toMatch(
      /USING INDEX alerts_raised/,
    );
  });
});
