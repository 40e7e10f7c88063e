import {
  assertAccount,
  assertSecret,
  raceTimeout,
  SecretStoreUnavailableError,
  summarizeError,
  type SecretStore,
} from './secret-store';

/**
 * The part of a keychain binding this store uses, so tests can stand in for the native module.
 * `service` is the app id, `account` the profile id.
 */
export interface KeychainBinding {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export interface KeychainStoreOptions {
  /** The app id, e.g. 'com.quayside.desktop'. */
  service: string;
  timeoutMs?: number;
  load?: () => Promise<KeychainBinding>;
}

/**
 * The OS keychain through `@napi-rs/keyring` (keyring-rs: macOS Keychain, Windows Credential
 * Manager, the Secret Service on Linux), whose prebuilt binaries come from the npm registry, so
 * installing needs neither a compiler nor libsecret headers. Its async calls run off the main
 * thread. On Linux the entry is pinned to the Secret Service: keyring-rs would otherwise fall
 * back to the kernel keyring, which forgets everything at reboot.
 */
export async function loadNativeKeychain(): Promise<KeychainBinding> {
  const { AsyncEntry } = await import('@napi-rs/keyring');
  const entry = (service: string, account: string) =>
    new AsyncEntry(service, account, { linux: { store: 'secret-service' } });
  return {
    getPassword: (service, account) => entry(service, account).getPassword(),
    setPassword: (service, account, password) => entry(service, account).setPassword(password),
    deletePassword: (service, account) => entry(service, account).deletePassword(),
  };
}

export function createKeychainStore({
  service,
  timeoutMs = 4000,
  load = loadNativeKeychain,
}: KeychainStoreOptions): SecretStore {
  if (service === '') throw new TypeError('The keychain service name (the app id) must not be empty.');
  // Loaded on first use so a missing native module or Secret Service cannot stop the app starting.
  let loading: Promise<KeychainBinding> | undefined;
  // A call that timed out still holds a worker thread until the keychain returns; starting more
  // while one is stuck could starve file and crypto work for the whole process.
  let stuck = 0;

  function loadBinding(): Promise<KeychainBinding> {
    loading ??= Promise.resolve().then(load);
    return loading;
  }

  async function call<T>(run: (keychain: KeychainBinding) => Promise<T>, secret?: string): Promise<T> {
    if (stuck > 0) {
      throw new SecretStoreUnavailableError(undefined, {
        detail: 'the keychain has not answered an earlier request yet',
      });
    }
    const pending = Promise.resolve().then(loadBinding).then(run);
    try {
      return await raceTimeout(pending, timeoutMs, () => {
        stuck++;
        void pending.then(release, release);
      });
    } catch (error) {
      throw new SecretStoreUnavailableError(undefined, {
        detail: summarizeError(error, secret === undefined ? [] : [secret]),
      });
    }
  }

  function release(): void {
    stuck--;
  }

  return {
    kind: 'keychain',
    async get(account) {
      assertAccount(account);
      return await call((keychain) => keychain.getPassword(service, account));
    },
    async set(account, secret) {
      assertAccount(account);
      assertSecret(secret);
      return await call((keychain) => keychain.setPassword(service, account, secret), secret);
    },
    async delete(account) {
      assertAccount(account);
      return await call((keychain) => keychain.deletePassword(service, account));
    },
  };
}
