/**
 * The containers list sorted by last free day opens on what needs action: boxes not yet picked up,
 * by last free day (the overdue ones first), and boxes already picked up or returned empty after
 * them, whichever way round the sort goes (they are done with their last free day).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/sandbox/index';
import type { ContainerRow } from '../../src/shared/rows';
import { syncNow, testCore, value } from '../helpers/core';
import { startTestSandbox } from '../helpers/sandbox';

const start = Date.parse('2026-03-02T09:30:00Z');
const { core } = testCore({
  demo: {
    async start() {
      const sandbox = await startTestSandbox({ seed: 'lfd-sort', shipments: 60, start, tick: 0, shape: 'reference' });
      return { url: sandbox.url, apiKey: DEMO_API_KEY, close: () => sandbox.close() };
    },
  },
});

beforeAll(async () => {
  expect((await syncNow(core, 'full')).state).toBe('idle');
}, 60_000);
afterAll(() => core.close());

const done = (row: ContainerRow) => row.status === 'picked_up' || row.status === 'empty_returned';

async function sorted(direction: 'asc' | 'desc'): Promise<ContainerRow[]> {
  const page = await value<{ rows: ContainerRow[]; next: string | null }>(core, 'containers:list', {
    sort: { field: 'last_free_day', direction },
    page: { limit: 500 },
  });
  expect(page.next).toBeNull();
  return page.rows;
}

describe('containers by last free day', () => {
  it('lists boxes still waiting by deadline, and boxes done or without one after them', async () => {
    const rows = await sorted('asc');
    const waiting = rows.filter((r) => !done(r) && r.lfdDeadlineAt !== null);
    // The demo book has both kinds, or the order below would prove nothing.
    expect(waiting.length).toBeGreaterThan(2);
    expect(rows.some((r) => done(r) && r.lfdDeadlineAt !== null)).toBe(true);

    expect(rows.slice(0, waiting.length)).toEqual(waiting);
    const deadlines = waiting.map((r) => r.lfdDeadlineAt!);
    expect(deadlines).toEqual([...deadlines].sort());
  });

  it('keeps the boxes already picked up after the waiting ones when the order is turned round', async () => {
    const rows = await sorted('desc');
    const waiting = rows.filter((r) => !done(r) && r.lfdDeadlineAt !== null);
    expect(rows.slice(0, waiting.length)).toEqual(waiting);
    const deadlines = waiting.map((r) => r.lfdDeadlineAt!);
    expect(deadlines).toEqual([...deadlines].sort().reverse());
  });

  it('pages through the same order with its cursor', async () => {
    const all = await sorted('asc');
    const seen: string[] = [];
    let after: string | null | undefined;
    do {
      const page: { rows: ContainerRow[]; next: string | null } = await value(core, 'containers:list', {
        sort: { field: 'last_free_day', direction: 'asc' },
        page: { limit: 7, ...(after ? { after } : {}) },
      });
      seen.push(...page.rows.map((r) => r.id));
      after = page.next;
    } while (after);
    expect(seen).toEqual(all.map((r) => r.id));
  });
});
