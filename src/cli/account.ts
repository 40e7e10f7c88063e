/**
 * The account a command talks to, as `sync` and `import` name it: `--db PATH` with the key from
 * T49_API_TOKEN, or `--profile NAME` (the app's profile: its database, its base URL and its key from
 * the keychain, T49_API_TOKEN standing in when set). The base URL (`--base-url`, else the profile's,
 * else T49_API_BASE_URL, else the default) is checked before the key is read and before any
 * request. Each refusal is one sentence and an exit code.
 */
import { resolveDataDir } from '../core/paths';
import { KeyVault } from '../core/profiles/key-vault';
import { ProfileStore } from '../core/profiles/profile-store';
import { createKeychainStore, SecretStoreUnavailableError, type SecretStore } from '../core/secrets/index';
import { APP_ID } from '../shared/app-id';
import { checkBaseUrl, DEFAULT_BASE_URL, displayBaseUrl } from '../shared/base-url';
import type { ProfileSummary } from '../shared/types';
import { defaultDataDir } from './data-dir';
import { exitCodes } from './exit-codes';
import type { CommandIo } from './io';

export interface Account {
  dbPath: string;
  baseUrl: string;
  apiKey: string;
}

/** The account, or the exit code after its sentence went to stderr. */
export async function resolveAccount(
  values: { db?: string; profile?: string; 'base-url'?: string },
  io: CommandIo,
  keychain?: SecretStore,
  verb = 'sync',
): Promise<Account | { code: number }> {
  const profile = values.profile ? findProfile(values.profile) : null;
  if (profile && 'refusal' in profile) {
    io.err.write(`${profile.refusal}\n`);
    return { code: exitCodes.failure };
  }
  if (values.profile && !profile) {
    io.err.write(`There is no profile named "${values.profile}" in ${profileDataDir()}.\n`);
    return { code: exitCodes.usage };
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
    return { code: exitCodes.usage };
  }

  const envKey = process.env.T49_API_TOKEN?.trim() || undefined;
  let apiKey = envKey;
  if (profile && !envKey) {
    const found = await profileKey(profile.summary, keychain, verb);
    if (!found.ok) {
      io.err.write(`${found.message}\n`);
      return { code: found.code };
    }
    apiKey = found.key;
  }
  if (!apiKey) {
    io.err.write('No API key: set T49_API_TOKEN to your Tracking API key, or use --profile.\n');
    return { code: exitCodes.auth };
  }
  return { dbPath: values.db ?? profile!.dbPath, baseUrl: checked.url, apiKey };
}

/** The app's data folder, where its profiles and settings are. */
export function profileDataDir(): string {
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
  verb: string,
): Promise<{ ok: true; key: string } | { ok: false; code: number; message: string }> {
  const name = profile.name;
  if (profile.keyStatus === 'needs-key') {
    return {
      ok: false,
      code: exitCodes.usage,
      message: `Profile "${name}" needs its key again: ${profile.keyProblem ?? ''} Or set T49_API_TOKEN to ${verb} it from here.`,
    };
  }
  if (profile.keyStorage === 'safe-storage') {
    return {
      ok: false,
      code: exitCodes.auth,
      message: `The key of profile "${name}" is encrypted with the app's safe storage, which only the Quayside app can read; set T49_API_TOKEN to the key to ${verb} this profile from the command line.`,
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
      message: `Quayside could not reach this computer's keychain (${error.detail || 'no reason given'}); unlock it (log in to the desktop, or unlock the login keyring) and run this again, or set T49_API_TOKEN to the key of profile "${name}" to ${verb} without the keychain.`,
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
