/**
 * The change feed: an account whose webhook hears every event has its
 * incremental syncs read the notifications since the last one seen and refresh just the
 * shipments named there, and stores exactly what a walk of every still-tracking shipment would
 * have stored. Any doubt (no webhook, no anchor, a gap, a webhook changed, too many changes)
 * walks instead.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/core/store/database';
import { storedRecordIds, storedRecordOf } from '../../src/core/store/queries/raw';
import { readState } from '../../src/core/store/sync-state';
import { FEED_LAST_KEY } from '../../src/core/sync/feed';
import { call, useSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';
import { tempDir } from '../helpers/temp-dir';

const MINUTE = 60;
const DAY = 86_400;

interface FeedLast {
  used: boolean;
  reason: string;
  notifications: number;
  shipments: number | null;
}
const lastFeed = (db: Db) => readState<FeedLast>(db, FEED_LAST_KEY);

// Check times the service moves on every look, whatever happened: not data a change feed tells.
const volatile = new Set([
  'line_tracking_last_attempted_at',
  'line_tracking_last_succeeded_at',
  'terminal_checked_at',
  'pod_last_tracking_request_at',
  'shipment_last_tracking_request_at',
  'rail_last_tracking_request_at',
]);

/** JSON with every object's members in name order. */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Every stored shipment, container and transport event, check times left out, by table and id. */
function contents(db: Db): Record<'shipments' | 'containers' | 'transport_events', Map<string, string>> {
  // Each record as the store gives it back (raw keeps only what the columns do not hold), members sorted.
  const read = (type: string) =>
    new Map(
      storedRecordIds(db, type).map((id) => {
        const r = storedRecordOf(db, type, id) as { attributes: Record<string, unknown> };
        for (const key of volatile) delete r.attributes[key];
        return [id, sortedJson(r)];
      }),
    );
  return {
    shipments: read('shipment'),
    containers: read('container'),
    transport_events: read('transport_event'),
  };
}

/** Ids whose stored content differs between two readings. */
function differing(a: Map<string, string>, b: Map<string, string>): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].filter((id) => a.get(id) !== b.get(id)).sort();
}

