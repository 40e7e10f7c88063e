/**
 * A laptop's sync from a team hub: the rows the hub published into PostgreSQL (`schema.ts` for
 * the tables and how a reader pulls), read after the last seq this copy applied, page by page,
 * each page applied in one SQLite transaction through the writer the API sync uses
 * (`store/writer.ts`), so every view, search, alert and export reads the copy as it reads a
 * direct account's, offline included. It sends no API request and needs no API key.
 *
 * - Records go through the writer as the service's JSON (their stubs, derived columns, search
 *   and list rows as a direct sync writes them); a page's shipments bring their stored
 *   containers along, whose derived columns read the shipment, as the service's walk does.
 *   Tombstones delete. The last applied seq and where the copy comes from (`HubSource`) are
 *   kept in the sync state in the same transaction as the page: a pull killed at any point
 *   resumes after the last whole page and applies nothing twice.
 * - The change history is the laptop's own, recorded by the writer as it applies records, as a
 *   direct sync records it; the hub's change rows are not applied. Taking both would record each
 *   change twice; taking only the hub's would need a second writer, and its changes' times (the
 *   hub's) would not be this pull's, which the alert rules compare with. So a copy's history
 *   starts with its first pull (a first sync records nothing, as a direct one) and holds what
 *   changed between two pulls.
 * - The sync log is the laptop's own too: each pull is a run (kind `hub`) that its alerts name,
 *   as a direct sync's run does. The hub's latest sync run is kept in `HubSource` (when the hub
 *   last reached the service), not in the log, whose ids would collide with the pulls'.
 * - A hub whose seqs end before this copy's (a streaming replica that is behind) gives nothing
 *   new: the copy keeps its seq and waits for the replica to catch up, losing and duplicating
 *   nothing. A primary whose seqs end before the copy's was restored from a backup, so its new
 *   seqs may fall under the copy's: the copy then pulls everything again (upserts by id change
 *   nothing twice). Another hub's database is refused.
 *
 * The database's sync lock is held for the whole pull, so a pull and an API sync (the app, a
 * cron job) never write one file at once.
 */
import type pg from 'pg';
import type { NotificationSettings } from '../../shared/alerts';
import { alertBaseline, raiseAlerts } from '../alerts/raise-alerts';
import { pruneChangeHistory } from '../history/change-history';
import { descriptorOfType, resources } from '../resources';
import type { Db } from '../store/database';
import { containersOfShipments, deletePulledRecord } from '../store/queries/hub-pull';
import type { StoredResource } from '../store/resource';
import { describeStoreError } from '../store/store-errors';
import { finishLogEntry, startLogEntry } from '../store/sync-log';
import { readState, writeState } from '../store/sync-state';
import { countOncePerRun, writeResources, type WriteCounts } from '../store/writer';
import { acquireSyncLock, busyMessage, type SyncLockOptions } from '../sync/lock';
import { hubAddress, type HubAddress } from './address';
import { HubError, hubErrorOf, quoted, type HubErrorKind } from './errors';
import { hubSchemaVersion, newerSchemaMessage, readSchemaVersion } from './schema';
import { readPage, seqOf, type HubRun, type PublishedRow } from './pulled-page';
import { budgetedClient, MAX_PAGE_BYTES, mb, WireBudget } from './wire-budget';

/** The sync state key of where this copy comes from. */
export const HUB_SOURCE_KEY = 'hub:source';
/** The sync log's kind of a pull. */
export const PULL_RUN_KIND = 'hub';

const DEFAULT_PAGE_ROWS = 500;
/** How long one query may take before the hub counts as unreachable (a network that went silent). */
const QUERY_TIMEOUT_MS = 5 * 60_000;

/** Where a copy comes from, kept in its sync state (`status`, Settings). */
export interface HubSource {
  /** The hub's address without its password. */
  hub: string;
  /** The id of the hub database publishing there (`quayside.meta.hub`); null before its first publish. */
  hubId: string | null;
  /** The last seq applied (a bigint, as text); "0" before the first page. */
  lastSeq: string;
  /** When a pull last read everything the hub held. */
  pulledAt: string | null;
  /** The hub's latest sync run with the service, as it published it. */
  hubRun: HubRun | null;
}

