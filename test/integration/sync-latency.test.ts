/**
 * A sync against the demo account's latency (tens to hundreds of ms per answer,
 * now and then a slow page), cancelled while pages are on the way, resumes where it stopped.
 */
import { describe, expect, it } from 'vitest';
import { countResources, readState } from '../../src/core/store/sync-state';
import { readSyncLog } from '../../src/core/sync/sync-log';
import { hasCheckpoint } from '../../src/core/sync/walk';
import { useSandbox } from '../helpers/sandbox';
import { sandboxTotals, syncOf } from '../helpers/sync';

describe('a sync at the demo latency', { timeout: 90_000 }, () => {
  // Enough containers for several pages of 100.
  const sandbox = useSandbox({
    seed: 'latency',
    shipments: 200,
    latency: 'realistic',
  });

  it('cancelled while container pages are on the way, resumes at the page it stopped at', async () => {
    const controller = new AbortController();
    let containerSteps = 0;
    // The client's own timeout, not the tests' short one: a slow page (1-3 s) is waited for.
    // The pages as this client asked for them and got them: the sandbox's log also has answers it
    // sent after the first run had stopped waiting (pages asked ahead), logged during the second.
    const answered: string[] = [];
    const sync = syncOf(sandbox.get(), {
      timeoutMs: 20_000,
      onRequest: (event) => {
        if (event.status === 200) answered.push(event.path);
      },
      onProgress: (p) => {
        // The walk's start, then its first page written: the pages after it are still on the way.
        if (p.step === 'Containers and their events' && ++containerSteps === 2) controller.abort();
      },
    });
    try {
      const cancelled = await sync.engine.run({ mode: 'full', signal: controller.signal });
      expect(cancelled).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
      expect(hasCheckpoint(sync.db, 'containers:events')).toBe(true);
      // Where the cancelled walk stopped: the first page it had not written whole. Pages answered
      // before the cancel took hold may have been written (page 2 or later), never page 1.
      const next = readState<{ next: string }>(sync.db, 'walk:containers:events')?.next ?? '';
      const stoppedAt = new URL(next).searchParams.get('page[number]');
      expect(Number(stoppedAt)).toBeGreaterThanOrEqual(2);
      const firstRun = answered.length;

      const resumed = await sync.engine.run({ mode: 'full' });
      expect(resumed).toMatchObject({ status: 'ok', error: null });
      // The container walk went on from the page it stopped at rather than the first. (Pages the
      // cancelled run asked ahead may still be answered once it has ended, so the order of the
      // answers after `firstRun` says nothing; which pages were asked does.)
      const containerPages = answered
        .slice(firstRun)
        .filter((path) => /\/containers\?/.test(path))
        .map((line) => /page\[number\]=(\d+)/.exec(line)?.[1] ?? '1');
      expect(containerPages).toContain(stoppedAt);
      expect(containerPages).not.toContain('1');

      const totals = sandboxTotals(sandbox.get());
      expect(totals.containers).toBeGreaterThan(300);
      expect(countResources(sync.db)).toMatchObject({
        shipments: totals.shipments,
        containers: totals.containers,
        tracking_requests: totals.trackingRequests,
      });
      expect(readSyncLog(sync.db).map((e) => e.status)).toEqual(['ok', 'cancelled']);
      expect(sync.db.pragma('foreign_key_check')).toEqual([]);
    } finally {
      sync.close();
    }
  });
});
