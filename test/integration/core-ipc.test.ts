import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index';
import type { ContainerDetail, DashboardSummary, ProfilesState, ShipmentDetail } from '../../src/shared/types';
import type { Page } from '../../src/shared/views';
import type { ShipmentRow } from '../../src/shared/rows';
import { failure, syncNow, testCore, value } from '../helpers/core';
import { startTestSandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp-dir';

describe('demo mode through the IPC contract', () => {
  /** The save dialog's answer: the suggested name in exportDir, or null once cancelled. */
  let dialogCancelled = false;
  const { core, dataDir } = testCore({
    chooseExportPath: (name) => Promise.resolve(dialogCancelled ? null : join(exportDir, name)),
  });
  const exportDir = tempDir();
  afterAll(() => core.close());

  it('starts on demo data: syncs the in-process sandbox, then every view has something to show', async () => {
    expect(await value(core, 'app:info')).toMatchObject({ demo: true });
    expect((await syncNow(core, 'full')).state).toBe('idle');
    const count = await value<number>(core, 'shipments:count', { filters: {} });
    expect(count).toBe(60);
    const page = await value<Page<ShipmentRow>>(core, 'shipments:list', {
      sort: { field: 'eta', direction: 'asc' },
      page: { limit: 10 },
    });
    expect(page.rows).toHaveLength(10);
    const detail = await value<ShipmentDetail>(core, 'shipments:get', { id: page.rows[0]!.id });
    expect(detail.containers.length).toBeGreaterThan(0);
    expect(detail.containers[0]!.milestones.length).toBeGreaterThan(0);
    const summary = await value<DashboardSummary>(core, 'dashboard:summary');
    expect(summary.containersByStatus.reduce((n, b) => n + b.count, 0)).toBe(
      await value(core, 'containers:count', { filters: {} }),
    );
    const found = await value<{ shipments: ShipmentRow[] }>(core, 'shipments:search', {
      text: page.rows[0]!.billOfLading!.slice(-6),
    });
    expect(found.shipments.map((s) => s.id)).toContain(page.rows[0]!.id);
    expect(readdirSync(join(dataDir, 'demo'))).toContain('demo.sqlite');
  });

  it('fetches a container’s events on demand and serves them from the cache afterwards', async () => {
    const page = await value<Page<{ id: string }>>(core, 'containers:list', { page: { limit: 1 } });
    const fresh = await value<{ events: unknown[]; fromCache: boolean }>(core, 'containers:events', {
      id: page.rows[0]!.id,
      refresh: true,
    });
    expect(fresh.fromCache).toBe(false);
    const cached = await value<{ events: unknown[]; fromCache: boolean }>(core, 'containers:events', {
      id: page.rows[0]!.id,
    });
    expect(cached).toMatchObject({ fromCache: true, events: fresh.events });
    const detail = await value<ContainerDetail>(core, 'containers:get', { id: page.rows[0]!.id });
    expect(detail.eventsSyncedAt).not.toBeNull();
  });

  it('answers a container’s route map from the demo sync, and refuses a bad argument before it runs', async () => {
    const page = await value<Page<{ id: string }>>(core, 'containers:list', {
      filters: { statuses: ['in_transit'] },
      page: { limit: 100 },
    });
    const routes = await Promise.all(
      page.rows.map((row) => value<{ state: string }>(core, 'containers:route', { id: row.id })),
    );
    expect(routes.map((r) => r.state)).toContain('map');
    expect((await failure(core, 'containers:route', { id: '' })).code).toBe('invalid_argument');
  });

  it('exports exactly the rows of the filtered list', async () => {
    const filters = { statuses: ['in_transit', 'booked'] };
    const expected = await value<number>(core, 'containers:count', { filters });
    const result = await value<{ path: string; rows: number }>(core, 'export:list', { view: 'containers', filters });
    expect(result.rows).toBe(expected);
    const rows = parse<Record<string, string>>(readFileSync(result.path, 'utf8'), { bom: true, columns: true });
    expect(rows).toHaveLength(expected);
  });

  it('exports nothing when the save dialog is cancelled, and exports again after', async () => {
    const before = readdirSync(exportDir);
    dialogCancelled = true;
    expect(await value(core, 'export:list', { view: 'shipments' })).toEqual({ path: null, rows: 0, cancelled: true });
    expect(readdirSync(exportDir)).toEqual(before);
    dialogCancelled = false;
    const result = await value<{ path: string; rows: number }>(core, 'export:list', { view: 'shipments' });
    expect(result.rows).toBe(60);
  });
});

describe('profiles, keys and actions against the service', () => {
  const key = 'live-KEY-9f8e7d6c5b4a-QSX1';
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 'profiles', shipments: 40, apiKeys: [key] });
  });
  afterAll(() => sandbox.close());

  it('checks a key before saving: accepted, refused, or an address that does not answer (not saved)', async () => {
    const { core } = testCore();
    expect(await value(core, 'profiles:validateKey', { apiKey: key, baseUrl: sandbox.url })).toMatchObject({
      result: 'accepted',
    });
    expect(await value(core, 'profiles:validateKey', { apiKey: 'wrong-key-0000', baseUrl: sandbox.url })).toMatchObject(
      { result: 'refused' },
    );
    // Port 9 is one fetch never connects to. Unverified is only for a known-good address
    // (profiles-address.test.ts).
    expect(await value(core, 'profiles:validateKey', { apiKey: key, baseUrl: 'http://127.0.0.1:9/v2' })).toMatchObject({
      result: 'address-failed',
    });

    const refused = await failure(core, 'profiles:add', {
      name: 'Acme',
      apiKey: 'wrong-key-0000',
      baseUrl: sandbox.url,
    });
    expect(refused).toMatchObject({ code: 'key_refused', fields: { apiKey: expect.stringMatching(/refused/) } });
    expect((await value<ProfilesState>(core, 'profiles:list')).profiles).toEqual([]);

    const nowhere = await failure(core, 'profiles:add', {
      name: 'Later',
      apiKey: key,
      baseUrl: 'http://127.0.0.1:9/v2',
    });
    expect(nowhere).toMatchObject({
      code: 'invalid_argument',
      fields: { baseUrl: expect.stringMatching(/127\.0\.0\.1:9/) },
    });
    expect((await value<ProfilesState>(core, 'profiles:list')).profiles).toEqual([]);
    await core.close();
  });

  it('adds a profile, syncs it, acts on it, refuses actions offline without changing anything, and removes it', async () => {
    const { core, dataDir, logs } = testCore({ chooseExportPath: (name) => Promise.resolve(join(dataDir, name)) });
    const added = await value<{ profile: { id: string; keyLast4: string; keyStorage: string }; state: ProfilesState }>(
      core,
      'profiles:add',
      {
        name: 'Harbour Imports',
        apiKey: key,
        baseUrl: sandbox.url,
      },
    );
    expect(added.profile).toMatchObject({ keyLast4: 'QSX1', keyStorage: 'session' });
    expect(added.state.activeId).toBe(added.profile.id);
    expect(added.state.keyStorage.note).toMatch(/session/);
    expect(await value(core, 'app:info')).toMatchObject({ demo: false });
    expect((await syncNow(core, 'full')).state).toBe('idle');
    expect(await value(core, 'shipments:count', { filters: {} })).toBe(40);

    // A tracking request: checked here first, then by the service.
    const badScac = await failure(core, 'trackingRequests:create', {
      requestType: 'bill_of_lading',
      requestNumber: 'MEDU12345678',
      scac: 'ZZZZ',
    });
    expect(badScac).toMatchObject({
      code: 'invalid_argument',
      fields: { scac: expect.stringMatching(/not a carrier/) },
    });
    const badBox = await failure(core, 'trackingRequests:create', {
      requestType: 'container',
      requestNumber: 'MSCU1234560',
      scac: 'MSCU',
    });
    expect(badBox.fields?.requestNumber).toMatch(/check digit/);
    const unknownCustomer = await failure(core, 'trackingRequests:create', {
      requestType: 'bill_of_lading',
      requestNumber: 'MEDU77001122',
      scac: 'MSCU',
      customerId: 'no-such-party',
    });
    expect(unknownCustomer).toMatchObject({
      code: 'rejected',
      fields: { customerId: expect.stringMatching(/not found/) },
    });
    const created = await value<{ requestNumber: string; status: string }>(core, 'trackingRequests:create', {
      requestType: 'bill_of_lading',
      requestNumber: 'medu 7700 1122',
      scac: 'mscu',
    });
    expect(created).toMatchObject({ requestNumber: 'MEDU77001122', status: 'pending' });

    // Edit tags: the local row changes at once.
    const first = (await value<Page<ShipmentRow>>(core, 'shipments:list', { page: { limit: 1 } })).rows[0]!;
    const edited = await value<ShipmentRow>(core, 'shipments:update', { id: first.id, tags: ['hot', 'customs'] });
    expect(edited.tags).toEqual(['hot', 'customs']);
    expect((await value<ShipmentDetail>(core, 'shipments:get', { id: first.id })).shipment.tags).toEqual([
      'hot',
      'customs',
    ]);
    const stopped = await value<ShipmentRow>(core, 'shipments:stopTracking', { id: first.id });
    expect(stopped.trackingStoppedReason).toBe('cancelled_by_user');
    await value(core, 'shipments:resumeTracking', { id: first.id });

    // Export with the key in play, then look for the key everywhere it must not be.
    const exported = await value<{ path: string }>(core, 'export:list', { view: 'shipments', filters: {} });

    // Offline: the service is gone; views keep working, actions say so and change nothing.
    await sandbox.close();
    const offline = await failure(core, 'shipments:update', { id: first.id, tags: ['changed'] });
    expect(offline.code).toBe('needs_connection');
    expect((await value<ShipmentDetail>(core, 'shipments:get', { id: first.id })).shipment.tags).toEqual([
      'hot',
      'customs',
    ]);
    expect(await value(core, 'shipments:count', { filters: {} })).toBe(40);
    sandbox = await startTestSandbox({ seed: 'profiles', shipments: 40, apiKeys: [key] });

    const results = JSON.stringify([
      added,
      created,
      edited,
      stopped,
      await value(core, 'profiles:list'),
      await value(core, 'sync:history'),
    ]);
    expect(results).not.toContain(key);
    const profileDb = join(dataDir, 'profiles', `${added.profile.id}.sqlite`);
    for (const file of [
      profileDb,
      `${profileDb}-wal`,
      exported.path,
      join(dataDir, 'profiles.json'),
      join(dataDir, 'settings.json'),
    ]) {
      if (statSync(file, { throwIfNoEntry: false })) expect(readFileSync(file).includes(key), file).toBe(false);
    }
    expect(logs.join('\n')).not.toContain(key);

    const afterRemove = await value<ProfilesState>(core, 'profiles:remove', { id: added.profile.id, deleteData: true });
    expect(afterRemove).toMatchObject({ profiles: [], activeId: null });
    expect(statSync(profileDb, { throwIfNoEntry: false })).toBeUndefined();
    expect(await value(core, 'app:info')).toMatchObject({ demo: true });
    await core.close();
  });
});

