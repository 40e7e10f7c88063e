import {
  assertAccount,
  assertSecret,
  raceTimeout,
  SecretStoreUnavailableError,
  summarizeError,
  type SecretStore,
} from './secret-store';

/** The part of keytar this store uses, so tests can stand in for the native module. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** keytar is CommonJS: `import()` gives its functions on `default` (Node detects few named exports). */
export type KeytarModule = KeytarLike | { default: KeytarLike };

export interface KeytarStoreOptions {
  /** The app id, e.g. 'com.quayside.desktop'. */
  service: string;
  timeoutMs?: number;
  load?: () => Promise<KeytarModule>;
}

export function createKeytarStore({
  service,
  timeoutMs = 4000,
  load = () => import('keytar'),
}: KeytarStoreOptions): SecretStore {
  if (service === '') throw new TypeError('The keychain service name (the app id) must not be empty.');
  // Loaded on first use so a missing native module or Secret Service cannot stop the app starting.
  let loading: Promise<KeytarLike> | undefined;
  // A call that timed out still holds one of libuv's four worker threads until keytar returns;
  // starting more while one is stuck could starve file and crypto work for the whole process.
  let stuck = 0;

  function loadKeytar(): Promise<KeytarLike> {
    loading ??= Promise.resolve()
      .then(load)
      .then((module) => ('default' in module ? module.default : module));
    return loading;
  }

  async function call<T>(run: (keytar: KeytarLike) => Promise<T>, secret?: string): Promise<T> {
    if (stuck > 0) {
      throw new SecretStoreUnavailableError(undefined, {
        detail: 'the keychain has not answered an earlier request yet',
      });
    }
    const pending = Promise.resolve().then(loadKeytar).then(run);
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
      return await call((keytar) => keytar.getPassword(service, account));
    },
    async set(account, secret) {
      assertAccount(account);
      assertSecret(secret);
      return await call((keytar) => keytar.setPassword(service, account, secret), secret);
    },
    async delete(account) {
      assertAccount(account);
      return await call((keytar) => keytar.deletePassword(service, account));
    },
  };
}
