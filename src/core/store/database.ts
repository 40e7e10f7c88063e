import Database from 'better-sqlite3';
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { QuaysideError } from '../errors';
import { migrations as allMigrations, type Migration } from './migrations/index';
import { registerPickupFunction } from './queries/pickup-ready';
import { registerResidualFunction } from './residual';
import { gateWrites } from './write-turns';
import {
  DatabaseOpenError,
  databaseProblemMessage,
  isDamageFailure,
  isReadOnlyFailure,
  readOnlyMessage,
} from './store-errors';

export type Db = Database.Database;

/** The schema version this build writes. */
export const schemaVersion = allMigrations[allMigrations.length - 1]!.version;

/**
 * A read-only copy with no -shm beside it in a read-only folder cannot be opened in place
 * (SQLite needs the shared-memory file for WAL, and this build cannot pass `immutable=1`); up to
 * this size it is read into memory instead.
 */
const SNAPSHOT_LIMIT_BYTES = 1024 * 1024 * 1024;

/** Where each open database lives and whether it may be written, for messages and readers. */
const opened = new WeakMap<Db, { file: string; readOnly: boolean; snapshot: Buffer | null }>();

/** The file behind a database opened here (an in-memory snapshot keeps its file's name). */
export function databaseFile(db: Db): string {
  return opened.get(db)?.file ?? db.name;
}

/** True when the database was opened read-only because its file or folder cannot be written. */
export function isReadOnly(db: Db): boolean {
  return opened.get(db)?.readOnly ?? db.readonly;
}

function can(path: string, mode: number): NodeJS.ErrnoException | null {
  try {
    accessSync(path, mode);
    return null;
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
}

const fail = (file: string, problem: ConstructorParameters<typeof DatabaseOpenError>[1], cause?: unknown) =>
  new DatabaseOpenError(file, problem, databaseProblemMessage(problem, file), cause);

/**
 * A WAL database in a folder that cannot be written, with no -wal/-shm beside it: SQLite cannot
 * open it even read-only. Read it into memory (marked as a rollback-journal file in the copy),
 * unless a -wal with changes sits beside it, which a copy of the main file would miss.
 */
function openSnapshot(file: string, cause: unknown): Db {
  const wal = `${file}-wal`;
  if ((existsSync(wal) && statSync(wal).size > 0) || statSync(file).size > SNAPSHOT_LIMIT_BYTES) {
    throw fail(file, 'read_only_unusable', cause);
  }
  const bytes = readFileSync(file);
  if (bytes.length >= 20 && bytes[18] === 2 && bytes[19] === 2) {
    bytes[18] = 1;
    bytes[19] = 1;
  }
  const db = new Database(bytes, { readonly: true });
  opened.set(db, { file, readOnly: true, snapshot: bytes });
  return db;
}

/**
 * Opens (creating if needed) a profile's database: WAL so readers never wait for the sync,
 * foreign keys on, NORMAL sync (durable at each checkpoint under WAL), then migrations.
 *
 * A file or folder that cannot be written opens read-only (views and export work; a sync says
 * it cannot write). Anything that is not a Quayside database of this version or older is refused
 * with a DatabaseOpenError naming the problem, before anything is written to it.
 */
export interface OpenDatabaseOptions {
  migrations?: readonly Migration[];
  /**
   * SQLite's page cache for this connection, in MB (default 32: the app's lists over 100k
   * shipments reread index pages). A headless sync writes pages once and reads few back, so the
   * CLI asks for less and the OS file cache serves the rest.
   */
  cacheMb?: number;
}

export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  const migrations = options.migrations ?? allMigrations;
  let exists = false;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw fail(file, 'not_a_file');
    exists = true;
  } catch (error) {
    if (error instanceof DatabaseOpenError) throw error;
  }
  if (exists && can(file, constants.R_OK)) throw fail(file, 'no_access', can(file, constants.R_OK));
  // SQLite writes beside the file (-wal, -shm, a new file): both must be writable.
  const folderRefuses = can(dirname(file), constants.W_OK);
  if (!exists && folderRefuses) throw fail(file, 'cannot_create', folderRefuses);
  let readOnly = exists && (folderRefuses !== null || can(file, constants.W_OK) !== null);

  let db: Db;
  try {
    db = new Database(file, readOnly ? { readonly: true, fileMustExist: true } : {});
    opened.set(db, { file, readOnly, snapshot: null });
    // Before any statement is prepared on it: the core's writes take turns with a page worker's.
    if (!readOnly) gateWrites(db, 'core');
  } catch (error) {
    throw classify(file, error, readOnly, exists);
  }
  try {
    checkIdentity(db, file, migrations);
  } catch (error) {
    db.close();
    // The folder refuses the -wal/-shm after all, where access() said it would not (a network
    // share's permissions, a security module): the file is read as one in a read-only folder.
    if (exists && codeOf(error) === 'SQLITE_READONLY_DIRECTORY') readOnly = true;
    if (!(readOnly && cannotOpenInPlace(error))) throw classify(file, error, readOnly, exists);
    db = openSnapshot(file, error);
    try {
      checkIdentity(db, file, migrations);
    } catch (again) {
      db.close();
      throw classify(file, again, readOnly, exists);
    }
  }
  try {
    if (!readOnly) {
      // Rows carry the API's whole resource (1–3 KB); larger pages hold them with less overhead.
      // Only takes effect on a new, empty database.
      if ((db.pragma('page_count', { simple: true }) as number) === 0) db.pragma('page_size = 16384');
      db.pragma('journal_mode = WAL');
    }
    applyConnectionSettings(db, options.cacheMb ?? 32);
    registerPickupFunction(db);
    if (readOnly) refuseWrites(db, file);
    else migrate(db, migrations);
    return db;
  } catch (error) {
    db.close();
    throw classify(file, error, readOnly, exists);
  }
}

