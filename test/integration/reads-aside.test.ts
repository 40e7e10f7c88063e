/**
 * The long reads in a worker thread (src/core/reads): what a forwarder sees is
 * what the core's own connection answers, row for row; a search typed on never shows an older
 * text's answer; a worker that dies is replaced and the read still answered; a database no worker
 * can read is answered in place.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core';
import type { ReadOp } from '../../src/core/reads/read-ops';
import { ReadsAside } from '../../src/core/reads/reads-aside';
import { openDatabase, type Db } from '../../src/core/store/database';
import { listContainers } from '../../src/core/store/queries/containers';
import { countShipments, listShipments } from '../../src/core/store/queries/shipments';
import { dashboardSummary } from '../../src/core/store/queries/dashboard';
import { filterOptions } from '../../src/core/store/queries/filter-options';
import type { DashboardSummary, FilterOptions, SearchResults } from '../../src/shared/types';
import type { Page } from '../../src/shared/views';
import type { ShipmentRow } from '../../src/shared/rows';
import { testCore, value } from '../helpers/core';
import { buildBigDatabase } from '../helpers/generated-database';
import { tempDir } from '../helpers/temp-dir';

const dataDir = tempDir();
const file = join(dataDir, 'demo', 'demo.sqlite');
let db: Db;
let bl: string;
let reads: ReadsAside;
let inPlace: ReadsAside;

beforeAll(() => {
  mkdirSync(join(dataDir, 'demo'), { recursive: true });
  const built = buildBigDatabase(file, 400, 'reads-aside', { customFields: true });
  bl = built.sampleBl;
  db = built.db;
  reads = new ReadsAside(db, { mode: 'always' });
  inPlace = new ReadsAside(db, { mode: 'never' });
});
afterAll(async () => {
  await reads.close();
  db.close();
});

/** Texts a forwarder types: one letter, two, a BL as it grows, two words, a PO in a custom field, nothing found. */
const texts = () => [
  bl.slice(0, 1),
  bl.slice(0, 2),
  bl.slice(0, 5),
  bl,
  bl.slice(-4).toLowerCase(),
  `${bl.slice(0, 4)} ${bl.slice(-3)}`,
  'PO-',
  'no such text anywhere',
];

describe('the worker answers what the core connection answers', () => {
  it('gives each list page, count and Ctrl+K search row for row as before', async () => {
    for (const text of texts()) {
      const filters = { search: text };
      const page = await reads.run<Page<ShipmentRow>>({
        op: 'page',
        list: 'shipments',
        filters,
        options: { limit: 50, sort: { field: 'eta', direction: 'asc' } },
      });
      // Before: the handler read the store's query on the core's own connection.
      expect(page).toEqual(listShipments(db, filters, { limit: 50, sort: { field: 'eta', direction: 'asc' } }));
      expect(await reads.run({ op: 'count', list: 'shipments', filters, at: {} })).toBe(countShipments(db, filters));
      expect(await reads.run({ op: 'page', list: 'containers', filters, options: { limit: 20 } })).toEqual(
        listContainers(db, filters, { limit: 20 }),
      );
      const search: ReadOp = { op: 'search', text, limit: 8 };
      expect(await reads.run<SearchResults>(search)).toEqual(await inPlace.run<SearchResults>(search));
    }
    // The texts found something and nothing: the comparisons above were not of empty answers only.
    expect(countShipments(db, { search: bl.slice(0, 1) })).toBeGreaterThan(100);
    expect((await reads.run<SearchResults>({ op: 'search', text: bl, limit: 8 })).shipments[0]?.billOfLading).toBe(bl);
    expect(
      await reads.run({ op: 'count', list: 'shipments', filters: { search: 'no such text anywhere' }, at: {} }),
    ).toBe(0);
  });

  it('gives the dashboard and the filters’ pick lists as before', async () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    const dashboard = await reads.run<DashboardSummary>({ op: 'dashboard', now, zone: 'America/Chicago' });
    expect(dashboard).toEqual(dashboardSummary(db, now, 'America/Chicago'));
    expect(dashboard.containersByStatus.reduce((n, b) => n + b.count, 0)).toBeGreaterThan(400);
    const options = await reads.run<FilterOptions>({ op: 'filterOptions' });
    expect(options).toEqual(filterOptions(db));
    expect(options.carriers.length).toBeGreaterThan(0);
  });

  it('refuses a bad cursor in the worker with the sentence the core gives', async () => {
    const read: ReadOp = { op: 'page', list: 'shipments', filters: {}, options: { limit: 10, after: 'not-a-cursor' } };
    const there = await reads.run(read).catch((error: unknown) => error);
    const here = await inPlace.run(read).catch((error: unknown) => error);
    expect(there).toMatchObject({ code: 'invalid_argument', message: (here as Error).message });
  });
});

