/**
 * Withdrawn and corrected events: the sandbox sends a few containers' departure or
 * discharge first at a wrong time, then withdraws it (`invalidated_at`) and sends the right time
 * as a correction (`previous_version`). After a sync the container's milestones show the
 * correction, never the withdrawn time, and its event list keeps both, the withdrawn one marked.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index';
import { DEMO_API_KEY } from '../../src/sandbox/index';
import type { ContainerRow } from '../../src/shared/rows';
import type { ContainerDetail, TransportEventRow } from '../../src/shared/types';
import type { Page } from '../../src/shared/views';
import { capture } from '../helpers/capture';
import { failure, syncNow, testCore, value } from '../helpers/core';
import { startTestSandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp-dir';

const start = Date.parse('2026-03-02T09:30:00Z');
let sandboxUrl = '';
const exportDir = tempDir();
const { core } = testCore({
  chooseExportPath: (suggested) => Promise.resolve(join(exportDir, suggested)),
  demo: {
    async start() {
      // This seed and size give three containers with a withdrawn event at `start`.
      const sandbox = await startTestSandbox({ seed: 'corrections', shipments: 30, start, tick: 0 });
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

  /** A CSV written by the exporter as rows of cells (none of these cells holds a comma or quote). */
  const csv = (path: string) =>
    readFileSync(path, 'utf8')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));

  it("export:events writes a container's events with a column saying which one the carrier withdrew, and when", async () => {
    const { containerId, withdrawn, correction } = withdrawals[0]!;
    const result = await value<{ path: string; rows: number; cancelled: boolean }>(core, 'export:events', {
      containerId,
    });
    const { events } = await value<{ events: TransportEventRow[] }>(core, 'containers:events', { id: containerId });
    expect(result).toMatchObject({ rows: events.length, cancelled: false });
    expect(result.path).toMatch(/quayside-events-[A-Z]{4}\d{7}-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...rows] = csv(result.path);
    const cell = (row: string[], name: string) => row[header!.indexOf(name)];
    expect(header).toEqual(
      expect.arrayContaining(['Withdrawn by the carrier', 'Withdrawn (UTC)', 'Corrected by event', 'Corrects event']),
    );
    const byId = new Map(rows.map((row) => [cell(row, 'Event id'), row]));
    expect(rows.map((row) => cell(row, 'Event id'))).toEqual(events.map((e) => e.id));
    const old = byId.get(withdrawn.id)!;
    expect([
      cell(old, 'Withdrawn by the carrier'),
      cell(old, 'Withdrawn (UTC)'),
      cell(old, 'Corrected by event'),
    ]).toEqual(['yes', withdrawn.withdrawnAt, correction.id]);
    expect(cell(old, 'Time (UTC)')).toBe(withdrawn.timestamp);
    const fix = byId.get(correction.id)!;
    expect([cell(fix, 'Withdrawn by the carrier'), cell(fix, 'Withdrawn (UTC)'), cell(fix, 'Corrects event')]).toEqual([
      'no',
      '',
      withdrawn.id,
    ]);
    // Every other event stands.
    const standing = rows.filter((row) => row !== old);
    expect(standing.every((row) => cell(row, 'Withdrawn by the carrier') === 'no')).toBe(true);
    // A bad argument is refused before anything runs.
    expect((await failure(core, 'export:events', { containerId: '' })).code).toBe('invalid_argument');
    expect((await failure(core, 'export:events', { id: containerId })).code).toBe('invalid_argument');
  });

  it("the CLI exports every container's events (or one container's by number) with the same column", async () => {
    const dbPath = (await value<{ path: string }>(core, 'data:info')).path;
    const run = async (args: string[]) => {
      const o = capture();
      const e = capture();
      const code = await runCli(args, { out: o.stream, err: e.stream });
      return { code, out: o.text(), err: e.text() };
    };
    const all = join(exportDir, 'all-events.csv');
    const answer = await run(['export', 'events', '--db', dbPath, '--out', all, '--header-style', 'keys']);
    expect(answer).toMatchObject({ code: 0, err: '' });
    const [header, ...rows] = csv(all);
    expect(answer.out).toBe(`Wrote ${rows.length} events to ${all}\n`);
    const at = (name: string) => header!.indexOf(name);
    expect(at('withdrawn')).toBeGreaterThan(0);
    const withdrawnIds = rows.filter((row) => row[at('withdrawn')] === 'yes').map((row) => row[at('id')]);
    expect(withdrawnIds.sort()).toEqual(withdrawals.map((w) => w.withdrawn.id).sort());

    const { containerId } = withdrawals[1]!;
    const detail = await value<ContainerDetail>(core, 'containers:get', { id: containerId });
    const one = join(exportDir, 'one-container.csv');
    const byNumber = await run([
      'export',
      'events',
      '--db',
      dbPath,
      '--out',
      one,
      '--container',
      detail.container.number!,
    ]);
    expect(byNumber.code).toBe(0);
    const [, ...oneRows] = csv(one);
    expect(oneRows.length).toBeGreaterThan(1);
    expect(new Set(oneRows.map((row) => row[0]))).toEqual(new Set([detail.container.number]));
    expect(oneRows.filter((row) => row.includes('yes'))).toHaveLength(1);

    expect(await run(['export', 'events', '--db', dbPath, '--out', one, '--container', 'ZZZU0000000'])).toMatchObject({
      code: 1,
      err: 'There is no container ZZZU0000000 in the local data (yet).\n',
    });
    expect((await run(['export', 'events', '--db', dbPath, '--out', one, '--carrier', 'MAEU'])).code).toBe(2);
  });
});
