/**
 * Where profile keys live: the OS keychain when it answers, else Electron's safeStorage when it
 * really encrypts, else this session's memory (and the UI says so). A keychain that answered a
 * read but refuses a write (a locked keyring) is dropped for the next store down.
 */
import {
  chooseSecretStore,
  createSessionStore,
  SecretStoreUnavailableError,
  type SafeStorageStore,
  type SecretStore,
  type SecretStoreKind,
} from '../secrets/index';

export interface KeyVaultOptions {
  keychain?: SecretStore;
  safeStorage?: SafeStorageStore;
  probeTimeoutMs?: number;
  log?: (message: string) => void;
}

export class KeyVault {
  readonly #o: KeyVaultOptions;
  readonly #session = createSessionStore();
  #chosen: Promise<{ store: SecretStore; kind: SecretStoreKind; reason: string | null }> | null = null;

  constructor(options: KeyVaultOptions) {
    this.#o = options;
  }

  #choose(withoutKeychain = false) {
    if (!this.#chosen || withoutKeychain) {
      const keychain = withoutKeychain || !this.#o.keychain ? unavailableKeychain : this.#o.keychain;
      this.#chosen = chooseSecretStore({
        keychain,
        safeStorage: this.#o.safeStorage,
        session: this.#session,
        probeTimeoutMs: this.#o.probeTimeoutMs,
      });
    }
    return this.#chosen;
  }

  async describe(): Promise<{ kind: SecretStoreKind; note: string | null }> {
    const chosen = await this.#choose();
    return { kind: chosen.kind, note: chosen.reason };
  }

  /** Saves a profile's key; returns where it went. */
  async save(profileId: string, key: string): Promise<SecretStoreKind> {
    const chosen = await this.#choose();
    try {
      await chosen.store.set(profileId, key);
      return chosen.kind;
    } catch (error) {
      if (!(error instanceof SecretStoreUnavailableError) || chosen.kind !== 'keychain') throw error;
      this.#o.log?.(`keychain refused a write (${error.detail}); choosing another store`);
      const next = await this.#choose(true);
      await next.store.set(profileId, key);
      return next.kind;
    }
  }

  /**
   * A profile's key from wherever it was kept, or null when this machine does not have it.
   * Throws SecretStoreUnavailableError when the store could not be asked (a locked or absent
   * keychain): not the same as a key that is not there, and the CLI says which.
   */
  async read(profileId: string, kind: SecretStoreKind): Promise<string | null> {
    const stores: Partial<Record<SecretStoreKind, SecretStore | undefined>> = {
      keychain: this.#o.keychain,
      'safe-storage': this.#o.safeStorage,
      session: this.#session,
    };
    const store = stores[kind];
    if (!store) return null;
    return store.get(profileId);
  }

  /** As read(), with a store that did not answer logged and read as no key. */
  async load(profileId: string, kind: SecretStoreKind): Promise<string | null> {
    try {
      return await this.read(profileId, kind);
    } catch (error) {
      this.#o.log?.(
        `the ${kind} store did not answer: ${error instanceof SecretStoreUnavailableError ? error.detail : 'error'}`,
      );
      return null;
    }
  }

  async remove(profileId: string): Promise<void> {
    for (const store of [this.#o.keychain, this.#o.safeStorage, this.#session]) {
      try {
        await store?.delete(profileId);
      } catch {
        // a store that is not there has nothing to remove
      }
    }
  }
}

const unavailableKeychain: SecretStore = {
  kind: 'keychain',
  get: () =>
    Promise.reject(new SecretStoreUnavailableError(undefined, { detail: 'the keychain refused a write earlier' })),
  set: () =>
    Promise.reject(new SecretStoreUnavailableError(undefined, { detail: 'the keychain refused a write earlier' })),
  delete: () => Promise.resolve(false),
};
