import Database from 'better-sqlite3';
import { QuaysideError } from '../errors';
import { migrations as allMigrations, type Migration } from './migrations/index';

export type Db = Database.Database;

/** The schema version this build writes. */
export const schemaVersion = allMigrations[allMigrations.length - 1]!.version;

/**
 * Opens (creating if needed) a profile's database: WAL so readers never wait for the sync,
 * foreign keys on, NORMAL sync (durable at each checkpoint under WAL), then migrations.
 */
export function openDatabase(file: string, options: { migrations?: readonly Migration[] } = {}): Db {
  let db: Db;
  try {
    db = new Database(file);
  } catch (error) {
    throw new QuaysideError(
      'internal',
      `The local database at ${file} could not be opened: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  try {
    // Rows carry the API's whole resource (1–3 KB); larger pages hold them with less overhead.
    // Only takes effect on a new, empty database.
    if ((db.pragma('page_count', { simple: true }) as number) === 0) db.pragma('page_size = 16384');
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('temp_store = MEMORY');
    db.pragma('cache_size = -32000');
    // Checkpoint less often (it copies the WAL into the file and flushes, inside the commit
    // that crosses the mark). The sync engine checkpoints between pages and when a run ends,
    // so during a sync this automatic one is only a backstop.
    db.pragma('wal_autocheckpoint = 4000');
    migrate(db, options.migrations ?? allMigrations);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Applies pending migrations in one transaction, setting user_version last. A database
 * written by a newer Quayside is refused rather than damaged.
 */
export function migrate(db: Db, migrations: readonly Migration[] = allMigrations): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  if (current > latest) {
    throw new QuaysideError(
      'internal',
      `This database was written by a newer version of Quayside (schema ${current}; this version knows ${latest}). Update Quayside to open it.`,
    );
  }
  const pending = migrations.filter((m) => m.version > current);
  if (pending.length === 0) return;
  db.transaction(() => {
    for (const migration of pending) db.exec(migration.up);
    db.pragma(`user_version = ${latest}`);
  })();
}

/**
 * A second, read-only connection to an open database, for a long read (an export) that must not
 * hold the main connection: under WAL it reads a consistent snapshot while syncs write.
 */
export function openReader(db: Db): Db {
  const reader = new Database(db.name, { readonly: true, fileMustExist: true });
  reader.pragma('query_only = ON');
  return reader;
}
