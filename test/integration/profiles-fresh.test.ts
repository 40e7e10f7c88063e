/**
 * A fresh machine. The data folder does not exist until the first profile is
 * added; adding one must create it, keep the profile and its key, and the next sync must work.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodes } from '../../src/cli/exit-codes';
import { runCli } from '../../src/cli/index';
import type { Sandbox } from '../../src/sandbox/index';
import type { ProfilesState, ProfileSummary } from '../../src/shared/types';
import { capture } from '../helpers/capture';
import { syncNow, testCore, value } from '../helpers/core';
import { apiRequests, startHostileProxy, type HostileProxy } from '../helpers/hostile-proxy';
import { startTestSandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp-dir';

describe('profiles on a fresh machine', () => {
  const key = 'fresh-KEY-1a2b3c4d5e6f-FR11';
  let sandbox: Sandbox;
  let proxy: HostileProxy;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 'fresh', shipments: 12, apiKeys: [key] });
    proxy = await startHostileProxy({ upstream: sandbox.url });
  });
  afterAll(async () => {
    await proxy.close();
    await sandbox.close();
  });

  it('adds the first profile when the data folder does not exist yet, keeps it, and syncs it', async () => {
    const dataDir = join(tempDir(), 'not', 'created', 'yet');
    const { core } = testCore({ dataDir });
    expect(existsSync(dataDir)).toBe(false);
    const added = await value<{ profile: ProfileSummary; state: ProfilesState }>(core, 'profiles:add', {
      name: 'First Freight',
      apiKey: key,
      baseUrl: proxy.url,
    });
    expect(added.profile).toMatchObject({ name: 'First Freight', keyStatus: 'accepted', keyLast4: 'FR11' });
    expect(added.state.activeId).toBe(added.profile.id);
    const stored = JSON.parse(readFileSync(join(dataDir, 'profiles.json'), 'utf8')) as { profiles: { id: string }[] };
    expect(stored.profiles.map((p) => p.id)).toEqual([added.profile.id]);
    expect(readFileSync(join(dataDir, 'profiles.json'), 'utf8')).not.toContain(key);

    expect(await syncNow(core, 'full')).toMatchObject({ state: 'idle', error: null });
    expect(await value(core, 'shipments:count', { filters: {} })).toBe(12);
    expect(apiRequests(proxy.requests).every((r) => r.headers.authorization === `Token ${key}`)).toBe(true);
    await core.close();

    // The next start on the same folder finds the profile active.
    const again = testCore({ dataDir });
    expect(await value<ProfilesState>(again.core, 'profiles:list')).toMatchObject({
      activeId: added.profile.id,
      profiles: [{ name: 'First Freight' }],
    });
    await again.core.close();
  });

  it('saves a setting when the data folder does not exist yet', async () => {
    const dataDir = join(tempDir(), 'absent');
    const { core } = testCore({ dataDir });
    await value(core, 'settings:update', { syncIntervalMinutes: 30 });
    await core.close();
    const again = testCore({ dataDir });
    expect(await value(again.core, 'settings:get')).toMatchObject({ syncIntervalMinutes: 30 });
    await again.core.close();
  });
});

describe('a data folder that cannot be created', () => {
  it('is named in one sentence by the CLI, which exits without a stack trace', async () => {
    const blocker = join(tempDir(), 'a-file');
    writeFileSync(blocker, 'not a folder');
    const saved = { ...process.env };
    process.env.QUAYSIDE_DATA_DIR = join(blocker, 'Quayside');
    const err = capture();
    try {
      const code = await runCli(['sync', '--profile', 'Anyone'], { out: capture().stream, err: err.stream });
      expect(code).toBe(exitCodes.failure);
    } finally {
      process.env = saved;
    }
    expect(err.text()).toBe(
      `Quayside could not create its data folder ${join(blocker, 'Quayside')} (ENOTDIR); set QUAYSIDE_DATA_DIR to a folder you can write to.\n`,
    );
  });
});
