/**
 * Custom fields end to end. One sync stores the definitions, the options of
 * pick-list fields and the values on shipments, containers and tracking requests; the CLI
 * exports them as `cf.<api_slug>` columns; when the service's `/custom_fields` list answers 500
 * the sync goes on and says so once, and a record's values are read through its own endpoint
 * when it is opened; values are set through the per-record endpoints, a refusal changing nothing.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index';
import { exitCodes } from '../../src/cli/exit-codes';
import type { DemoService } from '../../src/core/core';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/index';
import type { CustomFieldsOfRecord } from '../../src/shared/custom-fields';
import { capture } from '../helpers/capture';
import { failure, syncNow, testCore, value } from '../helpers/core';
import { startTestSandbox, useSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';
import { tempDir } from '../helpers/temp-dir';

type EntityType = 'shipment' | 'container' | 'tracking_request';

/** What the sandbox holds for a record type right now: "<record id>:<api_slug>" → display value. */
function sandboxValues(sandbox: Sandbox, type: EntityType): Map<string, string | null> {
  const book = sandbox.store.customFields;
  return new Map(
    [...book.all(type, sandbox.clock.now())].map((v) => [
      `${v.entity.rec.id}:${v.definition.apiSlug}`,
      book.displayValue(v),
    ]),
  );
}

describe('custom fields synced and exported', { timeout: 90_000 }, () => {
  const sandbox = useSandbox({ seed: 'custom-fields', shipments: 40 });

  it('stores definitions, options and the values of every record type in one sync, and the CLI exports cf.<api_slug>', async () => {
    const sync = syncOf(sandbox.get());
    try {
      const summary = await sync.engine.run({ mode: 'full' });
      expect(summary).toMatchObject({ status: 'ok' });
      expect(summary.notices).toBeUndefined();
      for (const type of ['shipment', 'container', 'tracking_request'] as const) {
        const stored = sync.db
          .prepare<[string], { entity_id: string; api_slug: string; display_value: string | null }>(
            `SELECT e.text AS entity_id, a.text AS api_slug, v.display_value FROM custom_fields v
               JOIN interned e ON e.key = v.entity_key JOIN interned a ON a.key = v.api_slug_key
              WHERE v.entity_type_key = (SELECT key FROM interned WHERE text = ?)`,
          )
          .all(type);
        const expected = sandboxValues(sandbox.get(), type);
        expect(expected.size).toBeGreaterThan(0);
        expect(new Map(stored.map((r) => [`${r.entity_id}:${r.api_slug}`, r.display_value]))).toEqual(expected);
      }
      const options = sync.db
        .prepare<[], { value: string; slug: string }>(
          `SELECT o.value AS value, d.api_slug AS slug FROM custom_field_options o
             JOIN custom_field_definitions d ON d.id = o.definition_id ORDER BY o.position`,
        )
        .all();
      expect(options).toEqual(
        ['EXW', 'FCA', 'FOB', 'CFR', 'CIF', 'DAP', 'DDP'].map((value) => ({ value, slug: 'incoterm' })),
      );
    } finally {
      sync.close();
    }

    const out = join(tempDir(), 'shipments.csv');
    const stdout = capture();
    const stderr = capture();
    const code = await runCli(
      ['export', 'shipments', '--db', sync.dbPath, '--out', out, '--columns', 'number,cf.po_number'],
      { out: stdout.stream, err: stderr.stream },
    );
    expect(stderr.text()).toBe('');
    expect(code).toBe(exitCodes.ok);
    const rows: string[][] = parse(readFileSync(out, 'utf8'), { bom: true, record_delimiter: '\r\n' });
    expect(rows[0]).toEqual(['Bill of lading', 'PO number']);
    const now = sandbox.get().clock.now();
    const shipments = sandbox.get().store.shipments.filter((s) => s.createdAt <= now);
    const poOf = new Map(
      shipments.map((s) => [
        s.billOfLading,
        sandbox
          .get()
          .store.customFields.valuesOf({ type: 'shipment', rec: s })
          .find((v) => v.definition.apiSlug === 'po_number')?.value ?? '',
      ]),
    );
    expect(rows.slice(1)).toHaveLength(shipments.length);
    for (const [bl, po] of rows.slice(1)) expect(po).toBe(poOf.get(bl!));
    expect(rows.slice(1).filter(([, po]) => po !== '').length).toBeGreaterThan(0);

    const unknown = capture();
    const refused = await runCli(
      ['export', 'shipments', '--db', sync.dbPath, '--out', out, '--columns', 'number,cf.no_such_field'],
      { out: capture().stream, err: unknown.stream },
    );
    expect(refused).toBe(exitCodes.validation);
    expect(unknown.text()).toContain('cf.no_such_field');
    expect(unknown.text()).toContain('cf.po_number');
  });
});