export interface PullProgress {
  pages: number;
  lastSeq: string;
  /** The hub's highest seq when the pull started (seqs are not dense: an estimate of the end). */
  targetSeq: string;
}

export interface PullOptions {
  db: Db;
  /** The database's file, for its sync lock. */
  dbPath: string;
  address: HubAddress;
  /** Rows per page and SQLite transaction (default 500). */
  pageRows?: number;
  signal?: AbortSignal;
  onProgress?: (progress: PullProgress) => void;
  /** Called after each page has committed (tests stop a pull there). */
  afterPage?: (page: { rows: number; lastSeq: string }) => void | Promise<void>;
  /** The alert rules (Settings; default: every rule on), read after the pull. */
  alertRules?: () => NotificationSettings | undefined;
  /** Days the change history keeps (Settings; default 180), read after the pull. */
  changeRetentionDays?: () => number | undefined;
  now?: () => number;
  lock?: SyncLockOptions;
}

export interface PullSummary {
  status: 'ok' | 'failed' | 'cancelled';
  /** The hub's address without its password. */
  hub: string;
  /** The sync log's row of this pull; 0 when it ended before one was written. */
  runId: number;
  /** Records written, by JSON:API type, each once. */
  counts: WriteCounts;
  deletions: number;
  pages: number;
  /** The seq this pull started after, and the last one applied. */
  fromSeq: string;
  lastSeq: string;
  /** The hub's seqs end before this copy's: a replica that is behind (nothing pulled), or a restored primary (pulled again from the start). */
  hubBehind: 'replica' | 'restored' | null;
  alerts: number;
  durationMs: number;
  error: { kind: HubErrorKind | 'busy' | 'store' | 'cancelled'; message: string } | null;
}

/**
 * A laptop's hub address: the URL's password, else `password` (the keychain's, or
 * QUAYSIDE_HUB_PASSWORD); TLS required for any host but this computer (`address.ts`). A bad
 * address throws a HubError of kind 'usage' naming `flag`.
 */
export function laptopHubAddress(url: string, password: string | undefined, flag = '--hub'): HubAddress {
  const address = hubAddress(url, password ? { PGPASSWORD: password } : {}, flag);
  address.config.application_name ??= 'quayside-laptop';
  if (address.config.application_name === 'quayside-hub') address.config.application_name = 'quayside-laptop';
  return address;
}

/** Where the copy in `db` comes from, or null for a direct account's (or a new) database. */
export function hubSourceOf(db: Db): HubSource | null {
  return readState<HubSource>(db, HUB_SOURCE_KEY);
}

