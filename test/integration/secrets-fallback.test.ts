import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  adaptAsyncSafeStorage,
  chooseSecretStore,
  createKeychainStore,
  createSafeStorageStore,
  createSessionStore,
  SecretStoreUnavailableError,
  type KeychainBinding,
} from '../../src/core/secrets/index';
import { createFakeSafeStorage } from '../fixtures/secrets-probe';
import { tempDir } from '../helpers/temp-dir';

const root = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const SECRET = 'qs_live_Zr8fKq2Lw9XcT4mB7vN1pH6s';

/** The store's refusal, checked to be ours and to say nothing of the key anywhere a log could show. */
async function refusal(promise: Promise<unknown>, secret = SECRET): Promise<SecretStoreUnavailableError> {
  const error = await promise.then(
    () => expect.fail('expected a SecretStoreUnavailableError'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SecretStoreUnavailableError);
  const { message, detail, stack } = error as SecretStoreUnavailableError;
  expect(`${message}\n${detail}\n${stack}`).not.toContain(secret);
  return error as SecretStoreUnavailableError;
}

function filesIn(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir) : [];
}

function expectNoPlainText(dir: string, secret = SECRET) {
  for (const name of filesIn(dir)) {
    const bytes = readFileSync(join(dir, name));
    for (const form of [
      Buffer.from(secret),
      Buffer.from(secret, 'utf16le'),
      Buffer.from(Buffer.from(secret).toString('base64')),
    ]) {
      expect(bytes.includes(form)).toBe(false);
    }
  }
}

