/**
 * A service whose `links.next` loops, or whose dates are not dates,
 * ends the sync by itself with one clear sentence, loses nothing, and the next sync on the same
 * database works. The real sync runs against a hostile proxy in front of a sandbox.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodes } from '../../src/cli/exit-codes';
import { runCli } from '../../src/cli/index';
import { openDatabase } from '../../src/core/store/database';
import { countResources, readState, writeState } from '../../src/core/store/sync-state';
import { listShipments } from '../../src/core/store/queries/shipments';
import { listContainers } from '../../src/core/store/queries/containers';
import { storedRecordOf } from '../../src/core/store/queries/raw';
import { DEMO_API_KEY } from '../../src/sandbox/index';
import { capture } from '../helpers/capture';
import {
  useHostileProxy,
  type ProxiedRequest,
  type ProxyAnswer,
  type ProxyUpstreamAnswer,
} from '../helpers/hostile-proxy';
import { call, useSandbox } from '../helpers/sandbox';
import { sandboxTotals, syncOf } from '../helpers/sync';
import { tempDir } from '../helpers/temp-dir';

interface Resource {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
}
interface Doc {
  data: Resource[] | Resource;
  included?: Resource[];
  links?: Record<string, string | null | undefined>;
  meta?: Record<string, unknown>;
}

function target(request: ProxiedRequest): URL {
  return new URL(request.url, 'http://proxy.invalid');
}

/** A list page of `path` from upstream, to change; undefined for anything else. */
function listPage(request: ProxiedRequest, answer: ProxyUpstreamAnswer, path: string): Doc | undefined {
  if (request.method !== 'GET' || target(request).pathname !== path || answer.status !== 200) return undefined;
  const doc = answer.json as Doc;
  return Array.isArray(doc.data) ? doc : undefined;
}

function answerWith(answer: ProxyUpstreamAnswer, doc: Doc): ProxyAnswer {
  return { status: answer.status, headers: answer.headers, body: JSON.stringify(doc) };
}

function withPage(requestUrl: string, n: number): string {
  return requestUrl.replace(/page(\[|%5B)number(\]|%5D)=\d+/i, `page$1number$2=${n}`);
}

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const saved = process.env.T49_API_TOKEN;
  process.env.T49_API_TOKEN = DEMO_API_KEY;
  const out = capture();
  const err = capture();
  try {
    const code = await runCli(args, { out: out.stream, err: err.stream });
    return { code, out: out.text(), err: err.text() };
  } finally {
    if (saved === undefined) delete process.env.T49_API_TOKEN;
    else process.env.T49_API_TOKEN = saved;
  }
}

