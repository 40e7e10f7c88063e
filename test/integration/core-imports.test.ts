import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core';
import { startSandbox, type Sandbox } from '../../src/sandbox/index';
import { containerCheckDigit } from '../../src/shared/identifiers';
import type { ImportProgressEvent, ImportState, ImportTable } from '../../src/shared/imports';
import { failure, syncNow, testCore, value } from '../helpers/core';
import { tempDir } from '../helpers/temp-dir';

function container(owner: string, serial: number): string {
  const first10 = `${owner}${String(serial).padStart(6, '0')}`;
  return `${first10}${containerCheckDigit(first10)}`;
}

/** Resolves with the first `imports:progress` event of this import that `done` accepts. */
function progress(core: Core, id: string, done: (event: ImportProgressEvent) => boolean): Promise<ImportProgressEvent> {
  return new Promise((resolve) => {
    const stop = core.events.subscribe((name, payload) => {
      const event = payload as ImportProgressEvent;
      if (name === 'imports:progress' && event.id === id && done(event)) {
        stop();
        resolve(event);
      }
    });
  });
}

describe('importing tracking requests in the app (demo account)', () => {
  const exportDir = tempDir();
  const { core } = testCore({ chooseExportPath: (name) => Promise.resolve(join(exportDir, name)) });
  beforeAll(async () => {
    expect((await syncNow(core, 'full')).state).toBe('idle');
  }, 60_000);
  afterAll(() => core.close());

  it('reads pasted cells, previews them, asks for missing carriers, sends with progress and exports the results', async () => {
    const lessor = container('TGHU', 800001);
    const pasted = [
      'Container #\tSCAC\tTags',
      `${container('MAEU', 800002)}\tMAEU\tbulk`,
      `${container('MAEU', 800003)}\t\t`,
      `${lessor}\t\t`,
      'MSCU1234567\tMSCU\t',
    ].join('\r\n');
    const table = await value<ImportTable>(core, 'imports:read', { text: pasted });
    expect(table).toMatchObject({ name: 'Pasted cells', rowCount: 5, unsure: [] });
    expect(table.mapping).toEqual({ hasHeader: true, fields: ['number', 'carrier', 'tags'], numberType: 'container' });
    expect(table.columns.map((c) => [c.letter, c.first, c.samples[0]])).toEqual([
      ['A', 'Container #', container('MAEU', 800002)],
      ['B', 'SCAC', 'MAEU'],
      ['C', 'Tags', 'bulk'],
    ]);

    const inferred = progress(core, table.id, (e) => e.phase === 'preview' && e.counts.inferring === 0);
    const preview = await value<ImportState>(core, 'imports:preview', { id: table.id, mapping: table.mapping });
    expect(preview.phase).toBe('inferring');
    expect(preview.rows.map((r) => r.status)).toEqual(['ready', 'inferring', 'inferring', 'validation']);
    await inferred;
    const asked = await value<ImportState>(core, 'imports:get', { id: table.id });
    expect(asked.rows.map((r) => [r.row, r.status, r.carrier])).toEqual([
      [2, 'ready', 'MAEU'],
      [3, 'ready', 'MAEU'],
      [4, 'validation', null],
      [5, 'validation', null],
    ]);
    const unsure = asked.rows[2]!;
    expect(unsure.field).toBe('carrier');
    expect(unsure.message).toMatch(/^The Tracking API is not sure of the carrier: /);
    expect(unsure.candidates.length).toBeGreaterThan(1);

    // The forwarder picks one of the service's guesses for the lessor's box.
    const picked = await value<ImportState>(core, 'imports:setCarrier', {
      id: table.id,
      row: 4,
      scac: unsure.candidates[0]!.scac,
    });
    expect(picked.rows[2]).toMatchObject({ status: 'ready', carrier: unsure.candidates[0]!.scac });
    expect(picked.counts).toMatchObject({ ready: 3, validation: 1 });

    const events: ImportProgressEvent[] = [];
    const stop = core.events.subscribe((name, payload) => {
      if (name === 'imports:progress') events.push(payload as ImportProgressEvent);
    });
    let dataChanged = 0;
    const stopChanged = core.events.subscribe((name) => {
      if (name === 'data:changed') dataChanged++;
    });
    const sent = progress(core, table.id, (e) => e.phase === 'done');
    const sending = await value<ImportState>(core, 'imports:send', { id: table.id });
    expect(sending.phase).toBe('sending');
    const done = await sent;
    stop();
    stopChanged();
    expect(done.counts).toMatchObject({ created: 3, validation: 1, ready: 0, sending: 0 });
    expect(done.progress).toMatchObject({ done: 3, total: 3 });
    // Progress said as it went, with the rows that changed.
    const seen = new Set(events.flatMap((e) => e.rows.filter((r) => r.status === 'created').map((r) => r.row)));
    expect([...seen].sort()).toEqual([2, 3, 4]);
    expect(dataChanged).toBeGreaterThan(0);
    const final = await value<ImportState>(core, 'imports:get', { id: table.id });
    const ids = final.rows.filter((r) => r.status === 'created').map((r) => r.trackingRequestId);
    const listed = await value<{ rows: { id: string; tags: string[] }[] }>(core, 'trackingRequests:list', {
      filters: { search: container('MAEU', 800002) },
      page: { limit: 5 },
    });
    expect(listed.rows.map((r) => r.id)).toEqual([ids[0]]);
    expect(listed.rows[0]!.tags).toEqual(['bulk']);

    const exported = await value<{ path: string; rows: number }>(core, 'imports:export', { id: table.id });
    expect(exported.rows).toBe(4);
    const csv = parse<Record<string, string>>(readFileSync(exported.path, 'utf8'), { bom: true, columns: true });
    expect(csv.map((r) => [r.Row, r.Result])).toEqual([
      ['2', 'Created'],
      ['3', 'Created'],
      ['4', 'Created'],
      ['5', 'Needs a fix'],
    ]);
    expect(csv[3]!.Message).toMatch(/check digit/);
    expect(csv[0]!['Tracking request']).toBe(ids[0]);

    // A second send while nothing is ready sends nothing, and the rows keep their results.
    const again = await value<ImportState>(core, 'imports:send', { id: table.id });
    expect(again.counts.created).toBe(3);
  });

  it('refuses a file it cannot read, and an import it does not have, in a sentence', async () => {
    const unreadable = await failure(core, 'imports:read', {
      name: 'old.xls',
      base64: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0, 0, 0]).toString('base64'),
    });
    expect(unreadable).toMatchObject({ code: 'invalid_argument' });
    expect(unreadable.message).toMatch(/^old\.xls is an older Excel workbook/);
    expect(await failure(core, 'imports:get', { id: 'gone' })).toMatchObject({ code: 'not_found' });
    expect(await failure(core, 'imports:send', { id: 'x', rows: [0] })).toMatchObject({ code: 'invalid_argument' });
  });
});

