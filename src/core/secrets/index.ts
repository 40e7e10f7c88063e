export {
  describeSecretStore,
  SecretStoreUnavailableError,
  type SecretStore,
  type SecretStoreKind,
} from './secret-store';
export {
  createKeychainStore,
  loadNativeKeychain,
  type KeychainBinding,
  type KeychainStoreOptions,
} from './keychain-store';
export {
  adaptAsyncSafeStorage,
  createSafeStorageStore,
  type AsyncSafeStorageLike,
  type SafeStorageLike,
  type SafeStorageStore,
  type SafeStorageStoreOptions,
} from './safe-storage-store';
export { createSessionStore } from './session-store';
export {
  chooseSecretStore,
  KEYCHAIN_PROBE_ACCOUNT,
  type ChooseSecretStoreOptions,
  type ChosenSecretStore,
} from './choose-secret-store';
