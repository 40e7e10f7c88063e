/**
 * The live service re-stamps `rail_last_tracking_request_at` on every check of a
 * box on rail. Counted as a change, it would mark every rail box changed on every sync and fetch
 * its events again, one request each. Two syncs a second apart, where only check times moved:
 * no box is changed and no events are fetched.
 */
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';

describe('a sync where only check times moved', () => {
  const requests: string[] = [];
  // Half a minute past: the service reports on the minute, so one second later nothing but the
  // check times (to the second) has moved.
  const start = Date.parse('2026-03-02T09:30:30Z');
  const sandbox = useSandbox({ seed: 'volatile', shipments: 150, start, tick: 0, log: (line) => requests.push(line) });

  it('leaves rail boxes unchanged and fetches no events', async () => {
    const sync = syncOf(sandbox.get());
    expect((await sync.engine.run({ mode: 'full' })).status).toBe('ok');
    const asked = () =>
      new Map(
        (
          sync.db
            .prepare(
              `SELECT id, changed_at, json_extract(raw, '$.attributes.rail_last_tracking_request_at') AS asked
               FROM containers WHERE json_extract(raw, '$.attributes.rail_last_tracking_request_at') IS NOT NULL`,
            )
            .all() as { id: string; changed_at: string; asked: string }[]
        ).map((r) => [r.id, r]),
      );
    const before = asked();
    expect(before.size).toBeGreaterThan(0);

    sandbox.get().advance(1);
    requests.length = 0;
    expect((await sync.engine.run({ mode: 'incremental' })).status).toBe('ok');
    const after = asked();
    // The boxes were written again with their new check time, and none counts as changed.
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [id, row] of after) {
      expect(row.asked).not.toBe(before.get(id)!.asked);
      expect(row.changed_at).toBe(before.get(id)!.changed_at);
    }
    expect(requests.filter((line) => /\/v2\/containers\/[^/?\s]+\/transport_events/.test(line))).toEqual([]);
    sync.close();
  });
});
