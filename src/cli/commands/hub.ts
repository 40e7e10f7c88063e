/**
 * `hub`: the team hub. Syncs an account as `sync` does (its own SQLite database, limiter and
 * checkpoints), then publishes what the store holds into PostgreSQL for the team's laptops to
 * pull (`core/team`); once, or every N minutes until stopped. Publishing reads the SQLite file
 * only (no API request) and holds the database's sync lock, so no sync writes under it. The
 * PostgreSQL address is checked (TLS rule included, `core/team/address.ts`) before the key is
 * read and before any request. `hub --print-setup` prints the SQL that creates the hub's and the
 * laptops' roles.
 */
import pg from 'pg';
import type { SecretStore } from '../../core/secrets/index';
import { SettingsStore } from '../../core/settings-store';
import { acquireSyncLock, busyMessage } from '../../core/sync/lock';
import { openSync, type OpenSync } from '../../core/sync/open-sync';
import type { SyncSummary } from '../../core/sync/types';
import { hubAddress, type HubAddress } from '../../core/team/address';
import { HubError, hubErrorOf } from '../../core/team/errors';
import { Publisher, type PublishSummary } from '../../core/team/publisher';
import { setupSql } from '../../core/team/setup-sql';
import { parseRateLimit } from '../../sandbox/rate-limit';
import { profileDataDir, resolveAccount } from '../account';
import { exitCodeFor, exitCodes } from '../exit-codes';
import { parseCommandLine, UsageError, type CommandIo } from '../io';
import { summaryJson, summaryText } from './sync';

export const hubUsage = `hub --postgres URL (--profile NAME | --db PATH) [--every MINUTES] [--base-url URL]
    [--rate-limit N/SECONDS] [--json]
                      The team hub: sync the account as \`sync\` does, then publish every record (as
                      \`raw\` prints it), deletion, change and sync run into PostgreSQL for the team's
                      laptops; once, or every MINUTES until stopped. URL: postgres://USER:PASSWORD@
                      HOST:PORT/DATABASE (or the password in PGPASSWORD). Any host but this computer
                      is reached over TLS only, its certificate verified (sslrootcert=PATH for a
                      private CA; sslmode=disable is refused).
  hub --print-setup   Print the SQL that creates the hub's role (it writes) and the laptops' (read only).`;

/** SQLite's page cache of the hub's syncs, in MB, as the CLI's `sync`. */
const HUB_SYNC_CACHE_MB = 8;
/** The longest wait --every takes: a day. */
const MAX_EVERY_MINUTES = 24 * 60;

