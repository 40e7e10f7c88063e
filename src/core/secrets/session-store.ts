import { assertAccount, assertSecret, type SecretStore } from './secret-store';

/**
 * The last resort when neither a keychain nor real encryption is at hand: the key lives in this
 * process's memory and nowhere else, so it is gone when the app quits. The UI must say so.
 */
export function createSessionStore(): SecretStore {
  const secrets = new Map<string, string>();
  return {
    kind: 'session',
    get: (account) =>
      settle(() => {
        assertAccount(account);
        return secrets.get(account) ?? null;
      }),
    set: (account, secret) =>
      settle(() => {
        assertAccount(account);
        assertSecret(secret);
        secrets.set(account, secret);
      }),
    delete: (account) =>
      settle(() => {
        assertAccount(account);
        return secrets.delete(account);
      }),
  };
}

/** Rejects rather than throws, as the other stores do, so callers handle one failure path. */
function settle<T>(run: () => T): Promise<T> {
  return new Promise((resolve) => resolve(run()));
}