// Full syncs on a machine shared by many test runs: more than the default 20 s each.
describe('a next link that loops', { timeout: 90_000 }, () => {
  // More than 100 still-tracking shipments: their list has a second page.
  const sandbox = useSandbox({ seed: 'hostile-walks', shipments: 160 });
  const proxy = useHostileProxy(() => ({ upstream: sandbox.get().url }));

  const requestsSince = (from: number, path: string) =>
    proxy
      .get()
      .requests.slice(from)
      .filter((r) => target(r).pathname === path);

  async function expectNextSyncCompletes(sync: ReturnType<typeof syncOf>): Promise<void> {
    proxy.get().set({});
    const from = proxy.get().requests.length;
    const next = await sync.engine.run({ mode: 'auto' });
    expect(next).toMatchObject({ status: 'ok', mode: 'full', error: null });
    const totals = sandboxTotals(sandbox.get());
    expect(countResources(sync.db)).toMatchObject({
      shipments: totals.shipments,
      containers: totals.containers,
      tracking_requests: totals.trackingRequests,
    });
    // It read the list from its start rather than resuming into the loop.
    const firstShipments = requestsSince(from, '/v2/shipments')[0]!;
    expect(target(firstShipments).searchParams.get('page[number]')).toBeNull();
    expect(sync.db.pragma('foreign_key_check')).toEqual([]);
  }

  it('stops at a page that names itself as the next one, in a few requests, and the next sync works', async () => {
    const p = proxy.get();
    p.set({
      rewrite: (request, answer) => {
        const doc = listPage(request, answer, '/v2/shipments');
        if (!doc || target(request).searchParams.get('page[number]') !== '2') return undefined;
        doc.links = { ...doc.links, next: `${p.origin}${request.url}` };
        return answerWith(answer, doc);
      },
    });
    const sync = syncOf(sandbox.get(), { baseUrl: p.url });
    const from = p.requests.length;
    const failed = await sync.engine.run({ mode: 'full' });
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({
      code: 'malformed',
      message: expect.stringMatching(/^The Tracking API sent a page of shipments that leads back to an earlier page;/),
    });
    // Pages 1-2 of the still-tracking walk (with its look-ahead) and the stopped ones: no loop.
    expect(requestsSince(from, '/v2/shipments').length).toBeLessThanOrEqual(6);
    // What the pages held is kept.
    expect(countResources(sync.db).shipments).toBeGreaterThan(100);
    expect(readState(sync.db, 'walk:shipments:active')).toBeNull();
    await expectNextSyncCompletes(sync);
    sync.close();
  });

  it('stops at a page whose next link goes back to page 1, and the next sync works', async () => {
    const p = proxy.get();
    p.set({
      rewrite: (request, answer) => {
        const doc = listPage(request, answer, '/v2/shipments');
        if (!doc || target(request).searchParams.get('page[number]') !== '2') return undefined;
        doc.links = { ...doc.links, next: `${p.origin}${withPage(request.url, 1)}` };
        return answerWith(answer, doc);
      },
    });
    const sync = syncOf(sandbox.get(), { baseUrl: p.url });
    const from = p.requests.length;
    const failed = await sync.engine.run({ mode: 'full' });
    expect(failed).toMatchObject({
      status: 'failed',
      error: {
        code: 'malformed',
        message: expect.stringMatching(/page of shipments that leads back to an earlier page/),
      },
    });
    expect(requestsSince(from, '/v2/shipments').length).toBeLessThanOrEqual(6);
    await expectNextSyncCompletes(sync);
    sync.close();
  });

  it('stops a list that keeps sending new pages past what it said it has', async () => {
    const p = proxy.get();
    let n = 0;
    p.set({
      rewrite: (request, answer) => {
        const doc = listPage(request, answer, '/v2/tracking_requests');
        if (!doc) return undefined;
        // Unnumbered links, each new: only the count of pages against meta.total can end it.
        doc.links = { next: `${p.origin}/v2/tracking_requests?page[size]=100&cursor=${++n}` };
        return answerWith(answer, doc);
      },
    });
    const sync = syncOf(sandbox.get(), { baseUrl: p.url });
    const from = p.requests.length;
    const failed = await sync.engine.run({ mode: 'full' });
    expect(failed).toMatchObject({
      status: 'failed',
      error: {
        code: 'malformed',
        message: expect.stringMatching(/pages of tracking requests well past the number it said there are/),
      },
    });
    const pages = Math.ceil(sandboxTotals(sandbox.get()).trackingRequests / 100);
    // Pages asked for, each once: on a busy machine a page that timed out is asked again, which
    // is the client's retry, not the walk going on.
    const asked = new Set(requestsSince(from, '/v2/tracking_requests').map((r) => r.url));
    expect(asked.size).toBeLessThanOrEqual(2 * pages + 12);
    await expectNextSyncCompletes(sync);
    sync.close();
  });

  it('does not resume a walk saved under another base URL', async () => {
    const p = proxy.get();
    p.set({});
    const sync = syncOf(sandbox.get(), { baseUrl: p.url });
    // As a profile whose base URL was .../v1 before it was changed to .../v2 would have left it.
    writeState(sync.db, 'walk:shipments:active', {
      next: `${p.origin}/v1/shipments?page[number]=2&page[size]=100`,
      pages: 1,
      maxUpdatedAt: null,
    });
    const from = p.requests.length;
    const summary = await sync.engine.run({ mode: 'full' });
    expect(summary.status).toBe('ok');
    expect(p.requests.slice(from).filter((r) => r.url.startsWith('/v1/'))).toEqual([]);
    expect(countResources(sync.db).shipments).toBe(sandboxTotals(sandbox.get()).shipments);
    sync.close();
  });

  it('reads a saved walk or cursor that is no JSON (a damaged row) as none, and syncs in full', async () => {
    const p = proxy.get();
    p.set({});
    const sync = syncOf(sandbox.get(), { baseUrl: p.url });
    expect((await sync.engine.run({ mode: 'full' })).status).toBe('ok');
    writeState(sync.db, 'walk:shipments:active', { next: null, pages: 1, maxUpdatedAt: null });
    sync.db
      .prepare(
        `UPDATE sync_state SET value = '{"next": "' WHERE key IN ('walk:shipments:active', 'cursor:tracking_requests')`,
      )
      .run();
    expect(readState(sync.db, 'cursor:tracking_requests')).toBeNull();
    const summary = await sync.engine.run({ mode: 'incremental' });
    expect(summary).toMatchObject({ status: 'ok', error: null });
    expect(countResources(sync.db).shipments).toBe(sandboxTotals(sandbox.get()).shipments);
    // The walk wrote its cursor afresh.
    expect(typeof readState(sync.db, 'cursor:tracking_requests')).toBe('string');
    sync.close();
  });
});

