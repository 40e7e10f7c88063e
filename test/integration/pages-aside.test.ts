/**
 * In the app, the walks' pages are parsed and written by a worker thread
 * (`PagesAside`), the core's loop keeping only the network and the walk's decisions. What a
 * forwarder gets must not change: the same records, the same counts, a resumable walk when that
 * thread stops, an unreadable page asked again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { owesEvents } from '../../src/core/resources/containers';
import { describe, expect, it } from 'vitest';
import { descriptorOfType } from '../../src/core/resources';
import { openDatabase } from '../../src/core/store/database';
import { columnText, storedRecordOf } from '../../src/core/store/queries/raw';
import { countResources, readState } from '../../src/core/store/sync-state';
import type { RequestEvent } from '../../src/core/api/client';
import { PagesAside } from '../../src/core/sync/pages-aside';
import { readSyncLog } from '../../src/core/sync/sync-log';
import { useSandbox } from '../helpers/sandbox';
import { sandboxTotals, syncOf } from '../helpers/sync';

/**
 * Every stored row of the tables a sync fills, in a stable order (what the lists and `raw` show),
 * each column as its text: keys of `interned` are given in the order texts are first written.
 */
function rowsOf(db: ReturnType<typeof openDatabase>) {
  const types = ['shipment', 'container', 'transport_event', 'tracking_request', 'custom_field'];
  return Object.fromEntries(
    types.map((type) => {
      const d = descriptorOfType(type)!;
      const names = [...Object.keys(d.columns), ...Object.keys(d.keptColumns ?? {})];
      const select = names.map((name) => `${columnText(d, name, 't')} AS ${name}`);
      return [
        d.table,
        db
          .prepare(`SELECT ${select.join(', ')} FROM ${d.table} t ORDER BY t.id`)
          .all()
          .map((row) => {
            // When it was written, not what: the two syncs ran at different instants.
            const {
              synced_at: _synced,
              events_synced_at: _events,
              changed_at: _changed,
              ...rest
            } = row as Record<string, unknown>;
            return rest;
          }),
      ];
    }),
  );
}