/** Pulls what the hub published since this copy's last seq. Never throws for the hub's or the store's failures: they end the summary. */
export async function pullFromHub(options: PullOptions): Promise<PullSummary> {
  const started = Date.now();
  const now = options.now ?? Date.now;
  const { db, address } = options;
  const source = hubSourceOf(db);
  const summary: PullSummary = {
    status: 'failed',
    hub: address.display,
    runId: 0,
    counts: {},
    deletions: 0,
    pages: 0,
    fromSeq: source?.lastSeq ?? '0',
    lastSeq: source?.lastSeq ?? '0',
    hubBehind: null,
    alerts: 0,
    durationMs: 0,
    error: null,
  };
  const end = () => ({ ...summary, durationMs: Date.now() - started });
  const taken = acquireSyncLock(options.dbPath, options.lock);
  if (!taken.ok) return { ...end(), error: { kind: 'busy', message: busyMessage(taken.holder) } };
  const signal = options.signal ? AbortSignal.any([options.signal, taken.lock.lost]) : taken.lock.lost;
  const budget = new WireBudget(address.display);
  const client = budgetedClient({ keepAlive: true, query_timeout: QUERY_TIMEOUT_MS, ...address.config }, budget);
  // An error after connecting (the server stopped) is thrown by the query that meets it.
  client.on('error', () => undefined);
  let endCounting: (() => void) | null = null;
  try {
    const hub = await openHub(client, address.display);
    // Nothing is written to the copy before the hub has answered: an unreachable hub leaves it as it was.
    const startedAt = new Date(now()).toISOString();
    const baseline = alertBaseline(db, new Date(now()));
    summary.runId = startLogEntry(db, PULL_RUN_KIND, startedAt);
    endCounting = countOncePerRun(db, startedAt);
    try {
      await pullPages(client, budget, options, hub, source, summary, signal);
      if (summary.status === 'ok') writeState(db, 'sync:completed_at', new Date(now()).toISOString());
    } catch (error) {
      const cancelled = signal.aborted && !taken.lock.lost.aborted;
      summary.status = cancelled ? 'cancelled' : 'failed';
      summary.error = cancelled
        ? { kind: 'cancelled', message: 'The pull was stopped; the next one resumes where it stopped.' }
        : failureOf(budget.refused ?? error, address, taken.lock.lost.aborted);
    }
    endCounting();
    endCounting = null;
    const error = summary.error && { code: summary.error.kind, message: summary.error.message };
    finishLogEntry(db, { ...summary, requests: 0, rateLimited: 0, error }, new Date(now()).toISOString());
    if (!taken.lock.lost.aborted) {
      pruneChangeHistory(db, options.changeRetentionDays?.(), new Date(now()));
      summary.alerts = raiseAlerts(db, baseline, {
        runId: summary.runId,
        rules: options.alertRules?.(),
        now: new Date(now()),
      });
    }
    return end();
  } catch (error) {
    summary.error = failureOf(budget.refused ?? error, address, false);
    return end();
  } finally {
    endCounting?.();
    await client.end().catch(() => undefined);
    taken.lock.release();
  }
}

interface HubMeta {
  hubId: string | null;
  maxSeq: string;
  replica: boolean;
}

/** Connects and checks that the database is a hub this build reads. */
async function openHub(client: pg.Client, where: string): Promise<HubMeta> {
  await client.connect();
  const version = await readSchemaVersion(client, where);
  if (version > hubSchemaVersion) throw new HubError('failure', newerSchemaMessage(where, version));
  if (version < 1) {
    throw new HubError(
      'failure',
      `PostgreSQL at ${where} holds no team hub (no quayside.meta): point Quayside at the database a hub publishes into.`,
    );
  }
  const meta = await client.query<{ hub: string | null; max: string | null; replica: boolean }>(
    `SELECT hub, (SELECT max(seq)::text FROM quayside.published) AS max, pg_is_in_recovery() AS replica
       FROM quayside.meta`,
  );
  const row = meta.rows[0];
  const hubId = row?.hub ?? null;
  // The hub writes a UUID; the copy keeps it in its sync state and compares it at each pull.
  if (hubId !== null && (typeof hubId !== 'string' || !/^[\x21-\x7e]{1,100}$/.test(hubId))) {
    throw new HubError(
      'failure',
      `PostgreSQL at ${where} holds a hub id that no team hub writes (${quoted(hubId)}); point Quayside at the database a hub publishes into.`,
    );
  }
  const maxSeq = row?.max ?? '0';
  if (seqOf(maxSeq) === null) {
    throw new HubError(
      'failure',
      `PostgreSQL at ${where} sent a highest seq that is no whole number (${quoted(maxSeq)}); nothing was applied.`,
    );
  }
  return { hubId, maxSeq, replica: row?.replica === true };
}

