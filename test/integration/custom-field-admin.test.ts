/**
 * Settings → Custom fields through the core against a sandbox: a pick-list field created at the
 * service is a column and a filter of its list at once, values set on it filter the list; an
 * option and the field renamed show in the lists' chips and cells; a field deleted takes its values
 * with it here and at the service; a 422 from the service changes nothing here; offline says so.
 * A value is set on a tracking request as on shipments and containers.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { DemoService } from '../../src/core/core';
import type { Sandbox } from '../../src/sandbox/index';
import type { AdminDefinition } from '../../src/shared/custom-field-admin';
import type { CustomFieldDefinitionInfo, CustomFieldsOfRecord } from '../../src/shared/custom-fields';
import type { Page } from '../../src/shared/views';
import { failure, syncNow, testCore, value } from '../helpers/core';
import { startTestSandbox } from '../helpers/sandbox';

describe('custom field definitions edited from Settings', { timeout: 120_000 }, () => {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
  });

  /** A synced core whose demo account is a sandbox of our own. */
  async function synced(): Promise<{ core: ReturnType<typeof testCore>['core']; sandbox: () => Sandbox }> {
    let sandbox: Sandbox | undefined;
    const demo: DemoService = {
      async start() {
        sandbox = await startTestSandbox({ seed: 'cf-admin', shipments: 20, apiKeys: [randomUUID()] });
        const started = sandbox;
        return { url: started.url, apiKey: started.apiKeys[0]!, close: () => started.close() };
      },
    };
    const { core } = testCore({ demo });
    closing.push(() => core.close());
    expect(await syncNow(core, 'full')).toMatchObject({ state: 'idle', error: null });
    return { core, sandbox: () => sandbox! };
  }

  const atService = (sandbox: Sandbox, id: string) =>
    sandbox.store.world.customFieldDefinitions.find((d) => d.id === id) ?? null;

  it('creates a pick list that the containers list offers at once, renames it and its choice, and deletes it with its values', async () => {
    const { core, sandbox } = await synced();
    let changes = 0;
    const stop = core.events.subscribe((name) => {
      if (name === 'data:changed') changes++;
    });

    const created = await value<AdminDefinition>(core, 'customFields:createDefinition', {
      entityType: 'Container',
      name: 'Haulier',
      dataType: 'enum',
      options: ['Swift Haulage', 'Dockside Trucking'],
    });
    expect(created).toMatchObject({
      entityType: 'Container',
      apiSlug: 'haulier',
      name: 'Haulier',
      dataType: 'enum',
      valueCount: 0,
    });
    expect(created.options.map((o) => o.label)).toEqual(['Swift Haulage', 'Dockside Trucking']);
    expect(atService(sandbox(), created.id)).toMatchObject({ displayName: 'Haulier', dataType: 'enum' });
    expect(changes).toBe(1);

    // The containers list's columns and chips come from these: the new field is there with its choices.
    const listed = await value<CustomFieldDefinitionInfo[]>(core, 'customFields:definitions', {
      entityType: 'container',
    });
    expect(listed.find((f) => f.apiSlug === 'haulier')).toMatchObject({
      name: 'Haulier',
      options: [
        { value: 'Swift Haulage', label: 'Swift Haulage', count: 0 },
        { value: 'Dockside Trucking', label: 'Dockside Trucking', count: 0 },
      ],
    });

    // A value set on a container: the filter by the new field finds it, its cell shows the label.
    const page = await value<Page<{ id: string }>>(core, 'containers:list', { page: { limit: 2 } });
    const box = page.rows[0]!.id;
    await value(core, 'customFields:set', {
      entityType: 'container',
      id: box,
      apiSlug: 'haulier',
      value: 'Swift Haulage',
    });
    const filters = { customFields: { haulier: { kind: 'options', values: ['Swift Haulage'] } } };
    const filtered = await value<Page<{ id: string; customFields: Record<string, { text: string | null }> }>>(
      core,
      'containers:list',
      { filters, page: { limit: 10 } },
    );
    expect(filtered.rows.map((r) => [r.id, r.customFields.haulier?.text])).toEqual([[box, 'Swift Haulage']]);

    // Renamed: the field's name and the choice's label, here and at the service; the value keeps its choice.
    const renamed = await value<AdminDefinition>(core, 'customFields:renameDefinition', {
      id: created.id,
      name: 'Trucker',
    });
    expect(renamed).toMatchObject({ name: 'Trucker', apiSlug: 'haulier', valueCount: 1 });
    const swift = created.options[0]!;
    const relabelled = await value<AdminDefinition>(core, 'customFields:renameOption', {
      definitionId: created.id,
      optionId: swift.id,
      label: 'Swift Haulage Ltd',
    });
    expect(relabelled.options.map((o) => [o.value, o.label])).toEqual([
      ['Swift Haulage', 'Swift Haulage Ltd'],
      ['Dockside Trucking', 'Dockside Trucking'],
    ]);
    expect(atService(sandbox(), created.id)?.displayName).toBe('Trucker');
    const again = await value<CustomFieldDefinitionInfo[]>(core, 'customFields:definitions', {
      entityType: 'container',
    });
    expect(again.find((f) => f.apiSlug === 'haulier')).toMatchObject({
      name: 'Trucker',
      options: [
        { value: 'Swift Haulage', label: 'Swift Haulage Ltd', count: 1 },
        { value: 'Dockside Trucking', label: 'Dockside Trucking', count: 0 },
      ],
    });
    const cell = await value<Page<{ customFields: Record<string, { text: string | null }> }>>(core, 'containers:list', {
      filters,
      page: { limit: 10 },
    });
    expect(cell.rows.map((r) => r.customFields.haulier?.text)).toEqual(['Swift Haulage Ltd']);

    // A choice added and one deleted.
    const added = await value<AdminDefinition>(core, 'customFields:createOption', {
      definitionId: created.id,
      label: 'Harbour Freight',
    });
    expect(added.options.map((o) => o.label)).toEqual(['Swift Haulage Ltd', 'Dockside Trucking', 'Harbour Freight']);
    const dockside = created.options[1]!;
    const fewer = await value<AdminDefinition>(core, 'customFields:deleteOption', {
      definitionId: created.id,
      optionId: dockside.id,
    });
    expect(fewer.options.map((o) => o.label)).toEqual(['Swift Haulage Ltd', 'Harbour Freight']);

    // Deleted: here with its value, and at the service; the list no longer offers it.
    const deleted = await value(core, 'customFields:deleteDefinition', { id: created.id });
    expect(deleted).toEqual({ deleted: true, values: 1 });
    expect(atService(sandbox(), created.id)).toBeNull();
    const after = await value<CustomFieldDefinitionInfo[]>(core, 'customFields:definitions', {
      entityType: 'container',
    });
    expect(after.map((f) => f.apiSlug)).not.toContain('haulier');
    const admin = await value<AdminDefinition[]>(core, 'customFields:admin');
    expect(admin.map((d) => d.id)).not.toContain(created.id);
    const record = await value<CustomFieldsOfRecord>(core, 'customFields:ofRecord', {
      entityType: 'container',
      id: box,
    });
    expect(record.fields.map((f) => f.apiSlug)).not.toContain('haulier');
    expect(changes).toBe(7);
    stop();

    // The next sync on the same database agrees with what is kept.
    expect(await syncNow(core, 'full')).toMatchObject({ state: 'idle', error: null });
    expect(await value<AdminDefinition[]>(core, 'customFields:admin')).toEqual(admin);
  });

  it('changes nothing here when the service refuses, names the field, and says when it needs the network', async () => {
    const { core, sandbox } = await synced();
    const before = await value<AdminDefinition[]>(core, 'customFields:admin');
    const incoterm = before.find((d) => d.apiSlug === 'incoterm')!;
    expect(incoterm.valueCount).toBeGreaterThan(0);

    // Another admin added the same choice at the service since the last sync: the service answers 422.
    const definition = atService(sandbox(), incoterm.id)!;
    sandbox().store.customFields.addOption(definition, 'Free alongside ship', 'FAS', null);
    const taken = await failure(core, 'customFields:createOption', { definitionId: incoterm.id, label: 'FAS' });
    expect(taken).toMatchObject({ code: 'rejected', fields: { label: 'Value has already been taken' } });
    expect(taken.message).toBe('The Tracking API did not accept this: Value has already been taken');
    expect(await value(core, 'customFields:admin')).toEqual(before);

    // A value on a tracking request, as on shipments and containers.
    const request = sandbox().store.trackingRequests.find((r) => r.createdAt <= sandbox().clock.now())!;
    const saved = await value(core, 'customFields:set', {
      entityType: 'tracking_request',
      id: request.id,
      apiSlug: 'cost_centre',
      value: 'CC-4410',
    });
    expect(saved).toMatchObject({ apiSlug: 'cost_centre', value: 'CC-4410', displayValue: 'CC-4410' });
    expect(
      sandbox()
        .store.customFields.valuesOf({ type: 'tracking_request', rec: request })
        .find((v) => v.definition.apiSlug === 'cost_centre')?.value,
    ).toBe('CC-4410');

    // Offline: the service is gone; each change says it needs the connection and nothing changes.
    const kept = await value<AdminDefinition[]>(core, 'customFields:admin');
    await sandbox().close();
    const offline = [
      await failure(core, 'customFields:renameDefinition', { id: incoterm.id, name: 'Terms' }),
      await failure(core, 'customFields:deleteDefinition', { id: incoterm.id }),
      await failure(core, 'customFields:createDefinition', {
        entityType: 'Shipment',
        name: 'Seal',
        dataType: 'short_text',
      }),
      await failure(core, 'customFields:deleteOption', {
        definitionId: incoterm.id,
        optionId: incoterm.options[0]!.id,
      }),
    ];
    for (const error of offline) {
      expect(error.code).toBe('needs_connection');
      expect(error.message).toMatch(/^This needs a connection to the Tracking API.*Nothing was changed\.$/);
    }
    expect(await value(core, 'customFields:admin')).toEqual(kept);
  });
});
