/**
 * Urgent first: a first sync stores the boxes a forwarder needs today (a hold,
 * a last free day within three days, an arrival within seven) before it reads any other list.
 */
import { describe, expect, it } from 'vitest';
import { urgentContainerIds } from '../../src/core/store/queries/sync-plan';
import { useSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';

const DAY = 86_400_000;

describe('a first sync', () => {
  const sandbox = useSandbox({ seed: 'urgent-first', shipments: 400 });

  it('stores every urgent box before it reads tracking requests, customers or stopped shipments', async () => {
    const paths: string[] = [];
    let storedWhenOthersStarted: Set<string> | null = null;
    const sync = syncOf(sandbox.get(), {
      onRequest: (e) => {
        paths.push(e.path);
        const urgentWalk = decodeURIComponent(e.path).includes('filter[tracking_stopped]=false');
        if (!urgentWalk && storedWhenOthersStarted === null) {
          storedWhenOthersStarted = new Set(
            sync.db.prepare<[], string>('SELECT id FROM containers WHERE synced_at IS NOT NULL').pluck().all(),
          );
        }
      },
    });
    try {
      expect(await sync.engine.run({ mode: 'full' })).toMatchObject({ status: 'ok' });
      const now = sandbox.get().clock.now();
      const urgent = urgentContainerIds(sync.db, {
        lfdBy: new Date(now + 3 * DAY).toISOString(),
        arrivingBy: new Date(now + 7 * DAY).toISOString(),
      });
      // The account has urgent boxes, and more than one page of still-tracking shipments.
      expect(urgent.length).toBeGreaterThan(10);
      const activePages = paths.filter((p) => decodeURIComponent(p).includes('filter[tracking_stopped]=false'));
      expect(activePages.length).toBeGreaterThan(1);
      // Every request until the still-tracking shipments were all read was one of their pages.
      expect(paths.slice(0, activePages.length)).toEqual(activePages);
      const stored = storedWhenOthersStarted as Set<string> | null;
      expect(stored).not.toBeNull();
      expect(urgent.filter((id) => !stored!.has(id))).toEqual([]);
    } finally {
      sync.close();
    }
  });
});