async function pullPages(
  client: pg.Client,
  budget: WireBudget,
  options: PullOptions,
  hub: HubMeta,
  source: HubSource | null,
  summary: PullSummary,
  signal: AbortSignal,
): Promise<void> {
  const { db, address } = options;
  const now = options.now ?? Date.now;
  if (source?.hubId && hub.hubId && source.hubId !== hub.hubId) {
    throw new HubError(
      'failure',
      `PostgreSQL at ${address.display} holds another hub's account than the one this copy comes from; pull it into a database of its own.`,
    );
  }
  let state: HubSource = {
    hub: address.display,
    hubId: hub.hubId ?? source?.hubId ?? null,
    lastSeq: source?.lastSeq ?? '0',
    pulledAt: source?.pulledAt ?? null,
    hubRun: source?.hubRun ?? null,
  };
  let after = BigInt(state.lastSeq);
  const highest = BigInt(hub.maxSeq);
  if (highest < after) {
    summary.hubBehind = hub.replica ? 'replica' : 'restored';
    // A replica catches up: nothing is pulled until its seqs pass the copy's.
    if (!hub.replica) after = 0n;
  }
  summary.fromSeq = after.toString();
  const pageRows = Math.max(1, options.pageRows ?? DEFAULT_PAGE_ROWS);
  for (;;) {
    if (signal.aborted) throw new HubError('failure', 'The pull was stopped.');
    options.onProgress?.({ pages: summary.pages, lastSeq: after.toString(), targetSeq: hub.maxSeq });
    budget.window(MAX_PAGE_BYTES, (limit) => `sent more than ${mb(limit)} for one page of at most ${pageRows} rows`);
    const page = await client.query<PublishedRow>(
      // The seq as text (a bigint), ordered as the number: ORDER BY names the table's column.
      `SELECT p.seq::text AS seq, p.kind, p.type, p.id, p.body::text AS body FROM quayside.published p
        WHERE p.seq > $1 ORDER BY p.seq LIMIT $2`,
      [after.toString(), pageRows],
    );
    if (signal.aborted) throw new HubError('failure', 'The pull was stopped.');
    const rows = page.rows;
    if (rows.length === 0) break;
    const applied = readPage(rows, address.display, after, pageRows);
    const last = applied.last.toString();
    const syncedAt = new Date(now()).toISOString();
    state = {
      ...state,
      hub: address.display,
      lastSeq: last,
      hubRun: applied.hubRun && (!state.hubRun || applied.hubRun.id >= state.hubRun.id) ? applied.hubRun : state.hubRun,
    };
    const pageState = state;
    let deletions = 0;
    const counts = writeResources(db, [...applied.records, ...alongside(db, applied.records)], {
      syncedAt,
      alsoInTransaction: () => {
        for (const t of applied.tombstones) {
          const d = descriptorOfType(t.type);
          if (d && deletePulledRecord(db, d, t.type, t.id)) deletions++;
        }
        writeState(db, HUB_SOURCE_KEY, pageState);
      },
    });
    for (const [type, n] of Object.entries(counts)) summary.counts[type] = (summary.counts[type] ?? 0) + n;
    summary.deletions += deletions;
    summary.pages++;
    summary.lastSeq = last;
    after = applied.last;
    await options.afterPage?.({ rows: rows.length, lastSeq: last });
    // What the hub published after this pull began is the next pull's: a hub whose pages never end stops here.
    if (rows.length < pageRows || after >= highest) break;
  }
  // Everything the hub held when the last page was read is applied.
  writeState(db, HUB_SOURCE_KEY, { ...state, hub: address.display, pulledAt: new Date(now()).toISOString() });
  summary.status = 'ok';
}

/** The stored containers of the page's shipments not in the page: written again with their shipment. */
function alongside(db: Db, records: readonly StoredResource[]): StoredResource[] {
  const inPage = new Set(records.filter((r) => r.type === 'container').map((r) => r.id));
  const shipments = records.filter((r) => r.type === 'shipment').map((r) => r.id);
  return (containersOfShipments(db, resources.containers, shipments) as StoredResource[]).filter(
    (c) => !inPage.has(c.id),
  );
}

function failureOf(error: unknown, address: HubAddress, lost: boolean): NonNullable<PullSummary['error']> {
  if (lost) {
    return {
      kind: 'busy',
      message:
        'This pull stopped because another Quayside took over the database after this one stopped answering; its progress is kept.',
    };
  }
  const store = error instanceof HubError ? null : describeStoreError(error);
  if (store) return { kind: 'store', message: store.message };
  const failure = hubErrorOf(error, address.display);
  // A server may say back what it was sent: the password never reaches a message or a log.
  const password = address.config.password;
  const secret = typeof password === 'string' && password.length >= 3 ? password : null;
  return { kind: failure.kind, message: secret ? failure.message.replaceAll(secret, '…') : failure.message };
}
