export type SecretStoreKind = 'keychain' | 'safe-storage' | 'session';

/** Where the Tracking API key of a profile lives: service = app id, account = profile id. */
export interface SecretStore {
  readonly kind: SecretStoreKind;
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
}

const DEFAULT_MESSAGE =
  "Quayside could not reach the system's keychain to keep your Tracking API key. Try again, or enter the key again.";

/**
 * The store cannot keep or read a key right now. The message is for a forwarder; `detail` is the
 * underlying reason for the log, with any secret the store was handling scrubbed out. There is no
 * `cause`: a native error is not ours to vouch for, and errors end up in logs.
 */
export class SecretStoreUnavailableError extends Error {
  readonly detail: string;
  constructor(message: string = DEFAULT_MESSAGE, options: { detail?: string } = {}) {
    super(message);
    this.name = 'SecretStoreUnavailableError';
    this.detail = options.detail ?? '';
  }
}

/** What each store means for the forwarder, in the words the UI shows beside the key. */
export function describeSecretStore(kind: SecretStoreKind): string {
  switch (kind) {
    case 'keychain':
      return "the key is saved in the system's keychain";
    case 'safe-storage':
      return 'the key is saved encrypted by the operating system';
    case 'session':
      return 'the key is kept for this session only; enter it again next time';
  }
}

/**
 * The short reason an error gives, for logs and the UI's fallback sentence. Long native messages
 * are cut, and `secrets` are replaced, because a native layer may echo what it was given.
 */
export function summarizeError(error: unknown, secrets: readonly string[] = []): string {
  let text = error instanceof SecretStoreUnavailableError && error.detail !== '' ? error.detail : describeError(error);
  for (const secret of secrets) if (secret !== '') text = text.split(secret).join('[secret]');
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === 'string' ? error : 'unknown error';
}

/** Empty names reach a keychain as "Account is required." and files as odd paths: refuse them up front. */
export function assertAccount(account: string): void {
  if (typeof account !== 'string' || account === '') throw new TypeError('A secret needs a non-empty account name.');
}

export function assertSecret(secret: string): void {
  // An empty key is a deletion in disguise; callers should say so with delete().
  if (typeof secret !== 'string' || secret === '') throw new TypeError('An empty secret cannot be stored; delete it.');
}

/**
 * Rejects after `ms` without cancelling `promise` (a native keychain call cannot be cancelled);
 * `onTimeout` lets the caller account for the call still in flight.
 */
export function raceTimeout<T>(promise: Promise<T>, ms: number, onTimeout?: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onTimeout?.();
      reject(new Error(`no answer within ${formatDuration(ms)}`));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

function formatDuration(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
