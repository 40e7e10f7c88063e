/**
 * A container's raw events, the carrier's own words for each milestone: read one box at a time
 * within the descriptor's budget, the boxes a forwarder needs today first, again only when a box
 * changed; shown beside its milestone on the container page and in the events export.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { containerDetail, containerEvents } from '../../src/core/details/details';
import { exportEvents } from '../../src/core/export/export-events';
import { rawEvents } from '../../src/core/resources/raw-events';
import { urgentContainerIds } from '../../src/core/store/queries/sync-plan';
import { SyncEngine } from '../../src/core/sync/engine';
import { originalEventText } from '../../src/sandbox/event-names';
import { useSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';
import { tempDir } from '../helpers/temp-dir';

const START = Date.parse('2026-06-01T12:00:00Z');
const budget = rawEvents.api!.under!.budget;

describe("the carriers' raw events", () => {
  const sandbox = useSandbox({
    seed: 'raw-events',
    shipments: 40,
    start: START,
    tick: 0,
    rateLimit: { limit: 1_000_000, windowSeconds: 60 },
  });

  it('are read a budget of boxes a run, urgent first, again only for boxes that changed; shown and exported', async () => {
    const paths: string[] = [];
    const sync = syncOf(sandbox.get(), { onRequest: (e) => paths.push(e.path) });
    let clock = START;
    const engine = new SyncEngine({
      db: sync.db,
      client: sync.client,
      meter: sync.meter,
      rateLimit: { limit: 1_000_000, windowMs: 60_000 },
      now: () => new Date(clock),
    });
    const boxesRead = () =>
      paths.filter((p) => p.includes('/raw_events')).map((p) => decodeURIComponent(p.split('/')[3]!));
    try {
      expect(await engine.run({ mode: 'full' })).toMatchObject({ status: 'ok' });
      const first = boxesRead();
      const containers = sync.db
        .prepare('SELECT count(*) FROM containers WHERE raw IS NOT NULL')
        .pluck()
        .get() as number;
      expect(containers).toBeGreaterThan(budget);
      expect(first).toHaveLength(budget);
      // Every box a forwarder needs today (holds, a last free day or an arrival close) came first.
      const soon = new Date(clock + 3 * 86_400_000).toISOString();
      const urgent = urgentContainerIds(sync.db, { lfdBy: soon, arrivingBy: soon });
      expect(urgent.length).toBeGreaterThan(0);
      expect(urgent.length).toBeLessThanOrEqual(budget);
      expect(first).toEqual(expect.arrayContaining(urgent));

      // The next run reads the boxes not read yet, none twice.
      paths.length = 0;
      clock += 60_000;
      expect(await engine.run({ mode: 'incremental' })).toMatchObject({ status: 'ok' });
      const second = boxesRead();
      expect(second.length).toBe(Math.min(budget, containers - budget));
      expect(second.filter((id) => first.includes(id))).toEqual([]);
      // Until every box is read once, then a quiet run reads none.
      while (boxesRead().length > 0) {
        paths.length = 0;
        clock += 60_000;
        expect(await engine.run({ mode: 'incremental' })).toMatchObject({ status: 'ok' });
      }
      expect(sync.db.prepare('SELECT count(DISTINCT container_id) FROM raw_events').pluck().get()).toBe(containers);

      // Four days later the boxes whose own data changed are read again, and only those.
      sandbox.get().advance(4 * 86_400);
      clock += 4 * 86_400_000;
      paths.length = 0;
      const before = new Map(
        (sync.db.prepare('SELECT id, changed_at FROM containers').all() as { id: string; changed_at: string }[]).map(
          (r) => [r.id, r.changed_at],
        ),
      );
      expect(await engine.run({ mode: 'incremental' })).toMatchObject({ status: 'ok' });
      const changed = (
        sync.db.prepare('SELECT id, changed_at FROM containers').all() as { id: string; changed_at: string }[]
      )
        .filter((r) => before.get(r.id) !== r.changed_at)
        .map((r) => r.id);
      expect(changed.length).toBeGreaterThan(0);
      expect(boxesRead()).toHaveLength(Math.min(budget, changed.length));
      expect(boxesRead().every((id) => changed.includes(id))).toBe(true);

      // The container page: the carrier's own words beside the milestones they name.
      const box = sandbox.get().store.containers.find((c) => containerEvents(sync.db, c.id).length > 2)!;
      const detail = containerDetail(sync.db, box.id);
      const worded = detail.milestones.filter((m) => m.carrierWording !== undefined);
      expect(worded.length).toBeGreaterThan(0);
      for (const m of worded) expect(m.carrierWording).toBe(originalEventText[m.key as keyof typeof originalEventText]);

      // The events export gives them in their own column.
      const file = join(tempDir(), 'events.csv');
      await exportEvents(sync.db, file, { container: box.id });
      const rows = parse<Record<string, string>>(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''), { columns: true });
      expect(rows.length).toBeGreaterThan(0);
      const withWording = rows.filter((r) => r["Carrier's wording"] !== '');
      expect(withWording.length).toBeGreaterThan(0);
      for (const r of withWording) {
        const key = r['Event code']!.replace('container.transport.', '');
        expect(r["Carrier's wording"]).toBe(originalEventText[key as keyof typeof originalEventText]);
      }
    } finally {
      sync.close();
    }
  });
});
