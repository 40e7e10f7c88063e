/**
 * One sync per database, across processes (the app and a CLI cron job on the same file).
 *
 * The lock is a small file beside the database, `<db>.sync-lock`, created with O_EXCL and
 * holding the holder's pid, hostname, start and heartbeat as JSON. It lives outside SQLite on
 * purpose: taking it needs no write transaction (WAL readers and the running sync's page writes
 * never wait on it), a busy sync never touches the database, and it works before the schema
 * exists. The holder keeps the file open and rewrites its heartbeat in place every
 * `heartbeatMs`; its inode is the identity of one holding.
 *
 * A lock is stale when its holder's process is gone (same hostname, pid not alive) or its
 * heartbeat is older than `staleMs` (another host, a reused pid, a hung holder). A stale lock
 * is taken over by renaming it aside and checking that what was moved is the very lock judged
 * stale (same inode, same text); if another process took or refreshed it meanwhile, it is put
 * back and the caller is busy. A holder that finds its file gone or replaced at a heartbeat
 * has lost the lock: `lost` aborts, so two syncs never interleave for long.
 *
 * The lock is named after the database file's real path (`realDatabasePath`), not the path it
 * was reached by: through a symlink to the file or to a folder on its way, or with `..` in it,
 * one file has one lock, beside the file SQLite really opens.
 */
import {
  closeSync,
  fstatSync,
  ftruncateSync,
  linkSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname as osHostname } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { randomUUID } from 'node:crypto';

export interface SyncLockHolder {
  pid: number;
  hostname: string;
  startedAt: string;
  heartbeatAt: string;
}

export interface SyncLock {
  readonly path: string;
  /** Aborts when another process took the lock over (this one looked dead to it). */
  readonly lost: AbortSignal;
  /** Removes the lock if it is still this holder's; safe to call more than once. */
  release(): void;
}

export type SyncLockResult = { ok: true; lock: SyncLock } | { ok: false; holder: SyncLockHolder | null };

export interface SyncLockOptions {
  now?: () => Date;
  heartbeatMs?: number;
  staleMs?: number;
  pid?: number;
  hostname?: string;
}

export const HEARTBEAT_MS = 10_000;
export const STALE_MS = 60_000;

/** Symlinks followed before a path counts as a loop (Linux's own limit). */
const MAX_LINKS = 40;

/**
 * The file a database path names, as SQLite opens it: symlinks and `..` resolved the way the
 * operating system resolves them (`..` after a symlinked folder leads out of its target), so
 * every path to one file gives one answer. A file not there yet is named by its real folder
 * and its name, or, reached through a symlink that leads nowhere yet, by where the link points
 * (SQLite creates the file there).
 */
export function realDatabasePath(dbPath: string): string {
  return realPath(dbPath, 0);
}

function realPath(path: string, links: number): string {
  try {
    return realpathSync.native(path);
  } catch {
    // Not there (yet), or not reachable: resolved as far as it goes below.
  }
  if (links < MAX_LINKS) {
    try {
      if (lstatSync(path).isSymbolicLink()) {
        // Read from the link's real folder, `..` in the target left for the system to resolve.
        const target = readlinkSync(path);
        const from = isAbsolute(target) ? target : `${realPath(dirname(path), links + 1)}${sep}${target}`;
        return realPath(from, links + 1);
      }
    } catch {
      // Nothing at this name: named by its folder.
    }
  }
  const folder = dirname(path);
  // The root, or a path that cannot be resolved at all: the path as given, made absolute.
  if (folder === path) return resolve(path);
  return join(realPath(folder, links), basename(path));
}

/** The lock file of a database: beside the file itself, whatever path reached it. */
export function syncLockPath(dbPath: string): string {
  return `${realDatabasePath(dbPath)}.sync-lock`;
}

/** Locks held by this process, removed on exit if a path skipped `release` (process.exit). */
const held = new Set<{ path: string; ino: number; fd: number }>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const entry of held) removeIfOurs(entry);
  });
}

function removeIfOurs(entry: { path: string; ino: number; fd: number }): void {
  held.delete(entry);
  try {
    if (statSync(entry.path).ino === entry.ino) unlinkSync(entry.path);
  } catch {
    // Already gone, or taken over: nothing of ours to remove.
  }
  try {
    closeSync(entry.fd);
  } catch {
    // Closed already.
  }
}

function parseHolder(text: string): SyncLockHolder | null {
  try {
    const value = JSON.parse(text) as Partial<SyncLockHolder>;
    if (
      typeof value.pid === 'number' &&
      typeof value.hostname === 'string' &&
      typeof value.startedAt === 'string' &&
      typeof value.heartbeatAt === 'string'
    ) {
      return { pid: value.pid, hostname: value.hostname, startedAt: value.startedAt, heartbeatAt: value.heartbeatAt };
    }
  } catch {
    // A lock being written right now, or damaged: judged by its file's age below.
  }
  return null;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface Seen {
  text: string;
  ino: number;
  mtimeMs: number;
  holder: SyncLockHolder | null;
}

/** The lock file as it is now, or null when there is none. An unreadable one counts by its age. */
function look(path: string): Seen | null {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return null;
  }
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    // Unreadable (permissions, removed this instant): judged by the file's age alone.
  }
  return { text, ino: stat.ino, mtimeMs: stat.mtimeMs, holder: parseHolder(text) };
}

