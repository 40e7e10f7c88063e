import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index';
import { chooseSecretStore, createKeychainStore } from '../../src/core/secrets/index';
import { APP_ID } from '../../src/shared/app-id';
import type { Sandbox } from '../../src/sandbox/index';
import type { ProfilesState } from '../../src/shared/types';
import { syncNow, testCore, value } from '../helpers/core';
import { startTestSandbox } from '../helpers/sandbox';

const keychain = createKeychainStore({ service: 'com.quayside.desktop.test', timeoutMs: 3000 });
const probe = await chooseSecretStore({ keychain, probeTimeoutMs: 3000 });
const reason = `no Secret Service answered (${probe.reason ?? ''}); run inside dbus-run-session with an unlocked gnome-keyring, as CI does`;
if (probe.kind !== 'keychain') console.log(`key-keychain: skipped, ${reason}`);

describe('the API key in the real keychain', () => {
  const key = 'kc-KEY-1a2b3c4d5e6f-ZZ42';
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 'keychain', shipments: 20, apiKeys: [key] });
  });
  afterAll(() => sandbox.close());

  it('keeps the key in the keychain only, survives a restart, and is gone when the profile is removed', async (ctx) => {
    if (probe.kind !== 'keychain') ctx.skip(reason);
    const { core, dataDir, logs } = testCore({ secrets: { keychain } });
    const added = await value<{ profile: { id: string; keyStorage: string } }>(core, 'profiles:add', {
      name: 'KC',
      apiKey: key,
      baseUrl: sandbox.url,
    });
    expect(added.profile.keyStorage).toBe('keychain');
    expect(await keychain.get(added.profile.id)).toBe(key);
    expect((await syncNow(core, 'full')).state).toBe('idle');
    await core.close();

    // A new core (an app restart) finds the key in the keychain and syncs again.
    const again = testCore({ dataDir, secrets: { keychain } });
    expect((await value<ProfilesState>(again.core, 'profiles:list')).activeId).toBe(added.profile.id);
    expect((await syncNow(again.core, 'incremental')).state).toBe('idle');
    const db = join(dataDir, 'profiles', `${added.profile.id}.sqlite`);
    for (const file of [db, `${db}-wal`, join(dataDir, 'profiles.json')]) {
      if (statSync(file, { throwIfNoEntry: false })) expect(readFileSync(file).includes(key), file).toBe(false);
    }
    expect([...logs, ...again.logs].join('\n')).not.toContain(key);

    await value(again.core, 'profiles:remove', { id: added.profile.id, deleteData: true });
    expect(await keychain.get(added.profile.id)).toBeNull();
    await again.core.close();
  });
});

describe('npm run cli -- sync --profile', () => {
  const key = 'cli-KEY-77aa66bb55cc-PF01';
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 'cli-profile', shipments: 15, apiKeys: [key] });
  });
  afterAll(() => sandbox.close());

  it('syncs a saved profile into its own database with the key from the keychain', async (ctx) => {
    if (probe.kind !== 'keychain') ctx.skip(reason);
    const appKeychain = createKeychainStore({ service: APP_ID, timeoutMs: 3000 });
    const { core, dataDir } = testCore({ secrets: { keychain: appKeychain } });
    const added = await value<{ profile: { id: string } }>(core, 'profiles:add', {
      name: 'Night Run',
      apiKey: key,
      baseUrl: sandbox.url,
    });
    await core.close();
    const previous = process.env.QUAYSIDE_DATA_DIR;
    process.env.QUAYSIDE_DATA_DIR = dataDir;
    try {
      let out = '';
      const code = await runCli(['sync', '--profile', 'night run', '--json'], {
        out: { write: (text: string) => (out += text) },
        err: { write: () => true },
      });
      expect(code).toBe(0);
      expect(JSON.parse(out)).toMatchObject({ status: 'ok', mode: 'full' });
      expect(out).not.toContain(key);
      const db = join(dataDir, 'profiles', `${added.profile.id}.sqlite`);
      expect(statSync(db).size).toBeGreaterThan(0);
    } finally {
      if (previous === undefined) delete process.env.QUAYSIDE_DATA_DIR;
      else process.env.QUAYSIDE_DATA_DIR = previous;
      await appKeychain.delete(added.profile.id);
    }
  });
});
