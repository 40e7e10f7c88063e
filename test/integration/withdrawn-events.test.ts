/**
 * Issue 14, withdrawn and corrected events: the sandbox sends a few containers' departure or
 * discharge first at a wrong time, then withdraws it (`invalidated_at`) and sends the right time
 * as a correction (`previous_version`). After a sync the container's milestones show the
 * correction, never the withdrawn time, and its event list keeps both, the withdrawn one marked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, startSandbox } from '../../src/sandbox/index';
import type { ContainerRow } from '../../src/shared/rows';
import type { ContainerDetail, TransportEventRow } from '../../src/shared/types';
import type { Page } from '../../src/shared/views';
import { syncNow, testCore, value } from '../helpers/core';

const start = Date.parse('2026-03-02T09:30:00Z');
let sandboxUrl = '';
const { core } = testCore({
  demo: {
    async start() {
      // This seed and size give three containers with a withdrawn event at `start`.
      const sandbox = await startSandbox({ seed: 'corrections', shipments: 30, start, tick: 0 });
      sandboxUrl = sandbox.url;
      return { url: sandbox.url, apiKey: DEMO_API_KEY, close: () => sandbox.close() };
    },
  },
});

interface Withdrawal {
  containerId: string;
  withdrawn: TransportEventRow;
  correction: TransportEventRow;
}
const withdrawals: Withdrawal[] = [];

beforeAll(async () => {
  expect((await syncNow(core, 'full')).state).toBe('idle');
  const page = await value<Page<ContainerRow>>(core, 'containers:list', { page: { limit: 200 } });
  for (const row of page.rows) {
    const { events } = await value<{ events: TransportEventRow[] }>(core, 'containers:events', { id: row.id });
    const withdrawn = events.find((e) => e.withdrawnAt !== null);
    if (!withdrawn) continue;
    const correction = events.find((e) => e.replaces === withdrawn.id);
    expect(correction, `the correction of ${withdrawn.id}`).toBeDefined();
    withdrawals.push({ containerId: row.id, withdrawn, correction: correction! });
  }
}, 60_000);
afterAll(() => core.close());

async function api(path: string): Promise<{ data: unknown; included?: unknown[] }> {
  const response = await fetch(`${sandboxUrl}${path}`, { headers: { Authorization: `Token ${DEMO_API_KEY}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as { data: unknown; included?: unknown[] };
}

interface EventResource {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, { data: { id: string } | null }>;
}

describe('withdrawn and corrected transport events', () => {
  it('the sandbox serialises invalidated_at, value, source_event and previous_version on every event, in both reads', async () => {
    expect(withdrawals.length).toBe(3);
    const { containerId, withdrawn, correction } = withdrawals[0]!;
    const listed = (await api(`/containers/${containerId}/transport_events`)).data as EventResource[];
    const included = ((await api(`/containers/${containerId}?include=transport_events`)).included ?? []).filter(
      (r) => (r as EventResource).type === 'transport_event',
    ) as EventResource[];
    for (const events of [listed, included]) {
      expect(events.map((e) => e.id).sort()).toEqual(expect.arrayContaining([withdrawn.id, correction.id]));
      for (const e of events) {
        expect(e.attributes).toHaveProperty('invalidated_at');
        expect(e.attributes.value).toBeNull();
        expect(e.relationships.source_event).toEqual({ data: null });
        expect(e.relationships).toHaveProperty('previous_version');
      }
      const old = events.find((e) => e.id === withdrawn.id)!;
      const fix = events.find((e) => e.id === correction.id)!;
      expect(typeof old.attributes.invalidated_at).toBe('string');
      expect(old.relationships.previous_version).toEqual({ data: null });
      expect(fix.attributes.invalidated_at).toBeNull();
      expect(fix.relationships.previous_version!.data).toEqual({ id: withdrawn.id, type: 'transport_event' });
      expect(fix.attributes.timestamp).not.toBe(old.attributes.timestamp);
      // Events that stand carry null.
      const others = events.filter((e) => e.id !== withdrawn.id);
      for (const e of others) expect(e.attributes.invalidated_at).toBeNull();
    }
  });

  it("each container's milestone is the correction, and its event list keeps both events, the withdrawn one marked", async () => {
    const kinds = new Set<string>();
    for (const { containerId, withdrawn, correction } of withdrawals) {
      expect(correction.event).toBe(withdrawn.event);
      expect(correction.timestamp).not.toBe(withdrawn.timestamp);
      expect(withdrawn.replacedBy).toBe(correction.id);
      expect(correction.withdrawnAt).toBeNull();
      expect(correction.replacedBy).toBeNull();

      const key = withdrawn.event.replace('container.transport.', '');
      kinds.add(key);
      const detail = await value<ContainerDetail>(core, 'containers:get', { id: containerId });
      const milestone = detail.milestones.find((m) => m.key === key);
      expect(milestone).toMatchObject({ at: correction.timestamp, estimated: false, corrected: true });
      expect(detail.milestones.map((m) => m.at)).not.toContain(withdrawn.timestamp);
    }
    // The seed has both kinds the sandbox withdraws.
    expect([...kinds].sort()).toEqual(['vessel_departed', 'vessel_discharged']);
  });
});
