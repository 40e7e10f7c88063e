/**
 * One base-URL rule everywhere the key could be sent. https, or http only to
 * this computer; no credentials, query or fragment; each refusal says why, and nothing is sent.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSync } from '../../src/cli/commands/sync';
import { exitCodes } from '../../src/cli/exit-codes';
import { runCli } from '../../src/cli/index';
import { createKeychainStore, type KeychainBinding } from '../../src/core/secrets/index';
import type { Sandbox } from '../../src/sandbox/index';
import { checkBaseUrl } from '../../src/shared/base-url';
import type { ProfilesState, ProfileSummary, SyncStatus } from '../../src/shared/types';
import { capture } from '../helpers/capture';
import { failure, syncNow, testCore, value } from '../helpers/core';
import { apiRequests, startHostileProxy, type HostileProxy } from '../helpers/hostile-proxy';
import { startTestSandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp-dir';

const key = 'baseurl-KEY-7e6d5c4b3a21-BU07';

/** A fetch that records every call and never reaches a network. */
function recordingFetch(): { fetch: typeof fetch; calls: string[] } {
  const calls: string[] = [];
  const fake: typeof fetch = (input) => {
    calls.push(input instanceof Request ? input.url : String(input));
    return Promise.reject(new TypeError('fetch failed: this test allows no network'));
  };
  return { fetch: fake, calls };
}

/** A keychain backed by memory, recording which accounts were read, behind the real keychain store. */
function memoryKeychain(entries: Record<string, string>) {
  const binding = { reads: [] as string[] };
  const native: KeychainBinding = {
    getPassword: (_service, account) => {
      binding.reads.push(account);
      return Promise.resolve(entries[account] ?? null);
    },
    setPassword: (_service, account, password) => {
      entries[account] = password;
      return Promise.resolve();
    },
    deletePassword: (_service, account) => Promise.resolve(delete entries[account]),
  };
  return { store: createKeychainStore({ service: 'com.quayside.test', load: () => Promise.resolve(native) }), binding };
}

/** A data folder whose profiles.json holds one active profile (as another tool or version wrote it). */
function dataDirWithProfile(baseUrl: string): { dataDir: string; id: string } {
  const dataDir = tempDir();
  const id = 'f0e1d2c3-0000-4000-8000-00000000b07e';
  writeFileSync(
    join(dataDir, 'profiles.json'),
    JSON.stringify({
      version: 1,
      activeId: id,
      profiles: [
        {
          id,
          name: 'Edited By Hand',
          baseUrl,
          keyLast4: key.slice(-4),
          keyStatus: 'accepted',
          keyStorage: 'keychain',
          createdAt: '2026-01-05T10:00:00.000Z',
        },
      ],
    }),
  );
  return { dataDir, id };
}

async function withEnv<T>(env: Record<string, string | undefined>, run: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  for (const [name, text] of Object.entries(env)) {
    if (text === undefined) delete process.env[name];
    else process.env[name] = text;
  }
  try {
    return await run();
  } finally {
    process.env = saved;
  }
}

