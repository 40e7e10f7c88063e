/**
 * A CLI sync's exit code follows the kind of failure: an address that answers with a redirect is
 * a network refusal (5), not a refused request (6); a list whose next link loops is an answer
 * Quayside cannot use (8), not a network problem. Each ends in one sentence, and the next sync on
 * the same database works. The sync runs against hostile servers on 127.0.0.1 in front of a sandbox.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodes } from '../../src/cli/exit-codes';
import { runCli } from '../../src/cli/index';
import { openDatabase } from '../../src/core/store/database';
import { countResources, readState } from '../../src/core/store/sync-state';
import { capture } from '../helpers/capture';
import { useHostileProxy, type ProxiedRequest } from '../helpers/hostile-proxy';
import { useSandbox } from '../helpers/sandbox';
import { sandboxTotals } from '../helpers/sync';
import { tempDir } from '../helpers/temp-dir';

const key = 'exit-codes-test-key';

async function sync(db: string, baseUrl: string) {
  const saved = process.env.T49_API_TOKEN;
  process.env.T49_API_TOKEN = key;
  const out = capture();
  const err = capture();
  try {
    const code = await runCli(['sync', '--db', db, '--base-url', baseUrl, '--rate-limit', '10000/60', '--json'], {
      out: out.stream,
      err: err.stream,
    });
    return { code, summary: JSON.parse(out.text()) as unknown };
  } finally {
    if (saved === undefined) delete process.env.T49_API_TOKEN;
    else process.env.T49_API_TOKEN = saved;
  }
}

const pathOf = (request: ProxiedRequest) => new URL(request.url, 'http://proxy.invalid');

// Full syncs on a machine shared by other test runs: more than the default 20 s each.
describe('cli sync exit codes', { timeout: 90_000 }, () => {
  const sandbox = useSandbox({
    seed: 'exit-codes',
    shipments: 30,
    apiKeys: [key],
  });
  const proxy = useHostileProxy(() => ({ upstream: sandbox.get().url }));
  // Where the redirects point: it must never be asked anything (it would be handed the key).
  const elsewhere = useHostileProxy(() => ({ upstream: null }));

  async function expectNextSyncWorks(db: string): Promise<void> {
    proxy.get().set({});
    const next = await sync(db, proxy.get().url);
    expect(next.code).toBe(exitCodes.ok);
    expect(next.summary).toMatchObject({ status: 'ok', error: null });
    const store = openDatabase(db);
    try {
      const totals = sandboxTotals(sandbox.get());
      expect(countResources(store)).toMatchObject({
        shipments: totals.shipments,
        containers: totals.containers,
        tracking_requests: totals.trackingRequests,
      });
    } finally {
      store.close();
    }
  }

  it.each([301, 302, 307, 308])('exits as a network refusal when the address answers %i', async (status) => {
    const db = join(tempDir(), 'redirected.sqlite');
    proxy.get().set({
      intercept: (request) => ({
        status,
        headers: { location: `${elsewhere.get().origin}${request.url}` },
        body: '<html><body>Sign in to the network</body></html>',
      }),
    });
    const failed = await sync(db, proxy.get().url);
    expect(failed.code).toBe(exitCodes.network);
    expect(failed.summary).toMatchObject({
      status: 'failed',
      error: {
        code: 'network',
        message: `The Tracking API's address answered with a redirect (${status}), which Quayside does not follow: a network sign-in page or proxy may be in the way, or the address has moved.`,
      },
    });
    expect(elsewhere.get().requests).toEqual([]);
    await expectNextSyncWorks(db);
  });

  it('exits as an unusable answer, not a network problem, when a list loops', async () => {
    const db = join(tempDir(), 'looping.sqlite');
    const p = proxy.get();
    p.set({
      rewrite: (request, answer) => {
        if (request.method !== 'GET' || pathOf(request).pathname !== '/v2/shipments' || answer.status !== 200) {
          return undefined;
        }
        // Every page of shipments names itself as the next one.
        const doc = answer.json as { links?: Record<string, unknown> };
        doc.links = { ...doc.links, next: `${p.origin}${request.url}` };
        return { status: 200, headers: answer.headers, body: JSON.stringify(doc) };
      },
    });
    const failed = await sync(db, p.url);
    expect(failed.code).toBe(exitCodes.malformed);
    expect(failed.summary).toMatchObject({
      status: 'failed',
      error: {
        code: 'malformed',
        message: expect.stringMatching(/page of shipments that leads back to an earlier page/),
      },
    });
    // What the looping page held is kept, with no checkpoint to resume into the loop.
    const store = openDatabase(db);
    try {
      expect(countResources(store).shipments).toBeGreaterThan(0);
      expect(readState(store, 'walk:shipments:active')).toBeNull();
    } finally {
      store.close();
    }
    await expectNextSyncWorks(db);
  });
});
