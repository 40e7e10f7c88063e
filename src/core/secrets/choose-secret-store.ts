import type { SafeStorageStore } from './safe-storage-store';
import {
  describeSecretStore,
  raceTimeout,
  summarizeError,
  type SecretStore,
  type SecretStoreKind,
} from './secret-store';
import { createSessionStore } from './session-store';

export interface ChooseSecretStoreOptions {
  keychain: SecretStore;
  safeStorage?: SafeStorageStore;
  session?: SecretStore;
  probeTimeoutMs?: number;
}

export interface ChosenSecretStore {
  store: SecretStore;
  kind: SecretStoreKind;
  /** Null when the keychain answered; otherwise a sentence for the UI saying where the key went and why. */
  reason: string | null;
}

/** Read, never written: a miss costs nothing and, unlike a write, cannot raise an unlock prompt for a new item. */
export const KEYCHAIN_PROBE_ACCOUNT = 'quayside-keychain-probe';

/**
 * Picks where the API key lives on this machine, once at start-up: the keychain if it answers,
 * else safe storage if it really encrypts, else this session's memory. Never plain text on disk.
 */
export async function chooseSecretStore({
  keychain,
  safeStorage,
  session,
  probeTimeoutMs = 4000,
}: ChooseSecretStoreOptions): Promise<ChosenSecretStore> {
  let failure: string;
  try {
    await raceTimeout(keychain.get(KEYCHAIN_PROBE_ACCOUNT), probeTimeoutMs);
    return { store: keychain, kind: keychain.kind, reason: null };
  } catch (error) {
    failure = summarizeError(error);
  }
  // Said as what it means for the forwarder and what they can do; the system's answer comes last.
  const why = ` (The password store said: ${failure}.)`;
  if (safeStorage !== undefined && (await answersYes(safeStorage.usable(), probeTimeoutMs))) {
    return {
      store: safeStorage,
      kind: 'safe-storage',
      reason: `This computer's password store did not answer, so ${describeSecretStore('safe-storage')} instead. Nothing to do: the key still works.${why}`,
    };
  }
  const store = session ?? createSessionStore();
  const noSafeStorage = safeStorage === undefined ? '' : ', and its own encryption is not available here';
  return {
    store,
    kind: 'session',
    reason: `This computer's password store did not answer${noSafeStorage}, so ${describeSecretStore('session')}. To keep it, unlock the password store (on Linux, the login keyring), restart Quayside and enter the key again.${why}`,
  };
}

/** Electron's async availability check talks to the same Secret Service that just failed us, so it gets a deadline too. */
async function answersYes(question: Promise<boolean>, ms: number): Promise<boolean> {
  try {
    return (await raceTimeout(question, ms)) === true;
  } catch {
    return false;
  }
}