describe('sync pages parsed and written by a worker thread', { timeout: 120_000 }, () => {
  const sandbox = useSandbox({
    seed: 'pages-aside',
    shipments: 120,
    // Frozen simulated time: two syncs get the same answers, to compare what they stored.
    tick: 0,
  });

  it('stores exactly what the in-place sync stores, every page through the worker', async () => {
    const inPlace = syncOf(sandbox.get());
    const aside = syncOf(sandbox.get(), { pagesAside: true });
    try {
      const a = await inPlace.engine.run({ mode: 'full' });
      const b = await aside.engine.run({ mode: 'full' });
      expect(a.status).toBe('ok');
      expect(b).toMatchObject({ status: 'ok', error: null });
      // The files a run keeps are the documents' step, not the pages': left out.
      const { document_file_bytes: _a, ...pagesA } = a.counts;
      const { document_file_bytes: _b, ...pagesB } = b.counts;
      expect(pagesB).toEqual(pagesA);
      expect(aside.pages?.workersStarted).toBe(1);
      const totals = sandboxTotals(sandbox.get());
      expect(countResources(aside.db)).toMatchObject({
        shipments: totals.shipments,
        containers: totals.containers,
        tracking_requests: totals.trackingRequests,
      });
      expect(rowsOf(aside.db)).toEqual(rowsOf(inPlace.db));
      // The events-complete marks the worker wrote: the same containers as in place.
      const marked = (db: typeof aside.db) =>
        db
          .prepare(`SELECT id FROM containers c WHERE NOT ${owesEvents('c')} ORDER BY id`)
          .pluck()
          .all();
      expect(marked(aside.db)).toEqual(marked(inPlace.db));
      expect(marked(aside.db).length).toBeGreaterThan(0);
      expect(aside.db.pragma('foreign_key_check')).toEqual([]);
      // An incremental run after it, through the same worker, finds its cursors and writes.
      const again = await aside.engine.run({ mode: 'incremental' });
      expect(again).toMatchObject({ status: 'ok', error: null });
      expect(aside.pages?.workersStarted).toBe(1);
    } finally {
      await aside.pages?.close();
      aside.close();
      inPlace.close();
    }
  });

  it('a worker that stops mid-sync fails the run in one sentence; the next run starts another and completes', async () => {
    let aside: PagesAside | null = null;
    let stoppedIt = false;
    const sync = syncOf(sandbox.get(), {
      pagesAside: true,
      onRequest: (event) => {
        // The second page of containers is read and kept by the worker, not written yet: stop the
        // thread as a crash would.
        if (!stoppedIt && event.status === 200 && /\/containers\?.*page\[number\]=2/.test(event.path)) {
          stoppedIt = true;
          void aside?.worker?.terminate();
        }
      },
    });
    aside = sync.pages;
    try {
      const failed = await sync.engine.run({ mode: 'full' });
      expect(failed.status).toBe('failed');
      expect(failed.error?.message).toMatch(/page writer stopped in the middle of the sync; the next sync resumes/);
      // Nothing half-written: every reference the failed run stored is whole.
      expect(sync.db.pragma('foreign_key_check')).toEqual([]);

      const resumed = await sync.engine.run({ mode: 'full' });
      expect(resumed).toMatchObject({ status: 'ok', error: null });
      expect(aside?.workersStarted).toBe(2);
      const totals = sandboxTotals(sandbox.get());
      expect(countResources(sync.db)).toMatchObject({
        shipments: totals.shipments,
        containers: totals.containers,
        tracking_requests: totals.trackingRequests,
      });
      expect(readSyncLog(sync.db).map((e) => e.status)).toEqual(['ok', 'failed']);
      expect(sync.db.pragma('foreign_key_check')).toEqual([]);
    } finally {
      await sync.pages?.close();
      sync.close();
    }
  });

  it('a page the worker cannot read is a malformed answer, asked again like any', async () => {
    let spoiled = 0;
    const events: RequestEvent[] = [];
    const sync = syncOf(sandbox.get(), {
      pagesAside: true,
      onRequest: (event) => events.push(event),
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        // The first containers page comes back cut short, once.
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        if (spoiled === 0 && url.includes('/containers?')) {
          spoiled++;
          const text = await response.text();
          return new Response(text.slice(0, text.length / 2), { status: 200, headers: response.headers });
        }
        return response;
      },
    });
    try {
      const run = await sync.engine.run({ mode: 'full' });
      expect(run).toMatchObject({ status: 'ok', error: null });
      expect(spoiled).toBe(1);
      const containerAnswers = events.filter(
        (e) => e.path.startsWith('/v2/containers?') && !e.path.includes('page[number]'),
      );
      expect(containerAnswers.map((e) => e.error ?? 'ok').slice(0, 2)).toEqual(['malformed', 'ok']);
      expect(countResources(sync.db).containers).toBe(sandboxTotals(sandbox.get()).containers);
    } finally {
      await sync.pages?.close();
      sync.close();
    }
  });

  it('a page in any UTF-8 (a byte-order mark, names in other scripts) is stored as sent, before and once its worker is ready', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quayside-pages-utf8-'));
    const db = openDatabase(join(dir, 'q.sqlite'));
    const aside = new PagesAside(db);
    const names = ['Hamburg Süd', '長榮海運', 'Ζήνων — Ł'];
    try {
      for (const [n, name] of names.entries()) {
        const id = `a1b2c3d4-0000-4000-8000-00000000000${n}`;
        const text = JSON.stringify({
          data: [{ id, type: 'shipping_line', attributes: { scac: `SC${n}A`, name } }],
        });
        const body = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
        const page = await aside.read(body, undefined);
        expect(page.frame.rows).toBe(1);
        await page.write({ syncedAt: new Date().toISOString(), checkpoint: { key: 'walk:lines', value: null } });
        expect(storedRecordOf(db, 'shipping_line', id)).toMatchObject({ attributes: { name } });
      }
      expect(aside.workersStarted).toBe(1);
    } finally {
      await aside.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('where no worker can run (a database in memory), pages are read and written in place', async () => {
    const db = openDatabase(':memory:');
    const aside = new PagesAside(db);
    try {
      const text = JSON.stringify({
        data: [{ id: 'a1b2c3d4-0000-4000-8000-000000000001', type: 'shipping_line', attributes: { scac: 'MAEU' } }],
        links: { next: 'https://api.example/v2/shipping_lines?page[number]=2' },
      });
      const page = await aside.read(new TextEncoder().encode(text), undefined);
      expect(page.frame.rows).toBe(1);
      expect(aside.worker).toBeNull();
      await page.write({ syncedAt: new Date().toISOString(), checkpoint: { key: 'walk:lines', value: { next: 'x' } } });
      expect(readState(db, 'walk:lines')).toEqual({ next: 'x' });
      expect(aside.workersStarted).toBe(0);
    } finally {
      await aside.close();
      db.close();
    }
  });
});
