/**
 * The files settings.json and profiles.json carry a version. A newer Quayside's file is
 * refused with a sentence and never written over; an older one is upgraded; one that cannot be
 * read is kept beside the fresh one, renamed.
 */
import { defaultNotificationSettings } from '../../src/shared/alerts';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index';
import { exitCodes } from '../../src/cli/exit-codes';
import { ProfileStore, profilesFormat } from '../../src/core/profiles/profile-store';
import { SettingsStore, settingsFormat } from '../../src/core/settings-store';
import { readVersionedFile, type FileFormat } from '../../src/core/versioned-file';
import type { ProfilesState, Settings } from '../../src/shared/types';
import { z } from 'zod';
import { capture } from '../helpers/capture';
import { failure, testCore, value } from '../helpers/core';
import { tempDir } from '../helpers/temp-dir';

const profile = {
  id: '5f0c4a1e-0000-4000-8000-0000000000a1',
  name: 'Harbour desk',
  baseUrl: 'https://api.terminal49.com/v2',
  keyLast4: 'AB12',
  keyStatus: 'accepted',
  keyStorage: 'session',
  createdAt: '2026-03-01T08:00:00.000Z',
};

/** A profiles.json as a newer Quayside might write it: version 2, a member this one does not know. */
const newerProfiles = `${JSON.stringify(
  { version: 2, profiles: [{ ...profile, colour: 'teal' }], activeId: profile.id, workspaces: [] },
  null,
  2,
)}\n`;
const newerSentence =
  'profiles.json was written by a newer Quayside (version 2); update Quayside to use it. It has not been changed.';

