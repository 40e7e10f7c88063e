import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  assertAccount,
  assertSecret,
  SecretStoreUnavailableError,
  summarizeError,
  type SecretStore,
} from './secret-store';

/** Electron's `safeStorage` (sync methods) fits as is; its async API fits through `adaptAsyncSafeStorage`. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean | Promise<boolean>;
  /** Linux only in Electron. */
  getSelectedStorageBackend?(): string;
  encryptString(plain: string): Buffer | Promise<Buffer>;
  decryptString(encrypted: Buffer): string | Promise<string>;
}

/** Electron's async safeStorage methods (`isAsyncEncryptionAvailable`, `…Async`), typed here so core needs no Electron. */
export interface AsyncSafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  getSelectedStorageBackend?(): string;
  encryptStringAsync(plain: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>;
}

export interface SafeStorageStore extends SecretStore {
  readonly kind: 'safe-storage';
  /** False when encryption is unavailable or is not real encryption; the store then refuses to keep or read keys. */
  usable(): Promise<boolean>;
}

export interface SafeStorageStoreOptions {
  safeStorage: SafeStorageLike;
  /** A folder of the app's own, e.g. `<userData>/secrets`. */
  dir: string;
}

// basic_text encrypts with a key hard-coded in Chromium: anyone who can read the file can read the
// key. 'unknown' means the backend was never chosen (asked before `ready`), so nothing vouches for it.
const NOT_REAL_ENCRYPTION = new Set(['basic_text', 'unknown']);
// Shorter strings turn up in ciphertext by chance; API keys are far longer.
const MIN_PLAINTEXT_CHECK_BYTES = 6;

const REFUSED =
  "This computer's safe storage does not really encrypt, so Quayside will not keep your Tracking API key in it.";
const SAVE_FAILED = 'Quayside could not save your Tracking API key in encrypted form. Try again, or enter it again.';
const READ_FAILED = 'Quayside could not read your saved Tracking API key. Enter the key again.';

export function adaptAsyncSafeStorage(safeStorage: AsyncSafeStorageLike): SafeStorageLike {
  const hasBackend = safeStorage.getSelectedStorageBackend !== undefined;
  return {
    isEncryptionAvailable: () => safeStorage.isAsyncEncryptionAvailable(),
    // Only where Electron has it (Linux): elsewhere its absence is what says "no basic_text here".
    ...(hasBackend && { getSelectedStorageBackend: () => safeStorage.getSelectedStorageBackend?.() ?? 'unknown' }),
    encryptString: (plain) => safeStorage.encryptStringAsync(plain),
    decryptString: async (encrypted) => (await safeStorage.decryptStringAsync(encrypted)).result,
  };
}

export function createSafeStorageStore({ safeStorage, dir }: SafeStorageStoreOptions): SafeStorageStore {
  // Hashed so any profile id makes a safe file name and none can climb out of the folder.
  const fileFor = (account: string) => join(dir, `${createHash('sha256').update(account).digest('hex')}.bin`);

  async function usable(): Promise<boolean> {
    try {
      // Availability first: Electron picks the Linux backend lazily, so asking for it before can say 'unknown'.
      if ((await safeStorage.isEncryptionAvailable()) !== true) return false;
      const backend = safeStorage.getSelectedStorageBackend?.();
      return backend === undefined || !NOT_REAL_ENCRYPTION.has(backend);
    } catch {
      return false;
    }
  }

  async function requireUsable(): Promise<void> {
    if (!(await usable())) throw new SecretStoreUnavailableError(REFUSED, { detail: describeBackend(safeStorage) });
  }

  return {
    kind: 'safe-storage',
    usable,
    async get(account) {
      assertAccount(account);
      await requireUsable();
      let blob: Buffer;
      try {
        blob = await readFile(fileFor(account));
      } catch (error) {
        if (isMissing(error)) return null;
        throw new SecretStoreUnavailableError(READ_FAILED, { detail: summarizeError(error) });
      }
      try {
        return await safeStorage.decryptString(blob);
      } catch (error) {
        throw new SecretStoreUnavailableError(READ_FAILED, { detail: `decrypt: ${summarizeError(error)}` });
      }
    },
    async set(account, secret) {
      assertAccount(account);
      assertSecret(secret);
      await requireUsable();
      let encrypted: Buffer;
      try {
        encrypted = Buffer.from(await safeStorage.encryptString(secret));
      } catch (error) {
        throw new SecretStoreUnavailableError(SAVE_FAILED, { detail: `encrypt: ${summarizeError(error, [secret])}` });
      }
      if (revealsSecret(encrypted, secret)) {
        throw new SecretStoreUnavailableError(SAVE_FAILED, { detail: 'safe storage returned the key unencrypted' });
      }
      try {
        await writeFileAtomic(dir, fileFor(account), encrypted);
      } catch (error) {
        throw new SecretStoreUnavailableError(SAVE_FAILED, { detail: summarizeError(error, [secret]) });
      }
    },
    // Needs no encryption, so it works even where the store is not usable: a stale blob can always go.
    async delete(account) {
      assertAccount(account);
      try {
        await rm(fileFor(account));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw new SecretStoreUnavailableError(SAVE_FAILED, { detail: summarizeError(error) });
      }
    },
  };
}

function revealsSecret(encrypted: Buffer, secret: string): boolean {
  if (encrypted.length === 0) return true;
  return (['utf8', 'utf16le'] as const).some((encoding) => {
    const plain = Buffer.from(secret, encoding);
    return plain.length >= MIN_PLAINTEXT_CHECK_BYTES && encrypted.includes(plain);
  });
}

/** A crash or full disk leaves the previous blob or none, never half of one; readers never see a partial file. */
async function writeFileAtomic(dir: string, file: string, data: Buffer): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    // 'wx' refuses to reuse whatever already sits at the temp name, link or file, with looser rights.
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDir(dir);
}

/** Makes the rename itself survive a power cut; Windows cannot open a folder, and loses nothing but that. */
async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Best effort, see above.
  }
}

function describeBackend(safeStorage: SafeStorageLike): string {
  try {
    return `encryption unavailable or not real (backend ${safeStorage.getSelectedStorageBackend?.() ?? 'default'})`;
  } catch (error) {
    return summarizeError(error);
  }
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}