describe('dates that are not dates', { timeout: 90_000 }, () => {
  const sandbox = useSandbox({ seed: 'hostile-dates', shipments: 60 });
  const proxy = useHostileProxy(() => ({ upstream: sandbox.get().url }));

  const newTrackingRequest = async (number: string): Promise<string> => {
    const created = await call(sandbox.get(), '/tracking_requests', {
      method: 'POST',
      body: {
        data: {
          type: 'tracking_request',
          attributes: { request_type: 'bill_of_lading', request_number: number, scac: 'MSCU' },
        },
      },
    });
    expect(created.status).toBe(201);
    return created.body.data.id as string;
  };

  it.each([
    ['no date at all', 'yesterday', null, 'MEDUQ7100001'],
    ['a date in year 9999', '9999-12-31T23:59:59Z', '9999-12-31T23:59:59Z', 'MEDUQ7100002'],
  ])(
    'a tracking request updated at %s is kept, and later syncs still see new requests',
    async (_label, bad, stored, number) => {
      const p = proxy.get();
      let badId = '';
      p.set({
        rewrite: (request, answer) => {
          const doc = listPage(request, answer, '/v2/tracking_requests');
          const first = doc && (doc.data as Resource[])[0];
          if (!doc || !first) return undefined;
          badId ||= first.id;
          for (const r of doc.data as Resource[]) if (r.id === badId) r.attributes.updated_at = bad;
          return answerWith(answer, doc);
        },
      });
      const sync = syncOf(sandbox.get(), { baseUrl: p.url });
      expect((await sync.engine.run({ mode: 'full' })).status).toBe('ok');
      const row = sync.db.prepare('SELECT updated_at FROM tracking_requests WHERE id = ?').get(badId) as {
        updated_at: string | null;
      };
      expect(row.updated_at).toBe(stored);
      // The record as the service sent it (raw keeps what the column does not hold).
      const record = storedRecordOf(sync.db, 'tracking_request', badId) as { attributes: Record<string, unknown> };
      expect(record.attributes.updated_at).toBe(bad);

      // A request made at the service after that sync arrives with the next ones.
      const created = await newTrackingRequest(number);
      const from = p.requests.length;
      const next = await sync.engine.run({ mode: 'incremental' });
      expect(next).toMatchObject({ status: 'ok', error: null });
      expect(sync.db.prepare('SELECT id FROM tracking_requests WHERE id = ?').get(created)).toEqual({ id: created });
      const asked = p.requests.slice(from).find((r) => target(r).pathname === '/v2/tracking_requests')!;
      const since = target(asked).searchParams.get('filter[updated_at][start]');
      expect(since === null || Date.parse(since) <= Date.now()).toBe(true);
      // And the one after that too.
      expect((await sync.engine.run({ mode: 'incremental' })).status).toBe('ok');
      sync.close();
    },
  );

  it('keeps rows whose dates are broken, and lists and sorts them without those dates', async () => {
    const p = proxy.get();
    const broken = new Map<string, string>();
    p.set({
      rewrite: (request, answer) => {
        const shipments = listPage(request, answer, '/v2/shipments');
        const containers = listPage(request, answer, '/v2/containers');
        const doc = shipments ?? containers;
        const first = doc && (doc.data as Resource[])[0];
        if (!doc || !first) return undefined;
        if (shipments) first.attributes.pod_eta_at = 'soon';
        if (containers) {
          // The last instant a JavaScript date can hold: its local day's end cannot be computed.
          first.attributes.pickup_lfd = '+275760-09-13T00:00:00.000Z';
          first.attributes.import_deadlines = { pickup_lfd_terminal: '2025-02-30T00:00:00Z' };
          first.attributes.ind_facility_lfd_on = null;
          first.attributes.pod_arrived_at = 'yesterday';
        }
        broken.set(first.type, first.id);
        return answerWith(answer, doc);
      },
    });
    const sync = syncOf(sandbox.get(), { baseUrl: p.url });
    expect((await sync.engine.run({ mode: 'full' })).status).toBe('ok');
    const shipmentId = broken.get('shipment')!;
    const containerId = broken.get('container')!;
    const etaSorted = listShipments(sync.db, {}, { sort: { field: 'eta', direction: 'asc' }, limit: 1000 }).rows;
    expect(etaSorted).toHaveLength(sandboxTotals(sandbox.get()).shipments);
    // The shipment without a usable ETA sorts with the others that have none, after the dated ones.
    expect(etaSorted.find((s) => s.id === shipmentId)?.eta).toBeNull();
    const dated = etaSorted.filter((s) => s.eta !== null).map((s) => s.eta!);
    expect(dated).toEqual([...dated].sort());
    expect(etaSorted.slice(dated.length).map((s) => s.eta)).toEqual(etaSorted.slice(dated.length).map(() => null));
    const containers = listContainers(
      sync.db,
      {},
      { sort: { field: 'last_free_day', direction: 'asc' }, limit: 1000 },
    ).rows;
    expect(containers.find((c) => c.id === containerId)).toMatchObject({ lastFreeDay: null });
    expect(sync.db.prepare('SELECT pickup_lfd, pod_arrived_at FROM containers WHERE id = ?').get(containerId)).toEqual({
      pickup_lfd: null,
      pod_arrived_at: null,
    });
    expect((await sync.engine.run({ mode: 'incremental' })).status).toBe('ok');
    sync.close();
  });

  it('a full sync from the command line resets a tracking-request cursor stored in year 9999', async () => {
    proxy.get().set({});
    const dbPath = join(tempDir(), 'cli.sqlite');
    const args = ['sync', '--db', dbPath, '--base-url', proxy.get().url, '--rate-limit', '1000/60', '--json'];
    expect((await cli(args)).code).toBe(exitCodes.ok);
    // As an earlier Quayside left it after a service sent a date in year 9999.
    const db = openDatabase(dbPath);
    writeState(db, 'cursor:tracking_requests', '9999-12-31T23:59:59Z');
    db.close();
    const full = await cli([...args, '--full']);
    expect(full.code).toBe(exitCodes.ok);
    const status = JSON.parse((await cli(['status', '--db', dbPath, '--json'])).out) as {
      cursors: Record<string, string>;
    };
    const cursor = Date.parse(status.cursors['cursor:tracking_requests']!);
    expect(cursor).toBeLessThanOrEqual(Date.now());
    expect(cursor).toBeGreaterThan(Date.now() - 400 * 86_400_000);
  });
});
