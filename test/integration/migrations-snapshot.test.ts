/**
 * A released migration is never edited, only followed by a new one. Each
 * released migration's SQL is pinned by its SHA-256 here, and the schema they build together is
 * pinned in test/fixtures/schema/v<version>.sql.
 *
 * When a migration ships in a release: add its line to `released` (version, name, the hash this
 * test prints) and write the new snapshot with `npx vitest run -u --config test/vitest.config.ts
 * test/integration/migrations-snapshot.test.ts`, then review the .sql diff.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../src/core/store/database';
import { migrations, type Migration } from '../../src/core/store/migrations/index';
import { tempDir } from '../helpers/temp-dir';

/** Every migration that has shipped, in order, with the SHA-256 of its `up` SQL. */
const released = [
  { version: 1, name: 'initial', sha256: 'b5e0ad155251819e02d48286bc36672ffdd8c58f1d1ec7480186b79f66fb96a7' },
  {
    version: 2,
    name: 'search-merges-between-pages',
    sha256: 'da154bd1ee48957e6b9f9106d0536adff60eabe716a739696d354101a71bfd52',
  },
  {
    version: 3,
    name: 'metro-areas-and-locations',
    sha256: '1797e2845dc4575e21183a0c4d0fa2a44ea91923d8a1cc793cead7ae5e9442bb',
  },
  {
    version: 4,
    name: 'live-service-attributes',
    sha256: 'be0040da28a54a78636f7b0000ee733de49eb9cca69f287331138bb5888e087c',
  },
  {
    version: 5,
    name: 'whole-service',
    sha256: '5724ab0cbdb14245f1e3adab9aff82257c030fd6c0f9699dc01985279e2d85be',
  },
  {
    version: 6,
    name: 'forwarder-workflows',
    sha256: '662ab08f02dfb06f95580408e129b7db9952e72c757717f697637550c4bf421d',
  },
  {
    version: 7,
    name: 'alerts-and-scale',
    sha256: 'a016b1338aacfdff742c083a35d023bf0b876910bf83937930c64003f3cc898c',
  },
] as const;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The schema as SQLite keeps it: every object's SQL, whitespace normalised, in a stable order;
 * then the full-text indexes' settings (0002 changes those, not the tables), without FTS5's own
 * format version, which belongs to SQLite.
 */
function schemaOf(db: Database.Database): string {
  const rows = db
    .prepare('SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name')
    .all() as { type: string; name: string; sql: string }[];
  const lines = rows.map((r) => `${r.sql.replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')').trim()};`);
  for (const { name } of rows.filter((r) => r.type === 'table' && r.name.endsWith('_config'))) {
    for (const { k, v } of db.prepare(`SELECT k, v FROM "${name}" WHERE k <> 'version' ORDER BY k`).all() as {
      k: string;
      v: unknown;
    }[])
      lines.push(`-- ${name}: ${k} = ${String(v)}`);
  }
  return `${lines.join('\n')}\n`;
}

describe('released migrations', () => {
  it('are each unchanged since release', () => {
    for (const entry of released) {
      const migration = migrations.find((m) => m.version === entry.version);
      const label = `Migration ${String(entry.version).padStart(4, '0')} (${entry.name})`;
      expect(migration, `${label} was released and must stay in the list`).toBeDefined();
      expect(migration!.name, `${label} was renamed`).toBe(entry.name);
      expect(
        sha256(migration!.up),
        `${label} was released: its SQL must never change (its SHA-256 is now ${sha256(migration!.up)}). Put the change back and add a new migration instead.`,
      ).toBe(entry.sha256);
    }
  });

  it('build exactly the schema in the snapshot', async () => {
    const latest = released[released.length - 1]!.version;
    const db = new Database(':memory:');
    migrate(
      db,
      migrations.filter((m) => m.version <= latest),
    );
    expect(db.pragma('user_version', { simple: true })).toBe(latest);
    await expect(schemaOf(db)).toMatchFileSnapshot(`../fixtures/schema/v${latest}.sql`);
    db.close();
  });
});

describe('a migration that fails halfway', () => {
  it('leaves the database file at the version before it, without its first statements', () => {
    const file = join(tempDir(), 'halfway.sqlite');
    openDatabase(file, { migrations: migrations.slice(0, 1) }).close();
    const broken: Migration = {
      version: 2,
      name: 'broken',
      up: `CREATE TABLE half_done (a TEXT) STRICT;
           ALTER TABLE shipments ADD COLUMN half_done TEXT;
           INSERT INTO sync_state (key, value, updated_at) VALUES ('half', 'done', 'now');
           INSERT INTO no_such_table VALUES (1);`,
    };
    expect(() => openDatabase(file, { migrations: [migrations[0]!, broken] })).toThrow(/no_such_table/);
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'half_done'").get()).toEqual({ n: 0 });
    const columns = (db.prepare("SELECT name FROM pragma_table_info('shipments')").all() as { name: string }[]).map(
      (c) => c.name,
    );
    expect(columns).not.toContain('half_done');
    expect(db.prepare('SELECT count(*) AS n FROM sync_state').get()).toEqual({ n: 0 });
    db.close();
    // The database still opens and migrates once the migration is fixed.
    const fixed = openDatabase(file);
    expect(fixed.pragma('user_version', { simple: true })).toBe(migrations.length);
    fixed.close();
  });
});