export interface HubDeps {
  keychain?: SecretStore;
  fetch?: typeof fetch;
  /** Stands in for waiting between rounds of --every (tests). */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export async function runHub(args: string[], io: CommandIo, deps: HubDeps = {}): Promise<number> {
  const values = parseCommandLine({
    args,
    strict: true,
    options: {
      postgres: { type: 'string' },
      db: { type: 'string' },
      profile: { type: 'string' },
      every: { type: 'string' },
      'base-url': { type: 'string' },
      'rate-limit': { type: 'string' },
      json: { type: 'boolean' },
      'print-setup': { type: 'boolean' },
    },
  }).values;
  if (values['print-setup']) {
    const others = Object.keys(values).filter((k) => k !== 'print-setup');
    if (others.length > 0) throw new UsageError('hub --print-setup takes no other option');
    io.out.write(setupSql());
    return exitCodes.ok;
  }
  if (!values.postgres) throw new UsageError('hub needs --postgres URL (or --print-setup)');
  if (!values.db && !values.profile) throw new UsageError('hub needs --db PATH or --profile NAME');
  const everyMs = values.every === undefined ? null : minutes(values.every);
  let rateLimit;
  try {
    rateLimit = values['rate-limit'] ? parseRateLimit(values['rate-limit']) : undefined;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  let address: HubAddress;
  try {
    address = hubAddress(values.postgres);
  } catch (error) {
    if (!(error instanceof HubError)) throw error;
    io.err.write(`${error.message}\n`);
    return exitCodes.usage;
  }
  const account = await resolveAccount(values, io, deps.keychain);
  if ('code' in account) return account.code;

  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  io.signal?.addEventListener('abort', stop);
  const sync = openSync({
    dbPath: account.dbPath,
    baseUrl: account.baseUrl,
    apiKey: account.apiKey,
    rateLimit,
    fetch: deps.fetch,
    cacheMb: HUB_SYNC_CACHE_MB,
    // No window to keep answering: checkpoints here, without a thread (and a V8 heap) of their own.
    checkpointHere: true,
    changeRetentionDays: values.profile
      ? () => new SettingsStore(profileDataDir()).get().changeRetentionDays
      : undefined,
    alertRules: values.profile ? () => new SettingsStore(profileDataDir()).get().notifications : undefined,
  });
  const wait = deps.wait ?? sleep;
  try {
    for (;;) {
      const code = await round(sync, account.dbPath, address, values.json === true, io, controller.signal);
      if (everyMs === null) return code;
      if (controller.signal.aborted) return exitCodes.cancelled;
      try {
        await wait(everyMs, controller.signal);
      } catch {
        return exitCodes.cancelled;
      }
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    sync.close();
  }
}

function minutes(text: string): number {
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !(n >= 1) || n > MAX_EVERY_MINUTES) {
    throw new UsageError(`--every takes a number of minutes from 1 to ${MAX_EVERY_MINUTES} (got "${text}")`);
  }
  return n * 60_000;
}

/** One sync and one publish; the exit code of the first that failed. */
async function round(
  sync: OpenSync,
  dbPath: string,
  address: HubAddress,
  json: boolean,
  io: CommandIo,
  signal: AbortSignal,
): Promise<number> {
  const summary = await sync.engine.run({ mode: 'auto', signal });
  const syncCode = summary.status === 'ok' ? exitCodes.ok : exitCodeFor(summary.error?.code ?? 'failure');
  if (!json) io.out.write(summaryText(summary));
  if (signal.aborted) {
    if (json) io.out.write(`${roundJson(summary, null, null)}\n`);
    return exitCodes.cancelled;
  }
  // What the run wrote is published whatever its end: the pages it wrote are in the store.
  const published = await publishOnce(sync, dbPath, address, signal);
  if (json) {
    io.out.write(`${roundJson(summary, 'summary' in published ? published.summary : null, published)}\n`);
  } else if ('summary' in published) {
    io.out.write(publishText(address.display, published.summary));
  } else {
    io.err.write(`${published.message}\n`);
  }
  if (syncCode !== exitCodes.ok) return syncCode;
  return 'summary' in published ? exitCodes.ok : published.code;
}

type Published = { summary: PublishSummary } | { code: number; message: string };

async function publishOnce(
  sync: OpenSync,
  dbPath: string,
  address: HubAddress,
  signal: AbortSignal,
): Promise<Published> {
  const taken = acquireSyncLock(dbPath);
  if (!taken.ok) return { code: exitCodes.busy, message: `Not published: ${busyMessage(taken.holder)}` };
  const client = new pg.Client(address.config);
  // An error after connecting (the server restarted) is thrown by the query that meets it.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const lostOrStopped = AbortSignal.any([signal, taken.lock.lost]);
    const publisher = new Publisher(sync.db, client, address.display, { signal: lostOrStopped });
    return { summary: await publisher.publish() };
  } catch (error) {
    const failure = hubErrorOf(error, address.display);
    return { code: exitCodeOfHub(failure), message: failure.message };
  } finally {
    await client.end().catch(() => undefined);
    taken.lock.release();
  }
}

function exitCodeOfHub(error: HubError): number {
  switch (error.kind) {
    case 'usage':
      return exitCodes.usage;
    case 'auth':
      return exitCodes.auth;
    case 'network':
      return exitCodes.network;
    default:
      return exitCodes.failure;
  }
}

function publishText(where: string, s: PublishSummary): string {
  return `Published to ${where} in ${(s.durationMs / 1000).toFixed(1)} s: ${s.records} records, ${s.deletions} deletions, ${s.changes} changes, ${s.syncRuns} sync runs (${s.pages} pages; last sequence ${s.lastSeq ?? 'none'}).\n`;
}

function roundJson(summary: SyncSummary, publish: PublishSummary | null, failure: Published | null): string {
  return JSON.stringify({
    sync: JSON.parse(summaryJson(summary)) as unknown,
    publish: publish && {
      records: publish.records,
      deletions: publish.deletions,
      changes: publish.changes,
      sync_runs: publish.syncRuns,
      pages: publish.pages,
      last_seq: publish.lastSeq,
      duration_ms: publish.durationMs,
    },
    ...(failure && 'message' in failure ? { publish_error: failure.message } : {}),
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('stopped'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('stopped'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
