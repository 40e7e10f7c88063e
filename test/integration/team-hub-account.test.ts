/**
 * A team hub account in the app's core (Settings → add account → Team hub), against a real
 * PostgreSQL and the sandbox: adding it asks the hub first and keeps the password in the secret
 * store, never in profiles.json; its sync pulls (no API request) and its lists read the copy;
 * actions that write to the service say in one sentence that the account is read-only here, or
 * go through this computer's own key when it has one; a stopped PostgreSQL fails the sync with a
 * sentence saying the hub cannot be reached, the copy still read as it was.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodes } from '../../src/cli/exit-codes';
import type { SecretStore } from '../../src/core/secrets/index';
import { READ_ONLY_MESSAGE } from '../../src/core/team/hub-account';
import { DEMO_API_KEY, type Sandbox } from '../../src/sandbox/index';
import type { ProfilesState, SyncStatus } from '../../src/shared/types';
import { failure, syncNow, testCore, value } from '../helpers/core';
import { startPostgres, usePostgres } from '../helpers/postgres';
import { startTestSandbox } from '../helpers/sandbox';
import { cli } from '../helpers/team-pull';
import { tempDir } from '../helpers/temp-dir';

const postgres = usePostgres();
const SECRET = 'reader-Pw-7731xq';

/** A keychain in memory: what was kept, under which name. */
function memoryKeychain(): SecretStore & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    kind: 'keychain',
    entries,
    get: (account) => Promise.resolve(entries.get(account) ?? null),
    set: (account, secret) => {
      entries.set(account, secret);
      return Promise.resolve();
    },
    delete: (account) => Promise.resolve(entries.delete(account)),
  };
}

describe.skipIf(!postgres.available)('a team hub account in the app', () => {
  let sandbox: Sandbox;
  let url = '';
  const shipments = 12;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 'team-account', shipments });
    url = await postgres.get().createDatabase('account_main');
    const hubDb = join(tempDir(), 'hub.sqlite');
    const published = await cli(['hub', '--postgres', url, '--db', hubDb, '--base-url', sandbox.url]);
    expect(published.code).toBe(exitCodes.ok);
  }, 120_000);
  afterAll(() => sandbox.close());

  it('keeps the password in the keychain, pulls the lists, and says write actions are read-only here', async () => {
    const keychain = memoryKeychain();
    const { core, dataDir } = testCore({ secrets: { keychain } });
    try {
      const requestsBefore = sandbox.stats.requests;
      const added = await value<{ profile: { id: string; keyLast4: string; hub?: { url: string } } }>(
        core,
        'profiles:addHub',
        { name: 'Team', hubUrl: url, password: SECRET },
      );
      expect(added.profile.hub?.url).toBe(url);
      expect(added.profile.keyLast4).toBe('');
      expect(keychain.entries.get(`${added.profile.id}:hub`)).toBe(SECRET);
      expect(readFileSync(join(dataDir, 'profiles.json'), 'utf8')).not.toContain(SECRET);

      const status = await syncNow(core);
      expect(status).toMatchObject({ state: 'idle', error: null });
      const last = (await value<SyncStatus>(core, 'sync:status')).lastRun;
      expect(last).toMatchObject({ kind: 'hub', status: 'ok', requests: 0 });
      expect(await value(core, 'shipments:count', { filters: {} })).toBe(shipments);
      // The pull sent nothing to the service.
      expect(sandbox.stats.requests).toBe(requestsBefore);

      const page = await value<{ rows: { id: string }[] }>(core, 'shipments:list', { page: { limit: 1 } });
      const id = page.rows[0]!.id;
      for (const [channel, arg] of [
        ['shipments:update', { id, tags: ['urgent'] }],
        ['trackingRequests:create', { requestType: 'bill_of_lading', requestNumber: 'MAEU123456789', scac: 'MAEU' }],
      ] as const) {
        const refused = await failure(core, channel, arg);
        expect(refused.message).toBe(READ_ONLY_MESSAGE);
      }
      expect(sandbox.stats.requests).toBe(requestsBefore);
    } finally {
      await core.close();
    }
  }, 120_000);

  it('refuses an address that is no hub, saving nothing', async () => {
    const { core } = testCore({ secrets: { keychain: memoryKeychain() } });
    try {
      const notUrl = await failure(core, 'profiles:addHub', { name: 'Team', hubUrl: 'db.example.com' });
      expect(notUrl.fields?.hubUrl).toMatch(/^The PostgreSQL address is not a URL; .* Nothing was saved\.$/);
      const empty = await postgres.get().createDatabase('not_a_hub');
      const noHub = await failure(core, 'profiles:addHub', { name: 'Team', hubUrl: empty });
      expect(noHub.fields?.hubUrl).toContain('holds no team hub yet');
      const plain = await failure(core, 'profiles:addHub', {
        name: 'Team',
        hubUrl: 'postgres://reader@db.example.com/team?sslmode=disable',
      });
      expect(plain.fields?.hubUrl).toContain('without TLS');
      expect((await value<ProfilesState>(core, 'profiles:list')).profiles).toEqual([]);
    } finally {
      await core.close();
    }
  }, 60_000);

  it("uses this computer's own API key for write actions, while its sync still pulls", async () => {
    const { core } = testCore({ secrets: { keychain: memoryKeychain() } });
    try {
      const added = await value<{ profile: { keyLast4: string }; check: { result: string } }>(core, 'profiles:addHub', {
        name: 'Team with key',
        hubUrl: url,
        apiKey: DEMO_API_KEY,
        baseUrl: sandbox.url,
      });
      expect(added.check.result).toBe('accepted');
      expect(added.profile.keyLast4).toBe(DEMO_API_KEY.slice(-4));
      expect(await syncNow(core)).toMatchObject({ state: 'idle', error: null });
      expect((await value<SyncStatus>(core, 'sync:status')).lastRun).toMatchObject({ kind: 'hub', requests: 0 });
      const page = await value<{ rows: { id: string }[] }>(core, 'shipments:list', { page: { limit: 1 } });
      const updated = await value<{ tags: string[] }>(core, 'shipments:update', {
        id: page.rows[0]!.id,
        tags: ['team-hub'],
      });
      expect(updated.tags).toEqual(['team-hub']);
    } finally {
      await core.close();
    }
  }, 120_000);

  it('says the hub cannot be reached when PostgreSQL stops, and keeps showing the copy', async () => {
    const own = await startPostgres();
    let stopped = false;
    const { core } = testCore({ secrets: { keychain: memoryKeychain() } });
    try {
      const hubUrl = await own.createDatabase('team');
      const hubDb = join(tempDir(), 'own-hub.sqlite');
      expect((await cli(['hub', '--postgres', hubUrl, '--db', hubDb, '--base-url', sandbox.url])).code).toBe(0);
      await value(core, 'profiles:addHub', { name: 'Team', hubUrl, password: SECRET });
      expect(await syncNow(core)).toMatchObject({ state: 'idle' });

      await own.stop();
      stopped = true;
      const failed = await syncNow(core);
      expect(failed.state).toBe('failed');
      expect(failed.error).toBe(
        `The team hub cannot be reached: you are seeing the copy on this computer, as of the last pull; the next sync tries again (${hubUrl}).`,
      );
      expect(failed.error).not.toContain(SECRET);
      expect(await value(core, 'shipments:count', { filters: {} })).toBe(shipments);
    } finally {
      await core.close();
      if (!stopped) await own.stop();
    }
  }, 120_000);
});