function dataDirWith(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('profiles.json from a newer Quayside', () => {
  const dataDir = dataDirWith({ 'profiles.json': newerProfiles });
  // Offline (a mocked fetch): a key for the default address is saved unverified, so the add gets
  // as far as writing profiles.json.
  const offline = (() => Promise.reject(new TypeError('fetch failed'))) as typeof fetch;
  const { core } = testCore({ dataDir, fetch: offline });
  afterAll(() => core.close());

  it('is refused with a sentence the app shows, and stays byte-identical through add, update, remove and switch', async () => {
    const state = await value<ProfilesState>(core, 'profiles:list');
    expect(state.fileProblem).toBe(newerSentence);
    expect(state.profiles).toEqual([]);
    expect(state.activeId).toBeNull();

    // The key would be saved unverified; profiles.json refuses it.
    const added = await failure(core, 'profiles:add', { name: 'Second', apiKey: 'second-key-SECRET-1234' });
    expect(added.message).toBe(newerSentence);
    const updated = await failure(core, 'profiles:update', { id: profile.id, name: 'Renamed' });
    expect(updated.code).toBe('not_found');
    const removed = await failure(core, 'profiles:remove', { id: profile.id, deleteData: false });
    expect(removed.code).toBe('not_found');
    const switched = await failure(core, 'profiles:switch', { id: null });
    expect(switched.message).toBe(newerSentence);

    expect(readFileSync(join(dataDir, 'profiles.json'), 'utf8')).toBe(newerProfiles);
    expect(readdirSync(dataDir).filter((name) => name.startsWith('profiles.json'))).toEqual(['profiles.json']);
  });

  it('refuses every write of the store itself, naming the version', () => {
    const store = new ProfileStore(dataDir);
    expect(store.refusal).toBe(newerSentence);
    expect(() => store.add({ ...profile, keyStatus: 'accepted', keyStorage: 'session' })).toThrow(newerSentence);
    expect(() => store.update(profile.id, { name: 'x' })).toThrow(newerSentence);
    expect(() => store.remove(profile.id)).toThrow(newerSentence);
    expect(() => store.setActive(null)).toThrow(newerSentence);
    expect(readFileSync(join(dataDir, 'profiles.json'), 'utf8')).toBe(newerProfiles);
  });

  it('makes `quayside sync --profile` print the sentence and exit 1, sending nothing', async () => {
    const saved = { ...process.env };
    process.env.QUAYSIDE_DATA_DIR = dataDir;
    process.env.T49_API_TOKEN = 'not-used-SECRET-0000';
    const out = capture();
    const err = capture();
    try {
      const code = await runCli(['sync', '--profile', 'Harbour desk'], { out: out.stream, err: err.stream });
      expect(code).toBe(exitCodes.failure);
      expect(code).toBe(1);
      expect(err.text()).toBe(`${newerSentence}\n`);
      expect(out.text()).toBe('');
    } finally {
      process.env = saved;
    }
    expect(readFileSync(join(dataDir, 'profiles.json'), 'utf8')).toBe(newerProfiles);
  });
});

describe('settings.json from a newer Quayside', () => {
  const newerSettings = `${JSON.stringify({ version: 6, theme: 'dark', accent: 'teal' })}\n`;
  const dataDir = dataDirWith({ 'settings.json': newerSettings });
  const { core } = testCore({ dataDir });
  afterAll(() => core.close());

  it('is refused with a sentence, defaults are used, and a change is refused rather than written', async () => {
    const sentence =
      'settings.json was written by a newer Quayside (version 6); update Quayside to use it. It has not been changed.';
    const settings = await value<Settings>(core, 'settings:get');
    expect(settings).toMatchObject({ theme: 'system', fileProblem: sentence });
    const refused = await failure(core, 'settings:update', { theme: 'light' });
    expect(refused).toMatchObject({ code: 'storage', message: sentence });
    expect(readFileSync(join(dataDir, 'settings.json'), 'utf8')).toBe(newerSettings);
  });
});

describe('older files', () => {
  it('have one upgrade per version below the current one, for each file', () => {
    for (const format of [profilesFormat, settingsFormat]) {
      expect(format.upgrades, format.name).toHaveLength(format.version - 1);
      expect(format.unversioned, format.name).toBeLessThanOrEqual(format.version);
    }
  });

  it('reads a settings.json written before files carried a version, and writes the version on the next save', () => {
    const dataDir = dataDirWith({ 'settings.json': JSON.stringify({ theme: 'dark', syncIntervalMinutes: 30 }) });
    const store = new SettingsStore(dataDir);
    const noRates = { currency: 'USD', sets: [] };
    const documentFiles = { maxFileMb: 25, maxTotalMb: 2048 };
    expect(store.get()).toEqual({
      theme: 'dark',
      timeDisplay: 'local',
      syncIntervalMinutes: 30,
      rates: noRates,
      documentFiles,
      changeRetentionDays: 180,
      terminalStaleHours: 24,
      notifications: defaultNotificationSettings,
    });
    expect(store.problem).toBeNull();
    store.update({ timeDisplay: 'port' });
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toEqual({
      version: 5,
      theme: 'dark',
      timeDisplay: 'port',
      syncIntervalMinutes: 30,
      rates: noRates,
      documentFiles,
      changeRetentionDays: 180,
      terminalStaleHours: 24,
      notifications: defaultNotificationSettings,
    });
    expect(new SettingsStore(dataDir).get()).toEqual({
      theme: 'dark',
      timeDisplay: 'port',
      syncIntervalMinutes: 30,
      rates: noRates,
      documentFiles,
      changeRetentionDays: 180,
      terminalStaleHours: 24,
      notifications: defaultNotificationSettings,
    });
  });

  it('upgrades a version-1 settings.json to version 2 with no rates, and keeps rates through a restart', () => {
    const v1 = { version: 1, theme: 'light', timeDisplay: 'port', syncIntervalMinutes: 60 };
    const dataDir = dataDirWith({ 'settings.json': JSON.stringify(v1) });
    const store = new SettingsStore(dataDir);
    expect(store.get()).toEqual({
      ...v1,
      version: undefined,
      rates: { currency: 'USD', sets: [] },
      documentFiles: { maxFileMb: 25, maxTotalMb: 2048 },
      changeRetentionDays: 180,
      terminalStaleHours: 24,
      notifications: defaultNotificationSettings,
    });
    // Nothing is written until a change.
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toEqual(v1);
    const rates = {
      currency: 'EUR',
      sets: [
        {
          scope: 'default' as const,
          match: '',
          demurrage: [
            { fromDay: 1, perDay: 150 },
            { fromDay: 5, perDay: 250 },
          ],
          detention: { freeDays: 4, tiers: [{ fromDay: 1, perDay: 90.5 }] },
        },
      ],
    };
    store.update({ rates });
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toMatchObject({ version: 5, rates });
    expect(new SettingsStore(dataDir).get().rates).toEqual(rates);
  });

  it('applies the upgrade chain in order, from the version on disk to the current one', () => {
    const dir = dataDirWith({ 'thing.json': JSON.stringify({ version: 1, name: 'Acme' }) });
    const calls: string[] = [];
    const format: FileFormat<{ version: 3; company: { name: string }; tags: string[] }> = {
      name: 'thing.json',
      version: 3,
      unversioned: 1,
      upgrades: [
        (v1) => (calls.push('1→2'), { company: { name: v1.name } }),
        (v2) => (calls.push('2→3'), { ...v2, tags: [] }),
      ],
      schema: z.object({ version: z.literal(3), company: z.object({ name: z.string() }), tags: z.array(z.string()) }),
    };
    expect(readVersionedFile(join(dir, 'thing.json'), format)).toEqual({
      kind: 'read',
      data: { version: 3, company: { name: 'Acme' }, tags: [] },
      upgradedFrom: 1,
    });
    expect(calls).toEqual(['1→2', '2→3']);
    writeFileSync(join(dir, 'thing.json'), JSON.stringify({ version: 2, company: { name: 'Acme' } }));
    calls.length = 0;
    expect(readVersionedFile(join(dir, 'thing.json'), format)).toMatchObject({ kind: 'read', upgradedFrom: 2 });
    expect(calls).toEqual(['2→3']);
  });

  it('keeps a version-1 profiles.json as it is', () => {
    const text = `${JSON.stringify({ version: 1, profiles: [profile], activeId: profile.id }, null, 2)}\n`;
    const dataDir = dataDirWith({ 'profiles.json': text });
    const store = new ProfileStore(dataDir);
    expect(store.list().map((p) => p.name)).toEqual(['Harbour desk']);
    expect(store.activeId).toBe(profile.id);
    expect(store.problem).toBeNull();
    store.update(profile.id, { name: 'Harbour desk' });
    expect(readFileSync(join(dataDir, 'profiles.json'), 'utf8')).toBe(text);
  });
});

describe('a profiles.json or settings.json that cannot be read', () => {
  it('starts with no profiles, says so, and keeps the file renamed beside the fresh one', () => {
    const damaged = '{"version":1,"profiles":[{"id":"x", "name": "Cut off';
    const dataDir = dataDirWith({ 'profiles.json': damaged });
    const logs: string[] = [];
    const store = new ProfileStore(dataDir, (line) => logs.push(line));
    expect(store.list()).toEqual([]);
    expect(store.refusal).toBeNull();
    expect(store.problem).toMatch(
      /^profiles\.json could not be read \(it is not JSON\), so Quayside started with no profiles/,
    );
    expect(readFileSync(join(dataDir, 'profiles.json'), 'utf8')).toBe(damaged);

    store.add({
      name: 'Fresh',
      baseUrl: profile.baseUrl,
      keyLast4: 'CD34',
      keyStatus: 'accepted',
      keyStorage: 'session',
    });
    const aside = readdirSync(dataDir).filter((name) => name.startsWith('profiles.json.unreadable-'));
    expect(aside).toHaveLength(1);
    expect(aside[0]).toMatch(/^profiles\.json\.unreadable-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/);
    expect(readFileSync(join(dataDir, aside[0]!), 'utf8')).toBe(damaged);
    expect(logs.join('\n')).toContain(`kept as ${aside[0]}`);
    expect(store.problem).toContain(`it is kept as ${aside[0]}`);
    expect(new ProfileStore(dataDir).list().map((p) => p.name)).toEqual(['Fresh']);

    // A second save does not move the fresh file aside.
    store.add({
      name: 'Other',
      baseUrl: profile.baseUrl,
      keyLast4: 'EF56',
      keyStatus: 'accepted',
      keyStorage: 'session',
    });
    expect(readdirSync(dataDir).filter((name) => name.startsWith('profiles.json.unreadable-'))).toHaveLength(1);
  });

  it('keeps a profiles.json of the right version but the wrong shape, and a damaged settings.json, the same way', () => {
    const wrongShape = JSON.stringify({ version: 1, profiles: 'none' });
    const damagedSettings = JSON.stringify({ theme: 'purple' });
    const dataDir = dataDirWith({ 'profiles.json': wrongShape, 'settings.json': damagedSettings });
    const profiles = new ProfileStore(dataDir);
    profiles.setActive(null);
    const settings = new SettingsStore(dataDir);
    expect(settings.get().theme).toBe('system');
    settings.update({ theme: 'dark' });
    const names = readdirSync(dataDir).sort();
    const profilesAside = names.find((n) => n.startsWith('profiles.json.unreadable-'))!;
    const settingsAside = names.find((n) => n.startsWith('settings.json.unreadable-'))!;
    expect(readFileSync(join(dataDir, profilesAside), 'utf8')).toBe(wrongShape);
    expect(readFileSync(join(dataDir, settingsAside), 'utf8')).toBe(damagedSettings);
    expect(new SettingsStore(dataDir).get().theme).toBe('dark');
  });
});