describe('safe-storage store', () => {
  it('keeps only ciphertext, in one 0600 file per account, and reads it back', async () => {
    const dir = join(tempDir(), 'secrets');
    const store = createSafeStorageStore({ safeStorage: createFakeSafeStorage(), dir });
    expect(await store.usable()).toBe(true);
    await store.set('profile-1', SECRET);
    const [name, ...others] = filesIn(dir);
    expect(others).toEqual([]);
    expect(name).toMatch(/^[0-9a-f]{64}\.bin$/);
    expect(statSync(join(dir, name!)).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expectNoPlainText(dir);
    expect(await store.get('profile-1')).toBe(SECRET);
    expect(await store.get('profile-2')).toBeNull();
  });

  it('replaces a key by rename (a new inode), keeps the old key when a save fails, and survives racing saves', async () => {
    const dir = tempDir();
    const safeStorage = createFakeSafeStorage();
    const store = createSafeStorageStore({ safeStorage, dir });
    await store.set('profile-1', 'first-key-0000');
    const [name] = filesIn(dir);
    const before = statSync(join(dir, name!)).ino;
    await store.set('profile-1', SECRET);
    expect(filesIn(dir)).toEqual([name]);
    expect(statSync(join(dir, name!)).ino).not.toBe(before);
    expect(await store.get('profile-1')).toBe(SECRET);

    const failing = createSafeStorageStore({
      dir,
      safeStorage: {
        ...safeStorage,
        encryptString: (plain: string) => Promise.reject(new Error(`cannot encrypt ${plain}`)),
      },
    });
    const error = await refusal(failing.set('profile-1', 'next-key-1111'), 'next-key-1111');
    expect(error.detail).toContain('[secret]');
    expect(filesIn(dir)).toEqual([name]);
    expect(await store.get('profile-1')).toBe(SECRET);

    // Saves in one process must not collide on a temp name, and a racing read must find a whole blob (GCM refuses a torn one).
    const keys = Array.from({ length: 40 }, (_, i) => `concurrent-key-${i}-${'x'.repeat(i * 500)}`);
    const reads = await Promise.all(
      keys.flatMap((key) => [store.set('profile-1', key).then(() => key), store.get('profile-1')]),
    );
    for (const read of reads) expect([SECRET, ...keys]).toContain(read);
    expect(filesIn(dir)).toEqual([name]);
  });

  it.each([
    ['basic_text', true],
    ['unknown', true],
    ['gnome_libsecret', false],
  ])('refuses backend %s (encryption available: %s) and writes nothing', async (backend, available) => {
    const dir = join(tempDir(), 'secrets');
    const store = createSafeStorageStore({ safeStorage: createFakeSafeStorage(backend, available), dir });
    expect(await store.usable()).toBe(false);
    const error = await refusal(store.set('profile-1', SECRET));
    expect(error.message).toMatch(/does not really encrypt/);
    await refusal(store.get('profile-1'));
    expect(filesIn(dir)).toEqual([]);
  });

  it('refuses a safe storage that hands the key back unencrypted', async () => {
    const dir = tempDir();
    const identity = {
      isEncryptionAvailable: () => true,
      encryptString: (plain: string) => Buffer.from(`v10${plain}`),
      decryptString: (blob: Buffer) => blob.toString().slice(3),
    };
    const store = createSafeStorageStore({ safeStorage: identity, dir });
    expect(await store.usable()).toBe(true);
    await refusal(store.set('profile-1', SECRET));
    expect(filesIn(dir)).toEqual([]);
  });

  it("fits Electron's async API and reports whether a delete found a key", async () => {
    const sync = createFakeSafeStorage();
    const safeStorage = adaptAsyncSafeStorage({
      isAsyncEncryptionAvailable: () => Promise.resolve(true),
      getSelectedStorageBackend: () => 'kwallet6',
      encryptStringAsync: (plain) => Promise.resolve(sync.encryptString(plain)),
      decryptStringAsync: (blob) => Promise.resolve({ result: sync.decryptString(blob), shouldReEncrypt: false }),
    });
    const dir = tempDir();
    const store = createSafeStorageStore({ safeStorage, dir });
    expect(await store.usable()).toBe(true);
    await store.set('profile-1', SECRET);
    expectNoPlainText(dir);
    expect(await store.get('profile-1')).toBe(SECRET);
    expect(await store.delete('profile-1')).toBe(true);
    expect(await store.delete('profile-1')).toBe(false);
    expect(filesIn(dir)).toEqual([]);
  });
});

describe('session store', () => {
  it('keeps a key in memory only, and a new instance has forgotten it', async () => {
    const store = createSessionStore();
    expect(store.kind).toBe('session');
    await store.set('profile-1', SECRET);
    expect(await store.get('profile-1')).toBe(SECRET);
    expect(await createSessionStore().get('profile-1')).toBeNull();
    expect(await store.delete('profile-1')).toBe(true);
    expect(await store.get('profile-1')).toBeNull();
    const error = await store.set('', SECRET).catch((caught: unknown) => caught);
    expect(String(error)).not.toContain(SECRET);
  });
});

describe('keychain store without a keychain', () => {
  const never = () => new Promise<never>(() => {});
  const hanging: KeychainBinding = { getPassword: never, setPassword: never, deletePassword: never };

  it('gives up on a keychain that never answers within the timeout, then waits for the stuck call', async () => {
    let settle = (): void => {};
    let calls = 0;
    const slow: KeychainBinding = {
      ...hanging,
      setPassword: () => {
        calls++;
        return new Promise<void>((done) => (settle = done));
      },
    };
    const store = createKeychainStore({
      service: 'com.quayside.test',
      timeoutMs: 200,
      load: () => Promise.resolve(slow),
    });
    const started = performance.now();
    const error = await refusal(store.set('profile-1', SECRET));
    // Well before a hang, with room for a busy machine: the 200 ms bound fired, not the test's.
    expect(performance.now() - started).toBeLessThan(5000);
    expect(error.detail).toMatch(/no answer within 200 ms/);
    // While that call holds a worker thread, no new one is started.
    await refusal(store.set('profile-1', SECRET));
    expect(calls).toBe(1);
    settle();
    await new Promise((done) => setTimeout(done, 0));
    await store.set('profile-1', SECRET).catch(() => {});
    expect(calls).toBe(2);
  });

  it('gives up on a load that never finishes, and on a native module that is missing', async () => {
    const stuck = createKeychainStore({ service: 'com.quayside.test', timeoutMs: 200, load: never });
    const started = performance.now();
    await refusal(stuck.get('profile-1'));
    // Well before a hang, with room for a busy machine: the 200 ms bound fired, not the test's.
    expect(performance.now() - started).toBeLessThan(5000);

    const missing = createKeychainStore({
      service: 'com.quayside.test',
      load: () => Promise.reject(new Error("Cannot find module '@napi-rs/keyring-linux-x64-gnu'")),
    });
    expect((await refusal(missing.set('profile-1', SECRET))).detail).toMatch(/Cannot find module/);
  });

  it('scrubs the key from a native error', async () => {
    const echoing: KeychainBinding = {
      ...hanging,
      setPassword: (_service, _account, password) => Promise.reject(new Error(`refused ${password}`)),
    };
    const store = createKeychainStore({
      service: 'com.quayside.test',
      load: () => Promise.resolve(echoing),
    });
    expect((await refusal(store.set('profile-1', SECRET))).detail).toContain('refused [secret]');
  });
});

describe('choosing a secret store', () => {
  const answering: KeychainBinding = {
    getPassword: () => Promise.resolve(null),
    setPassword: () => Promise.resolve(),
    deletePassword: () => Promise.resolve(false),
  };
  const silent = () =>
    createKeychainStore({ service: 'com.quayside.test', timeoutMs: 150, load: () => new Promise(() => {}) });

  it('takes the keychain when it answers, and says nothing', async () => {
    const keychain = createKeychainStore({ service: 'com.quayside.test', load: () => Promise.resolve(answering) });
    expect(await chooseSecretStore({ keychain, probeTimeoutMs: 1000 })).toEqual({
      store: keychain,
      kind: 'keychain',
      reason: null,
    });
  });

  it('falls back to safe storage, else to this session, and says why', async () => {
    const dir = tempDir();
    const safe = await chooseSecretStore({
      keychain: silent(),
      safeStorage: createSafeStorageStore({ safeStorage: createFakeSafeStorage(), dir }),
      probeTimeoutMs: 1000,
    });
    expect(safe.kind).toBe('safe-storage');
    expect(safe.reason).toMatch(
      /^This computer's password store did not answer, so the key is saved encrypted by the operating system instead\. Nothing to do: the key still works\. \(The password store said: .*no answer within 150 ms\.\)$/,
    );

    const session = await chooseSecretStore({
      keychain: silent(),
      safeStorage: createSafeStorageStore({ safeStorage: createFakeSafeStorage('basic_text'), dir }),
      probeTimeoutMs: 1000,
    });
    expect(session.kind).toBe('session');
    expect(session.reason).toMatch(
      /^This computer's password store did not answer, and its own encryption is not available here, so the key is kept for this session only; enter it again next time\. To keep it, unlock the password store \(on Linux, the login keyring\), restart Quayside and enter the key again\. \(The password store said: .+\.\)$/,
    );
  });
});

describe('the no-Secret-Service path in a real process', () => {
  const args = [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'test/fixtures/secrets-probe.ts')];
  // GLib falls back to $XDG_RUNTIME_DIR/bus when no address is set, which would find a desktop's user bus.
  const sessionVariables = ['DBUS_SESSION_BUS_ADDRESS', 'DBUS_STARTER_ADDRESS', 'DISPLAY', 'WAYLAND_DISPLAY'];
  const reasons = {
    'safe-storage':
      /^This computer's password store did not answer, so the key is saved encrypted by the operating system instead\. .+\(The password store said: .+\.\)$/,
    session:
      /^This computer's password store did not answer, and .*, so the key is kept for this session only; enter it again next time\. .+\(The password store said: .+\.\)$/,
  };

  it.skipIf(process.platform !== 'linux').each([
    ['gnome_libsecret', 'safe-storage', 'no D-Bus address', undefined],
    ['gnome_libsecret', 'safe-storage', 'a bogus D-Bus address', 'unix:path=/nonexistent'],
    ['basic_text', 'session', 'no D-Bus address', undefined],
    ['basic_text', 'session', 'a bogus D-Bus address', 'unix:path=/nonexistent'],
  ] as const)('with a %s safe storage, falls back to %s under %s, without hanging', async (backend, kind, _, bus) => {
    const env: NodeJS.ProcessEnv = { ...process.env, QUAYSIDE_PROBE_SECRET: SECRET };
    for (const name of [...sessionVariables, 'XDG_RUNTIME_DIR']) delete env[name];
    if (bus !== undefined) env.DBUS_SESSION_BUS_ADDRESS = bus;
    const dir = tempDir();
    const started = performance.now();
    const input = JSON.stringify({ backend, dir, timeoutMs: 3000 });
    // Killed at 15 s so a hang fails the test instead of stalling the run.
    const child = await run(process.execPath, [...args, input], {
      cwd: root,
      env,
      timeout: 15_000,
      killSignal: 'SIGKILL',
    });
    expect(performance.now() - started).toBeLessThan(10_000);
    const result = JSON.parse(child.stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
    expect(result).toMatchObject({ kind, roundTrip: true, reason: expect.stringMatching(reasons[kind]) });
    expect(child.stdout + child.stderr).not.toContain(SECRET);
    expectNoPlainText(dir);
    expect(filesIn(dir)).toHaveLength(kind === 'safe-storage' ? 1 : 0);
  });
});