/** What every connection the core writes through sets (the core's own, the sync pages' worker's). */
function applyConnectionSettings(db: Db, cacheMb: number): void {
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  db.pragma(`cache_size = ${-Math.round(cacheMb * 1000)}`);
  // Checkpoint less often (it copies the WAL into the file and flushes, inside the commit
  // that crosses the mark). The sync engine checkpoints between pages and when a run ends,
  // so during a sync this automatic one is only a backstop.
  db.pragma('wal_autocheckpoint = 4000');
}

/**
 * A read-only copy refuses every statement that would write with the sentence naming it, before
 * SQLite's "attempt to write a readonly database": a sync (app or CLI) then says exactly that.
 */
function refuseWrites(db: Db, file: string): void {
  const prepare = db.prepare.bind(db);
  const guarded = (source: string) => {
    const statement = prepare(source);
    if (!statement.readonly) throw new QuaysideError('storage', readOnlyMessage(file));
    return statement;
  };
  db.prepare = guarded as Db['prepare'];
}

/**
 * SQLite's answers for a WAL file it cannot read in place, having no -shm and no right to create
 * one: CANTOPEN where creating fails with EPERM or EROFS (an immutable folder, read-only media),
 * READONLY_DIRECTORY where it fails with EACCES (a folder whose permissions refuse writes).
 */
function cannotOpenInPlace(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY_DIRECTORY';
}

function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

/** An open failure in words: damage, refusal to write, or (unchanged) anything else. */
function classify(file: string, error: unknown, readOnly: boolean, exists: boolean): unknown {
  if (error instanceof QuaysideError) return error;
  if (isDamageFailure(error)) return fail(file, 'not_a_database', error);
  if (codeOf(error) === 'SQLITE_CANTOPEN' || isReadOnlyFailure(error)) {
    return fail(file, readOnly || exists ? 'read_only_unusable' : 'cannot_create', error);
  }
  return error;
}

/**
 * Reads the header and the schema before anything is written: a newer Quayside's copy, another
 * program's SQLite file or a damaged file is refused as it is; a read-only copy that would need
 * a migration cannot be shown.
 */