describe('the change feed', () => {
  const sandbox = useSandbox({
    seed: 'feed',
    shipments: 1000,
    start: Date.parse('2026-05-11T08:00:00Z'),
    tick: 0,
  });

  beforeAll(async () => {
    // A webhook created without a list of events hears every event.
    const hook = await call(sandbox.get(), '/webhooks', {
      method: 'POST',
      body: { data: { type: 'webhook', attributes: { url: 'https://hooks.example.com/feed', active: true } } },
    });
    expect(hook.status).toBe(201);
  });

  it('refreshes only the notified shipments after a tick, storing what a walk would, in fewer requests', async () => {
    const sb = sandbox.get();
    const a = syncOf(sb);
    expect((await a.engine.run({ mode: 'full' })).status).toBe('ok');
    // A full run does not ask (its first requests go to urgent boxes); the first incremental one
    // reads the anchor and walks, and from then on the feed stands in.
    expect(lastFeed(a.db)).toBeNull();
    expect((await a.engine.run({ mode: 'incremental' })).status).toBe('ok');
    expect(lastFeed(a.db)).toMatchObject({ used: false, reason: 'no_anchor' });
    // Nothing changed yet: the feed is used and names nothing.
    const quiet = await a.engine.run({ mode: 'incremental' });
    expect(quiet.status).toBe('ok');
    expect(lastFeed(a.db)).toMatchObject({ used: true, notifications: 0, shipments: 0 });

    // Ten minutes of this account: a few shipments change, fewer than the walk has pages.
    sb.advance(10 * MINUTE);
    // The same local copy twice: one syncs through the feed, the other (its anchor dropped) walks.
    const bPath = join(tempDir(), 'walk.sqlite');
    a.db.pragma('wal_checkpoint(TRUNCATE)');
    copyFileSync(a.dbPath, bPath);
    const b = syncOf(sb, { dbPath: bPath });
    b.db.prepare("DELETE FROM sync_state WHERE key = 'feed:anchor'").run();
    const before = contents(a.db);

    const viaFeed = await a.engine.run({ mode: 'incremental' });
    const viaWalk = await b.engine.run({ mode: 'incremental' });
    expect(viaFeed.status).toBe('ok');
    expect(viaWalk.status).toBe('ok');
    const feed = lastFeed(a.db)!;
    expect(feed).toMatchObject({ used: true, reason: 'feed' });
    expect(feed.notifications).toBeGreaterThan(0);
    expect(feed.shipments).toBeGreaterThan(0);
    expect(lastFeed(b.db)).toMatchObject({ used: false, reason: 'no_anchor' });

    const afterFeed = contents(a.db);
    const afterWalk = contents(b.db);
    // The tick changed records (else this proves nothing), and both copies hold the same of every one.
    expect(differing(before.containers, afterWalk.containers).length).toBeGreaterThan(0);
    expect(differing(before.transport_events, afterWalk.transport_events).length).toBeGreaterThan(0);
    for (const table of ['shipments', 'containers', 'transport_events'] as const) {
      expect(differing(afterFeed[table], afterWalk[table]), table).toEqual([]);
    }
    expect(viaFeed.requests).toBeLessThan(viaWalk.requests);
    a.close();
    b.close();
  }, 120_000);

  it('over a whole day of every kind of change (the walk made to look dearer), still stores what the walk would', async () => {
    const sb = sandbox.get();
    const a = syncOf(sb);
    expect((await a.engine.run({ mode: 'full' })).status).toBe('ok');
    expect((await a.engine.run({ mode: 'incremental' })).status).toBe('ok');
    sb.advance(DAY - MINUTE);
    const bPath = join(tempDir(), 'walk-day.sqlite');
    a.db.pragma('wal_checkpoint(TRUNCATE)');
    copyFileSync(a.dbPath, bPath);
    const b = syncOf(sb, { dbPath: bPath });
    b.db.prepare("DELETE FROM sync_state WHERE key = 'feed:anchor'").run();
    // The feed stands in while it costs less than the walk's pages: say the walk has a thousand.
    a.db.prepare(`UPDATE sync_state SET value = '1000' WHERE key = 'pages:shipments:active'`).run();
    // And events are fetched box by box, so no walk of every container hides what the feed missed.
    for (const db of [a.db, b.db]) {
      db.prepare(
        `INSERT INTO sync_state (key, value, updated_at) VALUES ('events:include_honoured', 'false', '')
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      ).run();
    }
    const before = contents(a.db);
    expect((await a.engine.run({ mode: 'incremental' })).status).toBe('ok');
    expect((await b.engine.run({ mode: 'incremental' })).status).toBe('ok');
    const feed = lastFeed(a.db)!;
    expect(feed).toMatchObject({ used: true, reason: 'feed' });
    expect(feed.shipments).toBeGreaterThan(20);
    const afterFeed = contents(a.db);
    const afterWalk = contents(b.db);
    expect(differing(before.shipments, afterWalk.shipments).length).toBeGreaterThan(5);
    expect(differing(before.containers, afterWalk.containers).length).toBeGreaterThan(20);
    for (const table of ['shipments', 'containers', 'transport_events'] as const) {
      expect(differing(afterFeed[table], afterWalk[table]), table).toEqual([]);
    }
    a.close();
    b.close();
  }, 120_000);

  it('walks when the notifications since the anchor would cost more than the walk', async () => {
    const sb = sandbox.get();
    const sync = syncOf(sb);
    expect((await sync.engine.run({ mode: 'full' })).status).toBe('ok');
    expect((await sync.engine.run({ mode: 'incremental' })).status).toBe('ok');
    sb.advance(3 * DAY);
    expect((await sync.engine.run({ mode: 'incremental' })).status).toBe('ok');
    expect(lastFeed(sync.db)).toMatchObject({ used: false, reason: 'too_many' });
    // The walk read everything as of the new anchor: the next run may use the feed again.
    expect((await sync.engine.run({ mode: 'incremental' })).status).toBe('ok');
    expect(lastFeed(sync.db)).toMatchObject({ used: true, reason: 'feed' });
    sync.close();
  }, 120_000);

  it('walks when the webhook that heard everything is gone, or hears less', async () => {
    const sb = sandbox.get();
    const sync = syncOf(sb);
    expect((await sync.engine.run({ mode: 'full' })).status).toBe('ok');
    expect((await sync.engine.run({ mode: 'incremental' })).status).toBe('ok');
    expect(lastFeed(sync.db)).toMatchObject({ reason: 'no_anchor' });
    const hooks = await call(sb, '/webhooks');
    const all = (hooks.body.data as { id: string; attributes: { events: string[] } }[]).filter(
      (h) => h.attributes.events.length > 10,
    );
    expect(all.length).toBeGreaterThan(0);
    for (const h of all) {
      const edited = await call(sb, `/webhooks/${h.id}`, {
        method: 'PATCH',
        body: { data: { type: 'webhook', id: h.id, attributes: { events: ['container.updated'] } } },
      });
      expect(edited.status).toBe(200);
    }
    sb.advance(10 * MINUTE);
    expect((await sync.engine.run({ mode: 'incremental' })).status).toBe('ok');
    expect(lastFeed(sync.db)).toMatchObject({ used: false, reason: 'no_webhook' });

    // A new webhook hears everything, but from now on only: the anchor was read without it.
    const created = await call(sb, '/webhooks', {
      method: 'POST',
      body: { data: { type: 'webhook', attributes: { url: 'https://hooks.example.com/again', active: true } } },
    });
    expect(created.status).toBe(201);
    // Within six hours of finding none, the webhooks are not asked again.
    expect((await sync.engine.run({ mode: 'incremental' })).status).toBe('ok');
    expect(lastFeed(sync.db)).toMatchObject({ used: false, reason: 'no_webhook' });
    // Six hours on, they are (the check's time moved back): the new one anchors a walk, and the
    // feed serves the run after.
    const sevenHoursAgo = JSON.stringify(new Date(Date.now() - 7 * 3_600_000).toISOString());
    sync.db.prepare(`UPDATE sync_state SET value = ? WHERE key = 'feed:none_checked_at'`).run(sevenHoursAgo);
    expect((await sync.engine.run({ mode: 'incremental' })).status).toBe('ok');
    expect(lastFeed(sync.db)).toMatchObject({ used: false, reason: 'no_anchor' });
    sb.advance(10 * MINUTE);
    expect((await sync.engine.run({ mode: 'incremental' })).status).toBe('ok');
    expect(lastFeed(sync.db)).toMatchObject({ used: true, reason: 'feed' });
    sync.close();
  }, 120_000);
});
