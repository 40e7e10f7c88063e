/**
 * A service that ignores `include=transport_events` on the container list
 * (the recorded real responses list event ids without the events) still leaves, after one full
 * sync, every container whose record lists events with its events: fetched container by
 * container, the urgent ones first, at the rate limit's pace, with honest progress.
 */
import { owesEvents } from '../../src/core/resources/containers';
import { describe, expect, it } from 'vitest';
import { storedRecordIds, storedRecordOf } from '../../src/core/store/queries/raw';
import type { SyncProgress } from '../../src/core/sync/types';
import { useHostileProxy, type ProxiedRequest } from '../helpers/hostile-proxy';
import { useSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';

const DAY = 86_400_000;
const rateLimit = { limit: 40, windowSeconds: 1 };

interface Resource {
  id: string;
  type: string;
}

function pathOf(request: ProxiedRequest): string {
  return new URL(request.url, 'http://proxy.invalid').pathname;
}

/** The container ids of per-container event requests, in the order they reached the service. */
function eventRequests(requests: ProxiedRequest[]): string[] {
  return requests.flatMap((r) => {
    const match = /^\/v2\/containers\/([^/]+)\/transport_events$/.exec(pathOf(r));
    return match ? [decodeURIComponent(match[1]!)] : [];
  });
}

describe('a container list that ignores the events include', { timeout: 90_000 }, () => {
  const sandbox = useSandbox({ seed: 'hostile-events', shipments: 60, rateLimit });
  const proxy = useHostileProxy(() => ({
    upstream: sandbox.get().url,
    rewrite: (request, answer) => {
      if (request.method !== 'GET' || pathOf(request) !== '/v2/containers' || answer.status !== 200) return undefined;
      const doc = answer.json as { included?: Resource[] };
      doc.included = (doc.included ?? []).filter((r) => r.type !== 'transport_event');
      return { status: answer.status, headers: answer.headers, body: JSON.stringify(doc) };
    },
  }));

  /** Containers whose record lists events, and those of them whose listed events are not all stored. */
  const eventGaps = (db: ReturnType<typeof syncOf>['db']) => {
    const ids = db.prepare('SELECT id FROM containers WHERE raw IS NOT NULL').pluck().all() as string[];
    const stored = new Set(storedRecordIds(db, 'transport_event'));
    // The service's record as the store gives it back (raw keeps only what the columns do not hold).
    const listed = ids.map((id) => {
      const record = storedRecordOf(db, 'container', id) as {
        relationships?: { transport_events?: { data?: unknown } };
      };
      const data = record.relationships?.transport_events?.data;
      return Array.isArray(data) ? (data as { id: string }[]).map((ref) => ref.id) : [];
    });
    return {
      listing: listed.filter((events) => events.length > 0).length,
      missing: listed.filter((events) => events.some((id) => !stored.has(id))).length,
    };
  };

  it('fetches the missing events in the same full sync, urgent containers first, within the limit', async () => {
    const seen: SyncProgress[] = [];
    const sync = syncOf(sandbox.get(), { baseUrl: proxy.get().url, rateLimit, onProgress: (p) => seen.push(p) });
    const from = proxy.get().requests.length;
    const summary = await sync.engine.run({ mode: 'full' });
    expect(summary).toMatchObject({ status: 'ok', mode: 'full', rateLimited: 0, error: null });

    const gaps = eventGaps(sync.db);
    expect(gaps.listing).toBeGreaterThan(20);
    expect(gaps.missing).toBe(0);
    expect(
      sync.db
        .prepare(`SELECT count(*) AS n FROM containers c WHERE synced_at IS NOT NULL AND ${owesEvents('c')}`)
        .get(),
    ).toEqual({ n: 0 });

    // One request per container that lists events, none for the others.
    const order = eventRequests(proxy.get().requests.slice(from));
    expect(order).toHaveLength(gaps.listing);
    expect(new Set(order).size).toBe(order.length);

    // Urgent: still in play and on hold, or its last free day (or the ship) within three days.
    const now = Date.now();
    const rows = sync.db
      .prepare(
        `SELECT c.id, c.status, c.holds_count, c.lfd_deadline_at, c.pod_arrived_at,
                s.tracking_stopped_at, s.pod_eta_at, s.pod_ata_at
         FROM containers c LEFT JOIN shipments s ON s.id = c.shipment_id`,
      )
      .all() as {
      id: string;
      status: string;
      holds_count: number;
      lfd_deadline_at: string | null;
      pod_arrived_at: string | null;
      tracking_stopped_at: string | null;
      pod_eta_at: string | null;
      pod_ata_at: string | null;
    }[];
    const within3Days = (at: string | null) => at !== null && Date.parse(at) <= now + 3 * DAY;
    const urgent = new Set(
      rows
        .filter(
          (c) =>
            c.tracking_stopped_at === null &&
            c.status !== 'picked_up' &&
            c.status !== 'empty_returned' &&
            (c.holds_count > 0 ||
              within3Days(c.lfd_deadline_at) ||
              (c.pod_ata_at === null && c.pod_arrived_at === null && within3Days(c.pod_eta_at))),
        )
        .map((c) => c.id),
    );
    const urgentAsked = order.filter((id) => urgent.has(id));
    expect(urgentAsked.length).toBeGreaterThan(0);
    expect(urgentAsked.length).toBeLessThan(order.length - 5);
    // All of them come first (three requests run at once, so arrivals may cross by two).
    const lastUrgent = Math.max(...urgentAsked.map((id) => order.indexOf(id)));
    expect(lastUrgent).toBeLessThan(urgentAsked.length + 2);

    // Progress counted those requests: the total grew to include them and ended done.
    const eventSteps = seen.filter((p) => p.step === 'Container events');
    expect(eventSteps.length).toBeGreaterThanOrEqual(order.length);
    const last = seen[seen.length - 1]!;
    expect(last).toMatchObject({ pagesDone: last.pagesTotal, etaSeconds: 0 });
    expect(last.pagesDone).toBeGreaterThan(order.length);
    expect(seen.every((p, i) => i === 0 || p.pagesDone >= seen[i - 1]!.pagesDone)).toBe(true);

    // The next sync on the same database works, and fetches no event twice.
    const before = proxy.get().requests.length;
    expect((await sync.engine.run({ mode: 'incremental' })).status).toBe('ok');
    expect(eventRequests(proxy.get().requests.slice(before))).toEqual([]);
    sync.close();
  });

  it('cancelled while fetching events, resumes with the containers still owed and none twice', async () => {
    const controller = new AbortController();
    let events = 0;
    const sync = syncOf(sandbox.get(), {
      baseUrl: proxy.get().url,
      rateLimit,
      onProgress: (p) => {
        if (p.step === 'Container events' && ++events === 10) controller.abort();
      },
    });
    const from = proxy.get().requests.length;
    const cancelled = await sync.engine.run({ mode: 'full', signal: controller.signal });
    expect(cancelled.status).toBe('cancelled');
    const firstRun = eventRequests(proxy.get().requests.slice(from));
    const fetched = new Set(
      sync.db
        .prepare(`SELECT id FROM containers c WHERE NOT ${owesEvents('c')} AND id IN (SELECT value FROM json_each(?))`)
        .pluck()
        .all(JSON.stringify(firstRun)) as string[],
    );
    expect(fetched.size).toBeGreaterThan(5);
    expect(eventGaps(sync.db).missing).toBeGreaterThan(0);

    const again = proxy.get().requests.length;
    const resumed = await sync.engine.run({ mode: 'full' });
    expect(resumed.status).toBe('ok');
    expect(eventGaps(sync.db).missing).toBe(0);
    const secondRun = eventRequests(proxy.get().requests.slice(again));
    expect(secondRun.filter((id) => fetched.has(id))).toEqual([]);
    sync.close();
  });
});
