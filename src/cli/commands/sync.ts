import { parseArgs } from 'node:util';
import { resolveDataDir } from '../../core/paths';
import { KeyVault } from '../../core/profiles/key-vault';
import { ProfileStore } from '../../core/profiles/profile-store';
import { createKeychainStore, SecretStoreUnavailableError, type SecretStore } from '../../core/secrets/index';
import { SettingsStore } from '../../core/settings-store';
import { openSync } from '../../core/sync/open-sync';
import { APP_ID } from '../../shared/app-id';
import { checkBaseUrl, DEFAULT_BASE_URL, displayBaseUrl } from '../../shared/base-url';
import type { ProfileSummary } from '../../shared/types';
import { defaultDataDir } from '../data-dir';
import type { SyncSummary } from '../../core/sync/types';
import { parseRateLimit } from '../../sandbox/rate-limit';
import { exitCodeFor, exitCodes } from '../exit-codes';
import { UsageError, type CommandIo } from '../io';

export const syncUsage = `sync (--db PATH | --profile NAME) [--base-url URL] [--rate-limit N/SECONDS] [--full] [--json]
                      Sync an account into a database (created if missing). With --profile, the app's
                      profile: its database, base URL and the key from the keychain; otherwise the key
                      comes from T49_API_TOKEN (which, when set, also stands in for the keychain).
                      Base URL: --base-url, else the profile's, else T49_API_BASE_URL, else
                      ${DEFAULT_BASE_URL}. It must use https (http only to this computer).`;

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
    error: summary.error,
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
  const profile = values.profile ? findProfile(values.profile) : null;
  if (profile && 'refusal' in profile) {
    io.err.write(`${profile.refusal}\n`);
    return exitCodes.failure;
  }
  if (values.profile && !profile) {
    io.err.write(`There is no profile named "${values.profile}" in ${profileDataDir()}.\n`);
    return exitCodes.usage;
  }

  // Where the key would go is settled before the key is read and before any request.
  const envBaseUrl = process.env.T49_API_BASE_URL?.trim();
  const [source, rawBaseUrl] =
    values['base-url'] !== undefined
      ? ['--base-url', values['base-url']]
      : profile
        ? [`profile "${profile.summary.name}"`, profile.summary.baseUrl]
        : envBaseUrl
          ? ['T49_API_BASE_URL', envBaseUrl]
          : ['the default', DEFAULT_BASE_URL];
  const checked = checkBaseUrl(rawBaseUrl);
  if (!checked.ok) {
    io.err.write(
      `Quayside will not send your API key to ${displayBaseUrl(rawBaseUrl)} (from ${source}). ${checked.reason}\n`,
    );
    return exitCodes.usage;
  }
  const baseUrl = checked.url;

  const envKey = process.env.T49_API_TOKEN?.trim() || undefined;
  let apiKey = envKey;
  if (profile && !envKey) {
    const found = await profileKey(profile.summary, deps.keychain);
    if (!found.ok) {
      io.err.write(`${found.message}\n`);
      return found.code;
    }
    apiKey = found.key;
  }
  if (!apiKey) {
    io.err.write('No API key: set T49_API_TOKEN to your Tracking API key, or use --profile.\n');
    return exitCodes.auth;
  }
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  io.signal?.addEventListener('abort', stop);
  const sync = openSync({
    dbPath: values.db ?? profile!.dbPath,
    baseUrl,
    apiKey,
    rateLimit,
    fetch: deps.fetch,
    // A profile's change history is kept as the app's Settings say; a --db file's, the default 180 days.
    changeRetentionDays: profile ? () => new SettingsStore(profileDataDir()).get().changeRetentionDays : undefined,
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

/** A profile of the app by name or id, with its database. */
function findProfile(nameOrId: string): { summary: ProfileSummary; dbPath: string } | { refusal: string } | null {
  const profiles = new ProfileStore(profileDataDir());
  if (profiles.refusal) return { refusal: profiles.refusal };
  const summary = profiles.list().find((p) => p.id === nameOrId || p.name.toLowerCase() === nameOrId.toLowerCase());
  return summary ? { summary, dbPath: profiles.databasePath(summary.id) } : null;
}

/**
 * A profile's key from the keychain, or the sentence saying why there is none: a keychain that
 * could not be reached is not a key that is missing, and each has its own remedy.
 */
async function profileKey(
  profile: ProfileSummary,
  keychain: SecretStore = createKeychainStore({ service: APP_ID }),
): Promise<{ ok: true; key: string } | { ok: false; code: number; message: string }> {
  const name = profile.name;
  if (profile.keyStatus === 'needs-key') {
    return {
      ok: false,
      code: exitCodes.usage,
      message: `Profile "${name}" needs its key again: ${profile.keyProblem ?? ''} Or set T49_API_TOKEN to sync it from here.`,
    };
  }
  if (profile.keyStorage === 'safe-storage') {
    return {
      ok: false,
      code: exitCodes.auth,
      message: `The key of profile "${name}" is encrypted with the app's safe storage, which only the Quayside app can read; set T49_API_TOKEN to the key to sync this profile from the command line.`,
    };
  }
  if (profile.keyStorage === 'session') {
    return {
      ok: false,
      code: exitCodes.auth,
      message: `The key of profile "${name}" was kept for one session of the app only; enter it again in the app, or set T49_API_TOKEN to the key.`,
    };
  }
  const vault = new KeyVault({ keychain });
  let key: string | null;
  try {
    key = await vault.read(profile.id, 'keychain');
  } catch (error) {
    if (!(error instanceof SecretStoreUnavailableError)) throw error;
    return {
      ok: false,
      code: exitCodes.auth,
      message: `Quayside could not reach this computer's keychain (${error.detail || 'no reason given'}); unlock it (log in to the desktop, or unlock the login keyring) and run this again, or set T49_API_TOKEN to the key of profile "${name}" to sync without the keychain.`,
    };
  }
  if (!key) {
    return {
      ok: false,
      code: exitCodes.auth,
      message: `The key of profile "${name}" is not in this machine's keychain; enter it again in the app, or set T49_API_TOKEN to the key.`,
    };
  }
  return { ok: true, key };
}
