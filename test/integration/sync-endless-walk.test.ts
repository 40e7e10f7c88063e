/**
 * A list whose `links.next` never repeats and that never says how many pages it has ends the
 * sync by itself: at the pages the account could hold (`pagesWithoutPromise`), with one sentence
 * naming the list, its checkpoint dropped, and the next sync on the same database working. The
 * real sync runs against a hostile proxy in front of a sandbox that serves the shipping lines as
 * an endless chain of new cursors.
 */
import { describe, expect, it } from 'vitest';
import { countResources, readState, writeState } from '../../src/core/store/sync-state';
import { UNPROMISED_FLOOR } from '../../src/core/sync/walk';
import { useHostileProxy, type HostileProxy, type ProxiedRequest } from '../helpers/hostile-proxy';
import { useSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';

const CHECKPOINT = 'walk:reference:shipping_lines';
const LIST = '/v2/shipping_lines';

interface Resource {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
}

function target(request: ProxiedRequest): URL {
  return new URL(request.url, 'http://proxy.invalid');
}

/**
 * The shipping lines as an endless list: no meta, no last link, and on every page a `next` with a
 * cursor never sent before. Pages after the first are answered by the proxy (one line each).
 */
function serveEndlessShippingLines(p: HostileProxy, newLines = false): void {
  let line: Resource | null = null;
  let cursor = 0;
  const next = () => `${p.origin}${LIST}?page[size]=100&cursor=${++cursor}`;
  // With `newLines`, every page brings a hundred lines never seen before, as if the account grew.
  const page = (at: number): Resource[] =>
    newLines ? Array.from({ length: 100 }, (_, i) => ({ ...line!, id: `${line!.id}-${at}-${i}` })) : [line!];
  p.set({
    intercept: (request) => {
      const url = target(request);
      if (url.pathname !== LIST || !url.searchParams.has('cursor') || line === null) return undefined;
      return { status: 200, body: { data: page(cursor), links: { next: next() } } };
    },
    rewrite: (request, answer) => {
      if (target(request).pathname !== LIST || answer.status !== 200) return undefined;
      const data = (answer.json as { data: Resource[] }).data;
      line ??= data[0]!;
      return { status: 200, headers: answer.headers, body: JSON.stringify({ data, links: { next: next() } }) };
    },
  });
}

const ENDLESS_SENTENCE = new RegExp(
  `^The Tracking API kept sending pages of shipping lines without saying how many there are, past ${UNPROMISED_FLOOR.toLocaleString('en-US')} pages \\(more than this account could hold\\); the sync stopped there and will read the shipping lines from the start next time\\.$`,
);

// A thousand pages on a machine shared by many test runs: more than the default 20 s.
describe('a next link that never repeats', { timeout: 180_000 }, () => {
  const sandbox = useSandbox({ seed: 'endless-walk', shipments: 60 });
  const proxy = useHostileProxy(() => ({ upstream: sandbox.get().url }));

  /** Pages of the shipping lines asked for since request `from`, each once (a retried page counts once). */
  const pagesAsked = (from: number) =>
    new Set(
      proxy
        .get()
        .requests.slice(from)
        .filter((r) => target(r).pathname === LIST)
        .map((r) => r.url),
    );

  const open = () => syncOf(sandbox.get(), { baseUrl: proxy.get().url });

  /** The next sync (`auto`: as the app's scheduler runs it), against the service as it should be. */
  async function expectNextSyncWorks(sync: ReturnType<typeof open>, mode: 'auto' | 'full'): Promise<void> {
    const p = proxy.get();
    p.set({});
    const from = p.requests.length;
    const next = await sync.engine.run({ mode });
    expect(next).toMatchObject({ status: 'ok', mode: 'full', error: null });
    expect(countResources(sync.db).shipping_lines).toBe(sandbox.get().store.world.shippingLines.length);
    // The list was read from its start, not resumed into the chain.
    const asked = [...pagesAsked(from)];
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((url) => !url.includes('cursor='))).toBe(true);
    expect(readState(sync.db, CHECKPOINT)).toBeNull();
  }

  it('stops at the pages a new account could hold, drops the checkpoint, and the next sync works', async () => {
    const p = proxy.get();
    serveEndlessShippingLines(p);
    const sync = open();
    try {
      const from = p.requests.length;
      const failed = await sync.engine.run({ mode: 'full' });
      expect(failed).toMatchObject({
        status: 'failed',
        error: { code: 'malformed', message: expect.stringMatching(ENDLESS_SENTENCE) },
      });
      // Nothing of the account known yet: the floor is the bound, and no page past it was asked for.
      const asked = pagesAsked(from).size;
      expect(asked).toBeLessThanOrEqual(UNPROMISED_FLOOR);
      expect(readState(sync.db, CHECKPOINT)).toBeNull();
      // What the other lists brought in is kept.
      expect(countResources(sync.db).shipments).toBeGreaterThan(0);
      // A full sync never completed on this database: the next one is full again.
      await expectNextSyncWorks(sync, 'auto');
    } finally {
      sync.close();
    }
  });

  it('ends at once a chain resumed from a checkpoint saved deep in it, and the next sync works', async () => {
    const p = proxy.get();
    p.set({});
    const sync = open();
    try {
      expect((await sync.engine.run({ mode: 'full' })).status).toBe('ok');
      // As a Quayside that bounded such a list only at 100,000 pages left it, 50,000 pages in.
      writeState(sync.db, CHECKPOINT, {
        next: `${p.origin}${LIST}?page[size]=100&cursor=50000`,
        pages: 50_000,
        maxUpdatedAt: null,
        cap: null,
      });
      serveEndlessShippingLines(p);
      const from = p.requests.length;
      const failed = await sync.engine.run({ mode: 'full' });
      expect(failed).toMatchObject({
        status: 'failed',
        error: { code: 'malformed', message: expect.stringMatching(ENDLESS_SENTENCE) },
      });
      // The saved page, and no other.
      expect(pagesAsked(from).size).toBe(1);
      expect(readState(sync.db, CHECKPOINT)).toBeNull();
      await expectNextSyncWorks(sync, 'full');
    } finally {
      sync.close();
    }
  });

  it('an endless list whose records it wrote does not buy itself more pages the next time', async () => {
    const p = proxy.get();
    serveEndlessShippingLines(p, true);
    const sync = open();
    try {
      for (let run = 0; run < 2; run++) {
        const from = p.requests.length;
        const failed = await sync.engine.run({ mode: 'full' });
        expect(failed).toMatchObject({ status: 'failed', error: { code: 'malformed' } });
        expect(pagesAsked(from).size).toBeLessThanOrEqual(UNPROMISED_FLOOR);
      }
      // A hundred thousand lines were written: ten times that in pages would have been the bound.
      expect(countResources(sync.db).shipping_lines).toBeGreaterThan(90_000);
    } finally {
      sync.close();
    }
  });
});
