import type { SecretStore } from '../../core/secrets/index';
import { SettingsStore } from '../../core/settings-store';
import { openSync } from '../../core/sync/open-sync';
import { DEFAULT_BASE_URL } from '../../shared/base-url';
import { profileDataDir, resolveAccount } from '../account';
import type { SyncSummary } from '../../core/sync/types';
import { parseRateLimit } from '../../sandbox/rate-limit';
import { exitCodeFor, exitCodes } from '../exit-codes';
import { progressLine, UsageError, type CommandIo, parseCommandLine } from '../io';

/**
 * SQLite's page cache of a CLI sync, in MB (the app keeps 32 for its lists): a sync writes each
 * page once, and the OS file cache serves what it reads again.
 */
const CLI_SYNC_CACHE_MB = 8;

export const syncUsage = `sync (--db PATH | --profile NAME) [--base-url URL] [--rate-limit N/SECONDS] [--full] [--json]
                      Sync an account into a database (created if missing). With --profile, the app's
                      profile: its database, base URL and the key from the keychain; otherwise the key
                      comes from T49_API_TOKEN (which, when set, also stands in for the keychain).
                      Base URL: --base-url, else the profile's, else T49_API_BASE_URL, else
                      ${DEFAULT_BASE_URL}. It must use https (http only to this computer).
  sync --hub URL --db PATH [--json]
                      Pull a team hub's copy of the account from PostgreSQL into PATH: no API key,
                      no request to the service. The password from the URL or QUAYSIDE_HUB_PASSWORD;
                      any host but this computer over TLS only, its certificate verified.`;

/** What tests stand in for: the keychain a profile's key is read from, and the network. */
export interface SyncDeps {
  keychain?: SecretStore;
  fetch?: typeof fetch;
}

/** The one-line JSON summary scripts read. */
export function summaryJson(summary: SyncSummary): string {
  return JSON.stringify({
    status: summary.status,
    mode: summary.mode,
    requests: summary.requests,
    rate_limited: summary.rateLimited,
    duration_ms: summary.durationMs,
    counts: summary.counts,
    // Past a Retry-After too long to wait out: the instant before which a sync would be refused.
    error: summary.error && {
      code: summary.error.code,
      message: summary.error.message,
      ...(summary.error.retryAt ? { retry_at: summary.error.retryAt } : {}),
    },
    ...(summary.notices ? { notices: summary.notices } : {}),
  });
}

export function summaryText(summary: SyncSummary): string {
  const counts = Object.entries(summary.counts)
    .map(([type, n]) => `${n} ${type.replaceAll('_', ' ')}`)
    .join(', ');
  const head =
    summary.status === 'ok'
      ? `${summary.mode === 'full' ? 'Full' : 'Incremental'} sync done in ${(summary.durationMs / 1000).toFixed(1)} s`
      : `Sync ${summary.status}: ${summary.error?.message ?? ''}`;
  const notices = (summary.notices ?? []).map((n) => `${n}\n`).join('');
  return `${head}\n${summary.requests} requests (${summary.rateLimited} rate-limited). Written: ${counts || 'nothing'}.\n${notices}`;
}

export async function runSync(args: string[], io: CommandIo, deps: SyncDeps = {}): Promise<number> {
  const values = parseCommandLine({
    args,
    strict: true,
    options: {
      db: { type: 'string' },
      profile: { type: 'string' },
      'base-url': { type: 'string' },
      'rate-limit': { type: 'string' },
      full: { type: 'boolean' },
      json: { type: 'boolean' },
      hub: { type: 'string' },
    },
  }).values;
  if (values.hub !== undefined) {
    const others = (['profile', 'base-url', 'rate-limit', 'full'] as const).filter((k) => values[k] !== undefined);
    // The hub's client (PostgreSQL's) loads only for a pull from a hub.
    const { runHubPull } = await import('./sync-hub');
    return runHubPull({ hub: values.hub, db: values.db, json: values.json, others: others.map((k) => `--${k}`) }, io);
  }
  if (!values.db && !values.profile) throw new UsageError('sync needs --db PATH or --profile NAME');
  let rateLimit;
  try {
    rateLimit = values['rate-limit'] ? parseRateLimit(values['rate-limit']) : undefined;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const account = await resolveAccount(values, io, deps.keychain);
  if ('code' in account) return account.code;
  const { dbPath, baseUrl, apiKey } = account;
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  io.signal?.addEventListener('abort', stop);
  const progress = progressLine(io.err);
  const sync = openSync({
    dbPath,
    baseUrl,
    apiKey,
    rateLimit,
    fetch: deps.fetch,
    // A cron job's sync writes each page once: a small page cache keeps its footprint low.
    cacheMb: CLI_SYNC_CACHE_MB,
    // No window to keep answering: checkpoints here, without a thread (and a V8 heap) of their own.
    checkpointHere: true,
    // A profile's change history is kept as the app's Settings say; a --db file's, the default 180 days.
    changeRetentionDays: values.profile
      ? () => new SettingsStore(profileDataDir()).get().changeRetentionDays
      : undefined,
    // The alerts it raises: under a profile's rules in Settings; a --db file's, every rule at its default.
    alertRules: values.profile ? () => new SettingsStore(profileDataDir()).get().notifications : undefined,
    onProgress: values.json
      ? undefined
      : (p) =>
          progress.show(
            `${p.step}: page ${p.pagesDone} of ~${p.pagesTotal}, ${p.requests} requests, ETA ${p.etaSeconds ?? '?'} s`,
          ),
  });
  try {
    const summary = await sync.engine.run({ mode: values.full ? 'full' : 'auto', signal: controller.signal });
    progress.clear();
    io.out.write(values.json ? `${summaryJson(summary)}\n` : summaryText(summary));
    return summary.status === 'ok' ? exitCodes.ok : exitCodeFor(summary.error?.code ?? 'failure');
  } finally {
    // A failure's sentence (printed by the caller) starts on a clean line.
    progress.clear();
    process.off('SIGINT', stop);
    sync.close();
  }
}