function isStale(seen: Seen, now: number, staleMs: number, host: string): boolean {
  const { holder } = seen;
  if (holder && holder.hostname === host && !pidAlive(holder.pid)) return true;
  const heartbeat = Math.max(seen.mtimeMs, holder ? Date.parse(holder.heartbeatAt) || 0 : 0);
  return now - heartbeat > staleMs;
}

/** Moves a stale lock aside, if it is still the one judged stale; puts back anything else. */
function takeOver(path: string, seen: Seen): boolean {
  const aside = `${path}.stale-${randomUUID()}`;
  try {
    renameSync(path, aside);
  } catch {
    return false; // Gone already (another process took it over or its holder ended).
  }
  let same: boolean;
  try {
    same = statSync(aside).ino === seen.ino && readFileSync(aside, 'utf8') === seen.text;
  } catch {
    same = false;
  }
  if (!same) {
    try {
      linkSync(aside, path); // Fails if someone created a lock meanwhile; theirs stands.
    } catch {
      // Nothing to restore over.
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // Removed already.
  }
  return same;
}

/**
 * Takes the sync lock of a database, or says who holds it. A folder where no lock file can be
 * written (read-only, full) gives an unlocked run: the database there cannot be written either,
 * and the sync reports that in its own words.
 */
export function acquireSyncLock(dbPath: string, options: SyncLockOptions = {}): SyncLockResult {
  const path = syncLockPath(dbPath);
  const now = options.now ?? (() => new Date());
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const staleMs = options.staleMs ?? STALE_MS;
  const pid = options.pid ?? process.pid;
  const host = options.hostname ?? osHostname();

  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx');
    } catch (error) {
      // EEXIST, or on Windows EPERM for a lock file being deleted right now.
      const seen = look(path);
      if (!seen) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue; // Released meanwhile.
        return { ok: true, lock: unlocked(path) };
      }
      if (!isStale(seen, now().getTime(), staleMs, host)) return { ok: false, holder: seen.holder };
      if (!takeOver(path, seen)) return { ok: false, holder: look(path)?.holder ?? seen.holder };
      continue;
    }
    const startedAt = now().toISOString();
    const write = () => {
      const text = JSON.stringify({ pid, hostname: host, startedAt, heartbeatAt: now().toISOString() });
      ftruncateSync(fd, 0);
      writeSync(fd, text, 0);
    };
    try {
      write();
    } catch {
      closeSync(fd);
      try {
        unlinkSync(path);
      } catch {
        // Nothing left behind.
      }
      return { ok: true, lock: unlocked(path) };
    }
    const entry = { path, ino: fstatSync(fd).ino, fd };
    held.add(entry);
    installExitHook();
    const lost = new AbortController();
    const timer = setInterval(() => {
      let ours: boolean;
      try {
        ours = statSync(path).ino === entry.ino;
      } catch {
        ours = false;
      }
      if (!ours) {
        clearInterval(timer);
        lost.abort(new Error('Another process took over the sync lock of this database.'));
        return;
      }
      try {
        write();
      } catch {
        // A heartbeat missed (disk full for a moment); the next one tries again.
      }
    }, heartbeatMs);
    timer.unref();
    let released = false;
    return {
      ok: true,
      lock: {
        path,
        lost: lost.signal,
        release: () => {
          if (released) return;
          released = true;
          clearInterval(timer);
          removeIfOurs(entry);
        },
      },
    };
  }
  return { ok: false, holder: look(path)?.holder ?? null };
}

function unlocked(path: string): SyncLock {
  return { path, lost: new AbortController().signal, release: () => undefined };
}

function two(n: number): string {
  return String(n).padStart(2, '0');
}

/** "Another sync of this database is running (process 1234, started 10:02); try again when it ends." */
export function busyMessage(holder: SyncLockHolder | null, now: Date = new Date(), host = osHostname()): string {
  if (!holder) return 'Another sync of this database is running; try again when it ends.';
  const started = new Date(holder.startedAt);
  let when = '';
  if (!Number.isNaN(started.getTime())) {
    const time = `${two(started.getHours())}:${two(started.getMinutes())}`;
    const sameDay = started.toDateString() === now.toDateString();
    when = `, started ${sameDay ? '' : `${started.getFullYear()}-${two(started.getMonth() + 1)}-${two(started.getDate())} `}${time}`;
  }
  const where = holder.hostname === host ? '' : ` on ${holder.hostname}`;
  return `Another sync of this database is running (process ${holder.pid}${where}${when}); try again when it ends.`;
}
