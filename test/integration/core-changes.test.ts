/**
 * The change history through the IPC contract: the Changes view's reads (a
 * period, kinds, customers, carriers, pages), one shipment's ETA history, "mark as looked", the
 * CSV export with its cells hardened, the retention setting and its prune after a sync, and
 * arguments refused before any handler runs.
 */
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index';
import type { ChangeRow, ChangesCount } from '../../src/shared/changes';
import type { Settings } from '../../src/shared/types';
import type { Page } from '../../src/shared/views';
import { failure, syncNow, testCore, value } from '../helpers/core';
import { tempDir } from '../helpers/temp-dir';

describe('change history through the IPC contract', () => {
  let sandbox: Sandbox;
  const exportDir = tempDir();
  // A key of this file's own: the client keeps one limiter per key per process.
  const apiKey = `changes-${randomUUID()}`;
  const { core, dataDir } = testCore({
    chooseExportPath: (name) => Promise.resolve(join(exportDir, name)),
    demo: { start: () => Promise.resolve({ url: sandbox.url, apiKey, close: () => Promise.resolve() }) },
  });
  const database = () => new Database(join(dataDir, 'demo', 'demo.sqlite'));

  beforeAll(async () => {
    sandbox = await startSandbox({
      seed: 'core-changes',
      shipments: 30,
      apiKeys: [apiKey],
      start: Date.parse('2026-03-02T09:00:00Z'),
      tick: 0,
      routing: false,
    });
    expect((await syncNow(core, 'full')).state).toBe('idle');
    sandbox.advance(4 * 86_400);
    expect((await syncNow(core, 'incremental')).state).toBe('idle');
  });
  afterAll(async () => {
    await core.close();
    await sandbox.close();
  });

  const count = (filters: object) => value<ChangesCount>(core, 'changes:count', { filters });
  const list = (arg: object) => value<Page<ChangeRow>>(core, 'changes:list', arg);

  it('pages every change since the last look, newest first, and filters by kind, customer and carrier', async () => {
    const all = await count({ period: 'since_looked' });
    expect(all).toMatchObject({ from: null, to: null, lookedAt: null, retentionDays: 180 });
    expect(all.count).toBeGreaterThan(5);
    // Pages of 4 add up to the count, newest first, none twice.
    const seen: ChangeRow[] = [];
    let after: string | undefined;
    do {
      const page = await list({ filters: { period: 'since_looked' }, page: { limit: 4, ...(after ? { after } : {}) } });
      seen.push(...page.rows);
      after = page.next ?? undefined;
    } while (after);
    expect(seen).toHaveLength(all.count);
    expect(new Set(seen.map((c) => c.id)).size).toBe(all.count);
    expect(seen.map((c) => c.seenAt)).toEqual(
      seen
        .map((c) => c.seenAt)
        .sort()
        .reverse(),
    );

    const status = await list({ filters: { fields: ['status'] }, page: { limit: 500 } });
    expect(status.rows.length).toBeGreaterThan(0);
    expect(status.rows.every((c) => c.field === 'status' && c.resource === 'container')).toBe(true);
    expect((await count({ fields: ['status'] })).count).toBe(status.rows.length);

    const customer = seen.find((c) => c.customer !== null)!.customer!;
    const byCustomer = await list({ filters: { customers: [customer] }, page: { limit: 500 } });
    expect(byCustomer.rows.length).toBe(seen.filter((c) => c.customer === customer).length);
    const carrier = seen[0]!.carrierScac!;
    const byCarrier = await list({ filters: { carriers: [carrier], fields: ['status', 'eta'] }, page: { limit: 500 } });
    expect(byCarrier.rows.map((c) => c.id).sort()).toEqual(
      seen
        .filter((c) => c.carrierScac === carrier && ['status', 'eta'].includes(c.field))
        .map((c) => c.id)
        .sort(),
    );
    // A custom range that ends before the second sync holds nothing.
    expect((await count({ period: 'range', to: '2000-01-01T00:00:00Z' })).count).toBe(0);
  });

  it('answers one shipment’s ETA history, oldest first', async () => {
    const eta = (await list({ filters: { fields: ['eta'] }, page: { limit: 1 } })).rows[0]!;
    const history = await value<ChangeRow[]>(core, 'changes:forRecord', { id: eta.recordId, fields: ['eta'] });
    expect(history.map((c) => c.field)).toEqual(history.map(() => 'eta'));
    expect(history.at(-1)).toMatchObject({ id: eta.id, old: eta.old, new: eta.new });
    expect(history.map((c) => c.seenAt)).toEqual(history.map((c) => c.seenAt).sort());
  });

  it('marks everything looked at: "since I last looked" is then empty, the last 7 days still hold it', async () => {
    const before = await count({ period: 'last_7_days' });
    const events: string[] = [];
    const stop = core.events.subscribe((event) => events.push(event));
    const { lookedAt } = await value<{ lookedAt: string }>(core, 'changes:markLooked');
    stop();
    expect(events).toContain('data:changed');
    expect(await count({ period: 'since_looked' })).toMatchObject({ count: 0, lookedAt, from: lookedAt });
    expect((await count({ period: 'last_7_days' })).count).toBe(before.count);
  });

  it('exports the filtered changes to CSV, hostile text neutralised', async () => {
    const db = database();
    db.prepare(
      `INSERT INTO record_changes (resource, record_id, shipment_id, field, old_value, new_value, seen_at)
       VALUES ('shipment', 'x', NULL, 'vessel', '"MSC Aurora"', ?, ?)`,
    ).run(JSON.stringify('=HYPERLINK("http://evil.example","Click")'), new Date().toISOString());
    db.close();
    const expected = (await count({ period: 'last_7_days' })).count;
    const result = await value<{ path: string; rows: number }>(core, 'export:changes', {
      filters: { period: 'last_7_days' },
    });
    expect(result.rows).toBe(expected);
    const rows = parse<Record<string, string>>(readFileSync(result.path, 'utf8'), { bom: true, columns: true });
    expect(rows).toHaveLength(expected);
    expect(Object.keys(rows[0]!)).toEqual([
      'Seen (UTC)',
      'Record',
      'Number',
      'Bill of lading',
      'Change',
      'Field',
      'Hold type',
      'Was',
      'Now',
      'Customer',
      'Carrier SCAC',
      'Record id',
    ]);
    expect(rows[0]).toMatchObject({
      Change: 'Vessel',
      Was: 'MSC Aurora',
      Now: `'=HYPERLINK("http://evil.example","Click")`,
    });
    const statusRow = rows.find((r) => r.Field === 'status')!;
    expect(statusRow.Record).toBe('Container');
    expect(statusRow.Now).toMatch(/^[A-Z][a-z]/); // a status in words, not its code
    const only = await value<{ rows: number }>(core, 'export:changes', {
      filters: { period: 'last_7_days', fields: ['status'] },
    });
    expect(only.rows).toBe((await count({ period: 'last_7_days', fields: ['status'] })).count);
  });

  it('lists an ETA cleared by the arrival given in the same sync as the arrival alone, as the view and its export', async () => {
    const db = database();
    const insert = db.prepare(
      `INSERT INTO record_changes (resource, record_id, shipment_id, field, old_value, new_value, seen_at)
       VALUES ('shipment', ?, NULL, ?, ?, ?, ?)`,
    );
    const seen = new Date().toISOString();
    const later = new Date(Date.now() + 1000).toISOString();
    const eta = JSON.stringify('2026-03-20T08:00:00Z');
    const ata = JSON.stringify('2026-03-20T09:30:00Z');
    insert.run('fold-arrived', 'eta', eta, null, seen);
    insert.run('fold-arrived', 'ata', null, ata, seen);
    // Cleared in a sync that gave no arrival: an ETA gone, listed as such.
    insert.run('fold-gone', 'eta', eta, null, seen);
    // The arrival one sync, the ETA cleared the next: two events.
    insert.run('fold-late', 'ata', null, ata, seen);
    insert.run('fold-late', 'eta', eta, null, later);
    db.close();

    const filters = { period: 'last_7_days', fields: ['eta', 'ata'] };
    const rows = (await list({ filters, page: { limit: 500 } })).rows.filter((c) => c.recordId.startsWith('fold-'));
    expect(rows.map((c) => [c.recordId, c.field]).sort()).toEqual([
      ['fold-arrived', 'ata'],
      ['fold-gone', 'eta'],
      ['fold-late', 'ata'],
      ['fold-late', 'eta'],
    ]);
    const shown = (await list({ filters, page: { limit: 500 } })).rows.length;
    expect((await count(filters)).count).toBe(shown);
    const result = await value<{ path: string; rows: number }>(core, 'export:changes', { filters });
    expect(result.rows).toBe(shown);
    const csv = parse<Record<string, string>>(readFileSync(result.path, 'utf8'), { bom: true, columns: true });
    expect(csv.filter((r) => r['Record id'] === 'fold-arrived')).toEqual([
      expect.objectContaining({ Field: 'ata', Was: '', Now: '2026-03-20T09:30:00Z' }),
    ]);
    // The record's own history keeps every change as recorded (its page tells them together).
    const own = await value<ChangeRow[]>(core, 'changes:forRecord', { id: 'fold-arrived' });
    expect(own.map((c) => c.field).sort()).toEqual(['ata', 'eta']);
  });

  it('keeps changes as long as the retention setting says, pruning older ones after a sync', async () => {
    expect((await failure(core, 'settings:update', { changeRetentionDays: 0 })).code).toBe('invalid_argument');
    const settings = await value<Settings>(core, 'settings:update', { changeRetentionDays: 30 });
    expect(settings.changeRetentionDays).toBe(30);
    expect((await count({ period: 'range' })).retentionDays).toBe(30);
    const db = database();
    const kept = db.prepare('SELECT count(*) FROM record_changes').pluck().get() as number;
    db.prepare('UPDATE record_changes SET seen_at = ? WHERE id IN (SELECT id FROM record_changes LIMIT 3)').run(
      new Date(Date.now() - 31 * 86_400_000).toISOString(),
    );
    db.close();
    expect((await syncNow(core, 'incremental')).state).toBe('idle');
    const after = database();
    expect(after.prepare('SELECT count(*) FROM record_changes').pluck().get()).toBe(kept - 3);
    after.close();
  });

  it('refuses bad arguments before any handler runs', async () => {
    for (const [channel, arg] of [
      ['changes:list', { filters: { period: 'someday' } }],
      ['changes:list', { filters: { from: 'yesterday', period: 'range' } }],
      ['changes:count', { filters: { fields: ['colour'] } }],
      ['changes:forRecord', { id: '' }],
      ['changes:markLooked', { at: '2026-01-01T00:00:00Z' }],
      ['export:changes', { filters: { customers: 'Acme' } }],
    ] as const) {
      expect((await failure(core, channel, arg)).code, `${channel} ${JSON.stringify(arg)}`).toBe('invalid_argument');
    }
  });
});