describe('a dead worker', () => {
  it('is replaced, and the read it held is still answered', async () => {
    await reads.run({ op: 'count', list: 'shipments', filters: {}, at: {} });
    const started = reads.workersStarted;
    const filters = { search: bl.slice(0, 3) };
    const answer = reads.run({ op: 'page', list: 'shipments', filters, options: { limit: 30 } });
    // As a crash would: the thread stops with the read on its way.
    await reads.worker!.terminate();
    expect(await answer).toEqual(listShipments(db, filters, { limit: 30 }));
    expect(await reads.run({ op: 'count', list: 'shipments', filters, at: {} })).toBe(countShipments(db, filters));
    expect(reads.workersStarted).toBe(started + 1);
  });
});

describe('where no worker can read the file', () => {
  it('answers in place (a database in memory)', async () => {
    const memory = openDatabase(':memory:');
    const aside = new ReadsAside(memory, { mode: 'always' });
    expect(aside.aside).toBe(false);
    expect(await aside.run({ op: 'count', list: 'shipments', filters: {}, at: {} })).toBe(0);
    expect(aside.worker).toBeNull();
    await aside.close();
    memory.close();
  });
});

describe('search as you type through the core', () => {
  let core: Core;
  beforeAll(() => {
    ({ core } = testCore({ dataDir, demo: undefined, readsAside: 'always' }));
  });
  afterAll(() => core.close());

  it('answers the newest text; an older one still waiting is dropped, never shown in its place', async () => {
    // The worker is up and busy with something else, as while a forwarder types.
    await value(core, 'shipments:count', { filters: {} });
    const typed = [bl.slice(0, 1), bl.slice(0, 2), bl.slice(0, 3), bl.slice(0, 4)];
    const asked = typed.map((text) => core.call('shipments:search', { text, limit: 8 }));
    const lists = typed.map((text) => core.call('shipments:list', { filters: { search: text }, page: { limit: 100 } }));
    const searches = await Promise.all(asked);
    const pages = await Promise.all(lists);
    // The first search ran (it was on its way); those typed over while waiting were refused as busy.
    for (const dropped of [...searches.slice(1, -1), ...pages.slice(0, -1)]) {
      expect(dropped).toMatchObject({ ok: false, error: { code: 'busy' } });
    }
    const last = typed[typed.length - 1]!;
    expect(searches[searches.length - 1]).toEqual({
      ok: true,
      value: await inPlace.run({ op: 'search', text: last, limit: 8 }),
    });
    expect(pages[pages.length - 1]).toEqual({ ok: true, value: listShipments(db, { search: last }, { limit: 100 }) });
    expect(searches[0]).toEqual({ ok: true, value: await inPlace.run({ op: 'search', text: typed[0]!, limit: 8 }) });
  });

  it('never drops what is not typed over: a count of everything beside the filtered one, a next page', async () => {
    const text = bl.slice(0, 2);
    const answers = await Promise.all([
      core.call('shipments:count', { filters: { search: text } }),
      core.call('shipments:count', { filters: {} }),
      core.call('shipments:list', { filters: { search: text }, page: { limit: 10 } }),
    ]);
    expect(answers).toEqual([
      { ok: true, value: countShipments(db, { search: text }) },
      { ok: true, value: countShipments(db, {}) },
      { ok: true, value: listShipments(db, { search: text }, { limit: 10 }) },
    ]);
    const after = listShipments(db, { search: text }, { limit: 10 }).next!;
    const more = await value<Page<ShipmentRow>>(core, 'shipments:list', {
      filters: { search: text },
      page: { limit: 10, after },
    });
    expect(more.rows).toHaveLength(10);
    expect(more).toEqual(listShipments(db, { search: text }, { limit: 10, after }));
  });
});