describe('the base-URL rule', () => {
  it('accepts https anywhere and http to this computer only', () => {
    for (const url of [
      'https://api.terminal49.com/v2',
      'https://tracking.example.com:8443/v2/',
      'http://127.0.0.1:4010/v2',
      'http://127.45.6.7/v2',
      'http://localhost:8080/v2',
      'http://[::1]:8080/v2',
    ]) {
      expect(checkBaseUrl(url), url).toEqual({ ok: true, url });
    }
  });

  it('refuses every other URL with the reason', () => {
    const refusals: [string, RegExp][] = [
      ['http://example.invalid/v2', /must use https.*unencrypted.*localhost, 127\.x\.x\.x or \[::1\]/],
      ['http://127.0.0.1.nip.io/v2', /must use https/],
      ['http://[::ffff:7f00:1]/v2', /must use https/],
      ['http://10.0.0.5/v2', /must use https/],
      ['ftp://api.terminal49.com/v2', /must start with https:\/\/ \(it starts with ftp:\/\//],
      ['file:///etc/passwd', /must start with https:\/\//],
      ['https://forwarder:secret@api.terminal49.com/v2', /must not contain a user name or password/],
      ['https://api.terminal49.com/v2?token=1', /must not contain a query/],
      ['https://api.terminal49.com/v2#top', /or a fragment/],
      ['https://api.terminal49.com/v2?', /must not contain a query/],
      ['api.terminal49.com/v2', /is not a web address/],
      ['', /is empty/],
    ];
    for (const [url, reason] of refusals) {
      const checked = checkBaseUrl(url);
      expect(checked.ok, url).toBe(false);
      if (!checked.ok) expect(checked.reason, url).toMatch(reason);
    }
  });
});

describe('the CLI refuses a base URL before anything is sent', () => {
  const refused: { name: string; args: string[]; env: Record<string, string>; says: RegExp }[] = [
    {
      name: 'plain http to another host',
      args: ['--base-url', 'http://example.invalid/v2'],
      env: {},
      says: /will not send your API key to http:\/\/example\.invalid\/v2 \(from --base-url\)\. The base URL must use https/,
    },
    {
      name: 'ftp',
      args: ['--base-url', 'ftp://api.terminal49.com/v2'],
      env: {},
      says: /\(from --base-url\)\. The base URL must start with https:\/\//,
    },
    {
      name: 'https with credentials',
      args: ['--base-url', 'https://forwarder:hunter2@api.terminal49.com/v2'],
      env: {},
      says: /must not contain a user name or password/,
    },
    {
      name: 'T49_API_BASE_URL set to plain http',
      args: [],
      env: { T49_API_BASE_URL: 'http://tracking.example.invalid/v2' },
      says: /\(from T49_API_BASE_URL\)\. The base URL must use https/,
    },
  ];

  for (const item of refused) {
    it(`exits 2 with the reason for ${item.name}, with no request and no database`, async () => {
      const db = join(tempDir(), 'never.sqlite');
      const net = recordingFetch();
      const err = capture();
      const code = await withEnv({ T49_API_TOKEN: key, T49_API_BASE_URL: undefined, ...item.env }, () =>
        runSync(['--db', db, ...item.args], { out: capture().stream, err: err.stream }, { fetch: net.fetch }),
      );
      expect(code).toBe(exitCodes.usage);
      expect(err.text()).toMatch(item.says);
      expect(err.text()).not.toContain('hunter2');
      expect(err.text()).not.toContain(key);
      expect(net.calls).toEqual([]);
      expect(existsSync(db)).toBe(false);

      // The real entry point refuses it the same way, before it opens the database.
      const cliErr = capture();
      const cliCode = await withEnv({ T49_API_TOKEN: key, T49_API_BASE_URL: undefined, ...item.env }, () =>
        runCli(['sync', '--db', db, ...item.args], { out: capture().stream, err: cliErr.stream }),
      );
      expect(cliCode).toBe(exitCodes.usage);
      expect(cliErr.text()).toMatch(item.says);
      expect(existsSync(db)).toBe(false);
    });
  }
});

describe('http to this computer works, and a stored base URL the rule refuses never gets the key', () => {
  let sandbox: Sandbox;
  let proxy: HostileProxy;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 'base-url', shipments: 15, apiKeys: [key] });
    proxy = await startHostileProxy({ upstream: sandbox.url });
  });
  afterAll(async () => {
    await proxy.close();
    await sandbox.close();
  });

  it('syncs over http to a loopback service named by T49_API_BASE_URL', async () => {
    const db = join(tempDir(), 'loopback.sqlite');
    const out = capture();
    const before = proxy.requests.length;
    const code = await withEnv({ T49_API_TOKEN: key, T49_API_BASE_URL: proxy.url }, () =>
      runCli(['sync', '--db', db, '--json'], { out: out.stream, err: capture().stream }),
    );
    expect(code).toBe(exitCodes.ok);
    expect(JSON.parse(out.text())).toMatchObject({ status: 'ok', error: null });
    const status = capture();
    await runCli(['status', '--db', db, '--json'], { out: status.stream, err: capture().stream });
    expect(JSON.parse(status.text())).toMatchObject({ counts: { shipments: 15 } });
    const sent = proxy.requests.slice(before);
    expect(apiRequests(sent).length).toBeGreaterThan(0);
    expect(apiRequests(sent).every((r) => r.headers.authorization === `Token ${key}`)).toBe(true);
    // Document files come through presigned links: the key never goes with them.
    expect(sent.filter((r) => r.url.startsWith('/files/')).every((r) => r.headers.authorization === undefined)).toBe(
      true,
    );
  });

  it('loads a profile with an http base URL to another host as needs-key, and neither reads nor sends its key', async () => {
    const { dataDir, id } = dataDirWithProfile('http://tracking.example.invalid/v2');
    const net = recordingFetch();
    const keychain = memoryKeychain({ [id]: key });
    const { core } = testCore({ dataDir, fetch: net.fetch, secrets: { keychain: keychain.store } });

    const state = await value<ProfilesState>(core, 'profiles:list');
    expect(state.activeId).toBe(id);
    expect(state.profiles[0]).toMatchObject({
      keyStatus: 'needs-key',
      keyProblem: expect.stringMatching(/must use https.*will not send this profile's key there/),
    });
    const status = await syncNow(core, 'full');
    // The sync says why the key is not sent, not that there is none.
    expect(status).toMatchObject({ state: 'failed', error: state.profiles[0]!.keyProblem });
    // A new key alone is not sent to the refused address either: the field says why.
    const keyOnly = await failure(core, 'profiles:update', { id, apiKey: key });
    expect(keyOnly).toMatchObject({ code: 'invalid_argument', fields: { baseUrl: expect.stringMatching(/https/) } });
    expect(net.calls).toEqual([]);
    expect(keychain.binding.reads).not.toContain(id);

    // The CLI does not send it either, and says what the profile needs.
    const err = capture();
    const cliNet = recordingFetch();
    const code = await withEnv({ QUAYSIDE_DATA_DIR: dataDir, T49_API_TOKEN: undefined }, () =>
      runSync(
        ['--profile', 'Edited By Hand'],
        { out: capture().stream, err: err.stream },
        { fetch: cliNet.fetch, keychain: keychain.store },
      ),
    );
    expect(code).toBe(exitCodes.usage);
    expect(err.text()).toMatch(/from profile "Edited By Hand"\)\. The base URL must use https/);
    expect(cliNet.calls).toEqual([]);
    expect(keychain.binding.reads).not.toContain(id);
    await core.close();
  });

  it('works again once the profile is given an accepted base URL and its key: the next sync is complete', async () => {
    const { dataDir, id } = dataDirWithProfile('http://tracking.example.invalid/v2');
    const keychain = memoryKeychain({ [id]: key });
    const { core } = testCore({ dataDir, secrets: { keychain: keychain.store } });
    const updated = await value<{ profile: ProfileSummary }>(core, 'profiles:update', {
      id,
      baseUrl: proxy.url,
      apiKey: key,
    });
    expect(updated.profile).toMatchObject({ keyStatus: 'accepted', baseUrl: proxy.url });
    expect(updated.profile.keyProblem).toBeUndefined();
    expect(await syncNow(core, 'full')).toMatchObject<Partial<SyncStatus>>({ state: 'idle', error: null });
    expect(await value(core, 'shipments:count', { filters: {} })).toBe(15);
    await core.close();
  });

  it('refuses the same URLs in the profile form (IPC), before any request', async () => {
    const net = recordingFetch();
    const dataDir = join(tempDir(), 'fresh');
    mkdirSync(dataDir);
    const { core } = testCore({ dataDir, fetch: net.fetch });
    const add = await failure(core, 'profiles:add', { name: 'Plain', apiKey: key, baseUrl: 'http://example.invalid' });
    expect(add.code).toBe('invalid_argument');
    expect(add.message).toMatch(/must use https/);
    const validate = await failure(core, 'profiles:validateKey', {
      apiKey: key,
      baseUrl: 'https://me:pw@api.terminal49.com/v2',
    });
    expect(validate.message).toMatch(/user name or password/);
    expect(net.calls).toEqual([]);
    expect((await value<ProfilesState>(core, 'profiles:list')).profiles).toEqual([]);
    await core.close();
  });
});
