/**
 * A throwaway PostgreSQL cluster for tests (vitest's through `postgres.ts`, Playwright's and the
 * bench's directly, as this file needs no test runner): initdb in a fresh temp folder, the
 * server listening on 127.0.0.1 only at a free port (its unix socket inside that folder), stopped
 * and removed by its `stop`. initdb refuses to run as root, so under root the cluster
 * is made and run as the `postgres` user (Debian's package creates it), in a folder that user owns.
 *
 * The binaries are looked for in QUAYSIDE_PG_BIN, PGBIN, Debian's /usr/lib/postgresql/<version>/bin
 * (newest first), then PATH. Without them the tests that need a cluster skip with the reason
 * printed; where QUAYSIDE_REQUIRE_POSTGRES=1 (`.ci/run`, which installs Debian's `postgresql`
 * package, and the Linux job of the GitHub workflow) they fail instead: a skip there would hide
 * that the hub was never tested against a real engine. The macOS and Windows jobs run them where
 * their images ship PostgreSQL, and say why not where they don't.
 */
import { execFile, execFileSync } from 'node:child_process';
import { accessSync, chownSync, constants, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const exe = process.platform === 'win32' ? '.exe' : '';

export interface TestPostgres {
  port: number;
  /** A URL to `database` (default `postgres`) as `user` (default the superuser `postgres`), on 127.0.0.1. */
  url(database?: string, user?: string): string;
  /** A new, empty database; returns its URL as the superuser. */
  createDatabase(name: string): Promise<string>;
  /** One statement as the superuser on `database` (default `postgres`). */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    sql: string,
    params?: unknown[],
    database?: string,
  ): Promise<R[]>;
}

/** The folder holding initdb, pg_ctl and postgres, or null. */
export function findPostgresBin(env: NodeJS.ProcessEnv = process.env, debian = '/usr/lib/postgresql'): string | null {
  const candidates: string[] = [];
  if (env.QUAYSIDE_PG_BIN) candidates.push(env.QUAYSIDE_PG_BIN);
  // Where GitHub's Windows images say their PostgreSQL is.
  if (env.PGBIN) candidates.push(env.PGBIN);
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(debian, v, 'bin')));
  }
  candidates.push(...(env.PATH ?? '').split(delimiter).filter(Boolean));
  for (const dir of candidates) {
    try {
      accessSync(join(dir, `initdb${exe}`), constants.X_OK);
      accessSync(join(dir, `pg_ctl${exe}`), constants.X_OK);
      return dir;
    } catch {
      // not here
    }
  }
  return null;
}

export const missingReason =
  'the PostgreSQL server binaries (initdb, pg_ctl) are not installed; install Debian\'s "postgresql" package (or set QUAYSIDE_PG_BIN to their folder) to run the team hub tests';

/** Whether the suite can run here, and the reason printed when it skips. */
export function postgresSuite(
  env: NodeJS.ProcessEnv = process.env,
  debian?: string,
): { run: true } | { run: false; skip: string } | { run: false; fail: string } {
  if (findPostgresBin(env, debian)) return { run: true };
  if (env.QUAYSIDE_REQUIRE_POSTGRES === '1') {
    return {
      run: false,
      fail: `The team hub tests need PostgreSQL here (QUAYSIDE_REQUIRE_POSTGRES=1): ${missingReason}.`,
    };
  }
  return { run: false, skip: missingReason };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Runs a server binary as the cluster's owner: `postgres` under root, else this user. */
function asOwner(bin: string, tool: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const path = join(bin, tool);
  const root = process.getuid?.() === 0;
  return root ? run('runuser', ['-u', 'postgres', '--', path, ...args]) : run(path, args);
}

function postgresIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** Starts a cluster; `stop` stops it and removes its folder. */
export async function startPostgres(): Promise<TestPostgres & { stop(): Promise<void> }> {
  const bin = findPostgresBin();
  if (!bin) throw new Error(missingReason);
  const dir = mkdtempSync(join(tmpdir(), 'quayside-pg-'));
  if (process.getuid?.() === 0) {
    const { uid, gid } = postgresIds();
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  await asOwner(bin, 'initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '-N']);
  let port = 0;
  let lastError: unknown;
  // A port found free may be taken by the time the server binds it: another is tried.
  for (let attempt = 0; attempt < 3 && port === 0; attempt++) {
    const candidate = await freePort();
    const options = [
      `-c listen_addresses=127.0.0.1`,
      `-c port=${candidate}`,
      // The socket in the cluster's own folder (Windows has none to place).
      ...(process.platform === 'win32' ? [] : [`-c unix_socket_directories=${dir}`]),
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c shared_buffers=16MB',
      '-c max_connections=40',
    ].join(' ');
    try {
      await asOwner(bin, 'pg_ctl', [
        '-D',
        data,
        '-l',
        join(dir, 'server.log'),
        '-o',
        options,
        '-w',
        '-t',
        '60',
        'start',
      ]);
      port = candidate;
    } catch (error) {
      lastError = error;
    }
  }
  if (port === 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start: ${(lastError as Error).message}`);
  }
  const url = (database = 'postgres', user = 'postgres') =>
    `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  const query = async <R extends pg.QueryResultRow>(sql: string, params: unknown[] = [], database?: string) => {
    const client = new pg.Client({ connectionString: url(database) });
    await client.connect();
    try {
      return (await client.query<R>(sql, params)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    port,
    url,
    query,
    async createDatabase(name) {
      await query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
      return url(name);
    },
    async stop() {
      try {
        await asOwner(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * A cluster for a Playwright spec or a bench: started when the binaries are here; else null with
 * the reason printed (`what` names who skips), or an error where QUAYSIDE_REQUIRE_POSTGRES=1.
 */
export async function startPostgresOrSkip(what: string): Promise<(TestPostgres & { stop(): Promise<void> }) | null> {
  const suite = postgresSuite();
  if (!suite.run && 'fail' in suite) throw new Error(suite.fail);
  if (!suite.run) {
    console.warn(`Skipping ${what}: ${suite.skip}.`);
    return null;
  }
  return startPostgres();
}

/**
 * A streaming replica of the cluster on `primaryPort` (pg_basebackup over 127.0.0.1, its own
 * free port and folder), as a team points laptops at one; `stop` stops it and removes its folder.
 */
export async function startReplica(
  primaryPort: number,
): Promise<{ port: number; url(db: string): string; stop(): Promise<void> }> {
  const bin = findPostgresBin();
  if (!bin) throw new Error(missingReason);
  const dir = mkdtempSync(join(tmpdir(), 'quayside-replica-'));
  if (process.getuid?.() === 0) {
    const { uid, gid } = postgresIds();
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  try {
    // -R writes the standby's settings; a fast checkpoint, not the primary's next spread one.
    await asOwner(bin, 'pg_basebackup', [
      ...['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', data],
      ...['-R', '-X', 'stream', '-c', 'fast'],
    ]);
    const port = await freePort();
    const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c hot_standby=on`;
    await asOwner(bin, 'pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);
    return {
      port,
      url: (db) => `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(db)}`,
      async stop() {
        try {
          await asOwner(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
