import { parseArgs } from 'node:util';
import { resolveDataDir } from '../../core/paths';
import { KeyVault } from '../../core/profiles/key-vault';
import { ProfileStore } from '../../core/profiles/profile-store';
import { createKeychainStore } from '../../core/secrets/index';
import { openSync } from '../../core/sync/open-sync';
import { APP_ID } from '../../shared/app-id';
import { defaultDataDir } from '../data-dir';
import type { SyncSummary } from '../../core/sync/types';
import { parseRateLimit } from '../../sandbox/rate-limit';
import { exitCodeFor, exitCodes } from '../exit-codes';
import { UsageError, type CommandIo } from '../io';

export const syncUsage = `sync (--db PATH | --profile NAME) [--base-url URL] [--rate-limit N/SECONDS] [--full] [--json]
                      Sync an account into a database (created if missing). With --profile, the app's
                      profile: its database, base URL and the key from the keychain; otherwise the key
                      comes from T49_API_TOKEN. Base URL default https://api.terminal49.com/v2.`;

export const DEFAULT_BASE_URL = 'https://api.terminal49.com/v2';

/** The one-line JSON summary scripts read. */
export function summaryJson(summary: SyncSummary): string {
  return JSON.stringify({
    status: summary.status,
    mode: summary.mode,
    requests: summary.requests,
    rate_limited: summary.rateLimited,
    duration_ms: summary.durationMs,
    counts: summary.counts,
    error: summary.error,
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
  return `${head}\n${summary.requests} requests (${summary.rateLimited} rate-limited). Written: ${counts || 'nothing'}.\n`;
}

export async function runSync(args: string[], io: CommandIo): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args,
      strict: true,
      options: {
        db: { type: 'string' },
        profile: { type: 'string' },
        'base-url': { type: 'string' },
        'rate-limit': { type: 'string' },
        full: { type: 'boolean' },
        json: { type: 'boolean' },
      },
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (!values.db && !values.profile) throw new UsageError('sync needs --db PATH or --profile NAME');
  let rateLimit;
  try {
    rateLimit = values['rate-limit'] ? parseRateLimit(values['rate-limit']) : undefined;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  let dbPath = values.db;
  let apiKey = process.env.T49_API_TOKEN?.trim();
  let baseUrl = values['base-url'] ?? DEFAULT_BASE_URL;
  if (values.profile) {
    const found = await loadProfile(values.profile);
    if (!found) {
      io.err.write(`There is no profile named "${values.profile}" in ${profileDataDir()}.\n`);
      return exitCodes.usage;
    }
    dbPath ??= found.dbPath;
    baseUrl = values['base-url'] ?? found.baseUrl;
    apiKey = found.apiKey ?? undefined;
    if (!apiKey) {
      io.err.write(
        `The key of profile "${values.profile}" is not in this machine's keychain; enter it again in the app.\n`,
      );
      return exitCodes.auth;
    }
  }
  if (!apiKey) {
    io.err.write('No API key: set T49_API_TOKEN to your Tracking API key, or use --profile.\n');
    return exitCodes.auth;
  }
  try {
    new URL(baseUrl);
  } catch {
    throw new UsageError(`--base-url "${baseUrl}" is not a URL`);
  }
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  io.signal?.addEventListener('abort', stop);
  const sync = openSync({
    dbPath: dbPath!,
    baseUrl,
    apiKey,
    rateLimit,
    onProgress: values.json
      ? undefined
      : (p) =>
          io.err.write(
            `\r${p.step}: page ${p.pagesDone} of ~${p.pagesTotal}, ${p.requests} requests, ETA ${p.etaSeconds ?? '?'} s   `,
          ),
  });
  try {
    const summary = await sync.engine.run({ mode: values.full ? 'full' : 'auto', signal: controller.signal });
    if (!values.json) io.err.write('\n');
    io.out.write(values.json ? `${summaryJson(summary)}\n` : summaryText(summary));
    return summary.status === 'ok' ? exitCodes.ok : exitCodeFor(summary.error?.code ?? 'failure');
  } finally {
    process.off('SIGINT', stop);
    sync.close();
  }
}

function profileDataDir(): string {
  return resolveDataDir(process.env, defaultDataDir());
}

/** A profile of the app by name or id, with its database and its key from the keychain. */
async function loadProfile(
  nameOrId: string,
): Promise<{ dbPath: string; baseUrl: string; apiKey: string | null } | null> {
  const profiles = new ProfileStore(profileDataDir());
  const profile = profiles.list().find((p) => p.id === nameOrId || p.name.toLowerCase() === nameOrId.toLowerCase());
  if (!profile) return null;
  const vault = new KeyVault({ keychain: createKeychainStore({ service: APP_ID }) });
  return {
    dbPath: profiles.databasePath(profile.id),
    baseUrl: profile.baseUrl,
    apiKey: await vault.load(profile.id, profile.keyStorage),
  };
}
