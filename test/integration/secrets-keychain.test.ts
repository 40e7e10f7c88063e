import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it, type TestContext } from 'vitest';
import { createKeychainStore, SecretStoreUnavailableError, type SecretStore } from '../../src/core/secrets/index';

// A service of its own so a run never touches the app's real entries, and unique accounts so
// parallel or interrupted runs cannot meet.
const SERVICE = 'com.quayside.desktop.test';
const run = `${process.pid}-${randomBytes(4).toString('hex')}`;
const accounts = new Set<string>();
const store = createKeychainStore({ service: SERVICE, timeoutMs: 4000 });

function account(name: string): string {
  const id = `quayside-test-${run}-${name}`;
  accounts.add(id);
  return id;
}

/** Null when a Secret Service answers; otherwise why these tests cannot run here. */
async function findUnavailability(): Promise<string | null> {
  try {
    await store.get(account('probe'));
    return null;
  } catch (error) {
    const why = error instanceof SecretStoreUnavailableError ? error.detail : String(error);
    return `no Secret Service answered (${why}); run inside dbus-run-session with an unlocked gnome-keyring, as CI does`;
  }
}

const unavailable = await findUnavailability();
if (unavailable !== null) console.log(`secrets-keychain: skipped, ${unavailable}`);

// Skipped per test rather than by describe.skipIf so each report carries the reason as its note.
function skipUnlessKeychain(context: TestContext): void {
  if (unavailable !== null) context.skip(unavailable);
}

/** Runs keychain calls; should any fail, the error must not carry a secret before it fails the test. */
async function withoutLeaks<T>(secrets: string[], work: (keychain: SecretStore) => Promise<T>): Promise<T> {
  try {
    return await work(store);
  } catch (error) {
    const text =
      error instanceof SecretStoreUnavailableError ? `${error.message} ${error.detail} ${error.stack}` : String(error);
    for (const secret of secrets) expect(text).not.toContain(secret);
    throw error;
  }
}

describe('keychain store against the real keyring', () => {
  afterAll(async () => {
    if (unavailable !== null) return;
    for (const id of accounts) await store.delete(id).catch(() => false);
  });

  it('saves, reads and deletes a key', async (context) => {
    skipUnlessKeychain(context);
    const id = account('round-trip');
    const secret = `qs_live_${randomBytes(16).toString('hex')}`;
    await withoutLeaks([secret], async (keychain) => {
      expect(keychain.kind).toBe('keychain');
      expect(await keychain.get(id)).toBeNull();
      await keychain.set(id, secret);
      expect(await keychain.get(id)).toBe(secret);
      expect(await keychain.delete(id)).toBe(true);
      expect(await keychain.get(id)).toBeNull();
    });
  });

  it('overwrites a key in place', async (context) => {
    skipUnlessKeychain(context);
    const id = account('overwrite');
    const [first, second] = ['qs_live_first_0123456789', 'qs_live_second_9876543210'];
    await withoutLeaks([first, second], async (keychain) => {
      await keychain.set(id, first);
      await keychain.set(id, second);
      expect(await keychain.get(id)).toBe(second);
    });
  });

  it('keeps a key with characters from any script intact', async (context) => {
    skipUnlessKeychain(context);
    const id = account('unicode-Hafen-港口-🚢');
    const secret = 'clé-ключ-鍵-🔑-ﾃｽﾄ-\u00e9\u0301-end';
    await withoutLeaks([secret], async (keychain) => {
      await keychain.set(id, secret);
      expect(await keychain.get(id)).toBe(secret);
    });
  });

  it('keeps two accounts apart', async (context) => {
    skipUnlessKeychain(context);
    const [a, b] = [account('profile-a'), account('profile-b')];
    const [keyA, keyB] = ['qs_live_profile_a_111111', 'qs_live_profile_b_222222'];
    await withoutLeaks([keyA, keyB], async (keychain) => {
      await keychain.set(a, keyA);
      expect(await keychain.get(b)).toBeNull();
      await keychain.set(b, keyB);
      expect(await keychain.get(a)).toBe(keyA);
      expect(await keychain.delete(a)).toBe(true);
      expect(await keychain.get(b)).toBe(keyB);
    });
  });

  it('reports that deleting a missing key found nothing', async (context) => {
    skipUnlessKeychain(context);
    await withoutLeaks([], async (keychain) => {
      expect(await keychain.delete(account('never-set'))).toBe(false);
    });
  });

  it('refuses an empty account without reaching the keychain or echoing the key', async (context) => {
    skipUnlessKeychain(context);
    const secret = 'qs_live_never_echoed_314159';
    const error: unknown = await store.set('', secret).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect(String(error)).not.toContain(secret);
  });
});