describe('custom fields when the service cannot list them', { timeout: 120_000 }, () => {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
  });

  /** A core whose demo account is a sandbox of our own, `/custom_fields` answering as told. */
  function coreWith(options: SandboxOptions): { core: ReturnType<typeof testCore>; sandbox: () => Sandbox } {
    let sandbox: Sandbox | undefined;
    const demo: DemoService = {
      async start() {
        // A key of its own: the client keeps one limiter per key per process, and each test syncs anew.
        sandbox = await startTestSandbox({ seed: 'cf-fallback', shipments: 20, apiKeys: [randomUUID()], ...options });
        const started = sandbox;
        return { url: started.url, apiKey: started.apiKeys[0]!, close: () => started.close() };
      },
    };
    const made = testCore({ demo });
    closing.push(() => made.core.close());
    return {
      core: made,
      sandbox: () => {
        if (!sandbox) throw new Error('the demo service has not started');
        return sandbox;
      },
    };
  }

  it('syncs the rest, says so once, and reads an opened record through its own endpoint', async () => {
    const { core: made, sandbox } = coreWith({ failingPaths: { '/custom_fields': '500' } });
    const { core, logs } = made;
    expect(await syncNow(core, 'full')).toMatchObject({ state: 'idle', error: null });
    const said = () => logs.filter((l) => l.includes('could not list the custom field values of shipments'));
    expect(said()).toHaveLength(1);
    expect(await syncNow(core, 'full')).toMatchObject({ state: 'idle', error: null });
    expect(said()).toHaveLength(1);

    const now = sandbox().clock.now();
    const shipment = sandbox().store.shipments.find(
      (s) =>
        s.createdAt <= now &&
        sandbox()
          .store.customFields.valuesOf({ type: 'shipment', rec: s })
          .some((v) => v.definition.apiSlug === 'po_number'),
    )!;
    const po = sandbox()
      .store.customFields.valuesOf({ type: 'shipment', rec: shipment })
      .find((v) => v.definition.apiSlug === 'po_number')!.value;
    const opened = await value<CustomFieldsOfRecord>(core, 'customFields:ofRecord', {
      entityType: 'shipment',
      id: shipment.id,
    });
    expect(opened.notice).toContain('could not list custom field values of shipments');
    expect(opened.fields.find((f) => f.apiSlug === 'po_number')).toMatchObject({ name: 'PO number', value: po });
    expect(opened.fields.find((f) => f.apiSlug === 'incoterm')?.options.map((o) => o.value)).toEqual([
      'EXW',
      'FCA',
      'FOB',
      'CFR',
      'CIF',
      'DAP',
      'DDP',
    ]);

    // Once the list answers again, the next walk of it (daily, or a full sync) reads it and the notice goes.
    sandbox().failPath('/custom_fields', null);
    expect(await syncNow(core, 'full')).toMatchObject({ state: 'idle', error: null });
    const again = await value<CustomFieldsOfRecord>(core, 'customFields:ofRecord', {
      entityType: 'shipment',
      id: shipment.id,
    });
    expect(again.notice).toBeNull();
  });

  it('sets a value through the record endpoint, and a value the service refuses changes nothing', async () => {
    const { core: made, sandbox } = coreWith({});
    const { core } = made;
    expect(await syncNow(core, 'full')).toMatchObject({ state: 'idle', error: null });
    const now = sandbox().clock.now();
    const container = sandbox().store.containers.find((c) => c.createdAt <= now)!;
    const saved = await value(core, 'customFields:set', {
      entityType: 'container',
      id: container.id,
      apiSlug: 'pallet_count',
      value: 17,
    });
    expect(saved).toMatchObject({ apiSlug: 'pallet_count', value: 17, displayValue: '17' });
    expect(
      sandbox()
        .store.customFields.valuesOf({ type: 'container', rec: container })
        .find((v) => v.definition.apiSlug === 'pallet_count')?.value,
    ).toBe(17);

    const shipment = sandbox().store.shipments.find((s) => s.createdAt <= now)!;
    const before = await value<CustomFieldsOfRecord>(core, 'customFields:ofRecord', {
      entityType: 'shipment',
      id: shipment.id,
    });
    const refused = await failure(core, 'customFields:set', {
      entityType: 'shipment',
      id: shipment.id,
      apiSlug: 'incoterm',
      value: 'XYZ',
    });
    expect(refused.message).toContain('must be one of EXW');
    const after = await value<CustomFieldsOfRecord>(core, 'customFields:ofRecord', {
      entityType: 'shipment',
      id: shipment.id,
    });
    expect(after.fields).toEqual(before.fields);

    // Ctrl+K finds a record by a custom field value, saying which field matched.
    await value(core, 'customFields:set', {
      entityType: 'shipment',
      id: shipment.id,
      apiSlug: 'po_number',
      value: 'PO-SEARCH-4711',
    });
    const found = await value<{ shipments: { id: string; matched: { field: string } | null }[] }>(
      core,
      'shipments:search',
      { text: 'search-4711' },
    );
    expect(found.shipments.map((s) => [s.id, s.matched?.field])).toEqual([[shipment.id, 'PO number']]);

    // Cleared: gone at the service and here.
    await value(core, 'customFields:set', {
      entityType: 'container',
      id: container.id,
      apiSlug: 'pallet_count',
      value: null,
    });
    const cleared = await value<CustomFieldsOfRecord>(core, 'customFields:ofRecord', {
      entityType: 'container',
      id: container.id,
    });
    expect(cleared.fields.find((f) => f.apiSlug === 'pallet_count')).toMatchObject({ value: null, displayValue: null });
  });
});