describe('cancelling an import while creates wait for the service’s limit', () => {
  const key = 'import-KEY-1a2b3c4d5e6f-CNCL';
  let sandbox: Sandbox;
  let saw429: () => void = () => {};
  const limited = new Promise<void>((resolve) => (saw429 = resolve));
  const fetchThrough: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (response.status === 429) saw429();
    return response;
  };
  const { core } = testCore({ fetch: fetchThrough });
  beforeAll(async () => {
    // The service takes 2 creates a minute here: the third waits for its Retry-After.
    sandbox = await startSandbox({
      seed: 'import-cancel',
      shipments: 10,
      apiKeys: [key],
      routing: false,
      rateBuckets: { create_tracking_request: { limit: 2, windowSeconds: 60 } },
    });
    await value(core, 'profiles:add', { name: 'Cancel Forwarding', apiKey: key, baseUrl: sandbox.url });
  });
  afterAll(async () => {
    await core.close();
    await sandbox.close();
  });

  it('stops at once: the rows sent keep their result, the others stay ready to send', async () => {
    const numbers = Array.from({ length: 8 }, (_, i) => container('MSCU', 810000 + i));
    const table = await value<ImportTable>(core, 'imports:read', {
      name: 'boxes.csv',
      base64: Buffer.from(['Container,SCAC', ...numbers.map((n) => `${n},MSCU`)].join('\n')).toString('base64'),
    });
    await value(core, 'imports:preview', { id: table.id, mapping: table.mapping });
    const done = progress(core, table.id, (e) => e.phase === 'done');
    await value(core, 'imports:send', { id: table.id });
    await limited;
    const cancelled = await value<ImportState>(core, 'imports:cancel', { id: table.id });
    expect(cancelled.cancelled).toBe(true);
    const end = await done;
    expect(end.cancelled).toBe(true);
    expect(end.counts).toMatchObject({ created: 2, ready: 6, sending: 0, failed: 0 });
    const state = await value<ImportState>(core, 'imports:get', { id: table.id });
    expect(
      state.rows.filter((r) => r.status === 'ready').every((r) => r.message === 'Not sent: the import was cancelled.'),
    ).toBe(true);
    const onService = sandbox.store.trackingRequests.filter((r) => numbers.includes(r.requestNumber));
    expect(onService).toHaveLength(2);
  });

  it('sends nothing more under an account once another is shown', async () => {
    const numbers = Array.from({ length: 4 }, (_, i) => container('MSCU', 820000 + i));
    const table = await value<ImportTable>(core, 'imports:read', {
      text: ['Container\tSCAC', ...numbers.map((n) => `${n}\tMSCU`)].join('\n'),
    });
    await value(core, 'imports:preview', { id: table.id, mapping: table.mapping });
    const done = progress(core, table.id, (e) => e.phase === 'done');
    // The service takes two creates a minute (the test before spent them): the rest wait for the bucket.
    const waiting = progress(core, table.id, (e) => e.counts.sending > 0 && e.counts.sending + e.counts.created === 4);
    await value(core, 'imports:send', { id: table.id });
    await waiting;
    await value(core, 'profiles:switch', { id: null });
    const end = await done;
    expect(end.stopped).toMatch(/^Another account is shown now, so the import stopped/);
    const created = end.counts.created;
    expect(created).toBeLessThan(4);
    expect(end.counts).toMatchObject({ failed: 4 - created, ready: 0, sending: 0 });
    expect(sandbox.store.trackingRequests.filter((r) => numbers.includes(r.requestNumber))).toHaveLength(created);
    // The import belonged to that account: from the demo account it is not there.
    expect(await failure(core, 'imports:get', { id: table.id })).toMatchObject({ code: 'not_found' });
  });
});
