/**
 * Withdrawn events over time: a departure or discharge the carrier first reports at a
 * wrong time shows at that time until the carrier withdraws it; the next incremental sync brings
 * the withdrawal and the correction, and the milestone moves to the corrected time while the
 * event list keeps the withdrawn report, marked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWorld } from '../../src/sandbox/generate';
import { DEMO_API_KEY, type Sandbox } from '../../src/sandbox/index';
import type { ContainerPlan, Milestone, WithdrawnReport } from '../../src/sandbox/model';
import type { ContainerDetail, TransportEventRow } from '../../src/shared/types';
import { syncNow, testCore, value } from '../helpers/core';
import { startTestSandbox } from '../helpers/sandbox';

const seed = 'corrections';
const shipments = 30;
const start = Date.parse('2026-03-02T09:30:00Z');

// The plan the sandbox will serve: the first container whose withdrawn report is still to come.
const world = generateWorld({ seed, shipments, now: start });
const planned = world.shipments
  .flatMap((s) => s.containers)
  .flatMap((container) => container.milestones.map((milestone) => ({ container, milestone })))
  .filter(({ milestone }) => milestone.withdrawn !== undefined && milestone.reportedAt > start)
  .sort((a, b) => a.milestone.reportedAt - b.milestone.reportedAt)[0] as
  { container: ContainerPlan; milestone: Milestone & { withdrawn: WithdrawnReport } } | undefined;

let sandbox: Sandbox | undefined;
const { core } = testCore({
  demo: {
    async start() {
      sandbox = await startTestSandbox({ seed, shipments, start, tick: 0 });
      return { url: sandbox.url, apiKey: DEMO_API_KEY, close: () => sandbox!.close() };
    },
  },
});
afterAll(() => core.close());

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
/** Moves the sandbox's clock to one minute past `at`, then syncs what changed. */
async function syncAt(at: number, mode: 'full' | 'incremental'): Promise<void> {
  const now = sandbox!.clock.now();
  if (at + 60_000 > now) sandbox!.advance((at + 60_000 - now) / 1000);
  expect((await syncNow(core, mode)).state).toBe('idle');
}

beforeAll(async () => {
  expect(planned, 'the seed plans a withdrawal after the start').toBeDefined();
  // Anything first, so the sandbox is up; then to the moment the wrong report is known.
  expect((await syncNow(core, 'full')).state).toBe('idle');
  await syncAt(planned!.milestone.reportedAt, 'full');
}, 120_000);

describe('a withdrawal arriving with a later sync', () => {
  it('shows the first report as the milestone until the carrier withdraws it, then the correction', async () => {
    const { container, milestone } = planned!;
    const key = milestone.key;
    const wrong = iso(milestone.withdrawn.at);
    const right = iso(milestone.at);

    const before = await value<ContainerDetail>(core, 'containers:get', { id: container.id });
    expect(before.milestones.find((m) => m.key === key)).toMatchObject({ at: wrong, estimated: false });
    const first = await value<{ events: TransportEventRow[] }>(core, 'containers:events', { id: container.id });
    expect(first.events.find((e) => e.id === milestone.withdrawn.id)).toMatchObject({
      timestamp: wrong,
      withdrawnAt: null,
      replacedBy: null,
    });
    expect(first.events.find((e) => e.id === milestone.id)).toBeUndefined();

    await syncAt(milestone.withdrawn.withdrawnAt, 'incremental');

    const after = await value<ContainerDetail>(core, 'containers:get', { id: container.id });
    expect(after.milestones.find((m) => m.key === key)).toMatchObject({ at: right, estimated: false, corrected: true });
    const { events } = await value<{ events: TransportEventRow[] }>(core, 'containers:events', { id: container.id });
    expect(events.find((e) => e.id === milestone.withdrawn.id)).toMatchObject({
      timestamp: wrong,
      withdrawnAt: iso(milestone.withdrawn.withdrawnAt),
      replacedBy: milestone.id,
    });
    expect(events.find((e) => e.id === milestone.id)).toMatchObject({
      timestamp: right,
      withdrawnAt: null,
      replaces: milestone.withdrawn.id,
    });
  });
});