describe('switching accounts and changing where the key goes', () => {
  const key = 'switch-KEY-0a1b2c3d4e5f-SW01';
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 'switch', shipments: 10, apiKeys: [key] });
  });
  afterAll(() => sandbox.close());

  it('opens exactly one session per switch, even while the views keep asking, and closes them all', async () => {
    const servers = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
    const before = servers();
    const { core } = testCore();
    await value(core, 'sync:status'); // the demo account: its sandbox starts in-process
    let polling = true;
    const poll = (async () => {
      while (polling) {
        await core.call('sync:status', undefined);
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const added = await value<{ state: ProfilesState }>(core, 'profiles:add', {
      name: 'Switch',
      apiKey: key,
      baseUrl: sandbox.url,
    });
    await value(core, 'profiles:switch', { id: null });
    await value(core, 'profiles:switch', { id: added.state.activeId });
    polling = false;
    await poll;
    await core.close();
    // A session opened behind a switch would leave its sandbox listening.
    expect(servers()).toBeLessThanOrEqual(before);
  });

  it('will not send the stored key to a new base URL unless the key is entered again, nor over http beyond this computer', async () => {
    const { core } = testCore();
    const added = await value<{ profile: { id: string } }>(core, 'profiles:add', {
      name: 'Guarded',
      apiKey: key,
      baseUrl: sandbox.url,
    });
    const moved = await failure(core, 'profiles:update', {
      id: added.profile.id,
      baseUrl: 'https://collector.example.com/v2',
    });
    expect(moved).toMatchObject({
      code: 'invalid_argument',
      fields: { apiKey: expect.stringMatching(/Enter the API key again/) },
    });
    const cleartext = await failure(core, 'profiles:validateKey', {
      apiKey: key,
      baseUrl: 'http://collector.example.com/v2',
    });
    expect(cleartext.code).toBe('invalid_argument');
    expect(cleartext.message).toMatch(/https/);
    expect(((await value<ProfilesState>(core, 'profiles:list')).profiles[0] as { baseUrl: string }).baseUrl).toBe(
      sandbox.url,
    );
    await core.close();
  });
});