function checkIdentity(db: Db, file: string, migrations: readonly Migration[]): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  if (version > latest) {
    throw new DatabaseOpenError(
      file,
      'newer_version',
      databaseProblemMessage('newer_version', file, { schema: version, known: latest }),
    );
  }
  const tables = (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as { name: string }[]).map(
    (t) => t.name,
  );
  // Version 0 with tables: someone else's SQLite file. A Quayside version without its tables: damaged.
  if ((version === 0 && tables.length > 0) || (version > 0 && !tables.includes('sync_state'))) {
    throw fail(file, 'not_a_database');
  }
  if (isReadOnly(db) && version < latest) throw fail(file, 'read_only_unusable');
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
      'storage',
      `This database was written by a newer version of Quayside (schema ${current}; this version knows ${latest}). Update Quayside to open it.`,
    );
  }
  const pending = migrations.filter((m) => m.version > current);
  if (pending.length === 0) return;
  registerResidualFunction(db); // migration 0008 strips raw with raw_residual
  db.transaction(() => {
    for (const migration of pending) db.exec(migration.up);
    db.pragma(`user_version = ${latest}`);
  })();
  // A new database (version 0) has nothing to give back; an upgraded one may have most pages half empty.
  if (current > 0 && pending.some((m) => m.vacuumAfter)) db.exec('VACUUM');
}

/**
 * A second, read-only connection to an open database, for a long read (an export) that must not
 * hold the main connection: under WAL it reads a consistent snapshot while syncs write.
 */
export function openReader(db: Db): Db {
  const snapshot = opened.get(db)?.snapshot;
  const reader = snapshot
    ? new Database(snapshot, { readonly: true })
    : new Database(db.name, { readonly: true, fileMustExist: true });
  reader.pragma('query_only = ON');
  registerPickupFunction(reader);
  return reader;
}

/**
 * The file another thread can open to read what `db` holds (see core/reads), or null: a
 * database in memory, or a read-only copy read into memory (its file cannot be opened in place).
 */
export function fileForReaders(db: Db): string | null {
  const info = opened.get(db);
  if (!info || info.snapshot || db.memory || !db.open) return null;
  return info.file;
}

/** The database's size in bytes as SQLite counts it (pages in use and free). */
export function databaseBytes(db: Db): number {
  return (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
}

/**
 * A read-only connection of its own to a database file, for a reader in another thread (core/reads'
 * worker): under WAL it sees every committed write, never waits for a writer, and cannot write.
 */
export function openReadConnection(file: string, cacheMb = 32): Db {
  const reader = new Database(file, { readonly: true, fileMustExist: true });
  reader.pragma('query_only = ON');
  reader.pragma('busy_timeout = 5000');
  reader.pragma('temp_store = MEMORY');
  reader.pragma(`cache_size = ${-Math.round(cacheMb * 1000)}`);
  registerPickupFunction(reader);
  return reader;
}

/**
 * Opens a read transaction on a reader and takes its snapshot now (under WAL a snapshot is taken
 * at the transaction's first read): until `releaseSnapshot`, it reads the database as it is at
 * this moment, whatever is written meanwhile (the two halves of an export, export-aside.ts).
 */
export function holdSnapshot(reader: Db): void {
  reader.exec('BEGIN');
  reader.prepare('SELECT count(*) FROM sqlite_schema').get();
}

/** Ends the read transaction `holdSnapshot` opened. */
export function releaseSnapshot(reader: Db): void {
  if (reader.inTransaction) reader.exec('COMMIT');
}

/**
 * A second writing connection to a database file the core has open (and migrated), for a writer
 * in another thread (the sync pages' worker, `sync/pages-aside.ts`): the same settings as the
 * core's own connection. Under WAL the two take turns at the write lock, handed over on request
 * (`write-turns.ts`: the worker's writes yield to the core's), the worker's kept to a few
 * milliseconds each.
 */
export function openWriteConnection(file: string, cacheMb = 16): Db {
  const db = new Database(file, { fileMustExist: true });
  gateWrites(db, 'worker');
  try {
    applyConnectionSettings(db, cacheMb);
    opened.set(db, { file, readOnly: false, snapshot: null });
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
