/**
 * Pickup truth end to end: a sandbox synced through core, the containers list
 * over IPC carrying what the decision reads (terminal check time, whose last free day), and the
 * CSV export answering as the shared decision does at the export's moment, with the stale limit
 * from Settings: the same boxes read "Ready" on fresh data and "Can’t tell" once it is old. The
 * list's "Ready for pickup" filter returns exactly the boxes called Ready, at each moment and limit.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/sandbox/index';
import { pickupStateLabels, pickupTruth } from '../../src/shared/pickup';
import type { ContainerRow } from '../../src/shared/rows';
import { syncNow, testCore, value } from '../helpers/core';
import { startTestSandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp-dir';

const HOUR = 3_600_000;
const start = Date.parse('2026-03-02T09:30:00Z');
let clock = start;
const exportDir = tempDir();
let exported = 0;
const { core } = testCore({
  demo: {
    async start() {
      const sandbox = await startTestSandbox({ seed: 'pickup-truth', shipments: 80, start, tick: 0 });
      return { url: sandbox.url, apiKey: DEMO_API_KEY, close: () => sandbox.close() };
    },
  },
  chooseExportPath: (suggested) => Promise.resolve(join(exportDir, `${exported++}-${suggested}`)),
  now: () => clock,
});

const rows: ContainerRow[] = [];
beforeAll(async () => {
  expect((await syncNow(core, 'full')).state).toBe('idle');
  let after: string | null = null;
  do {
    const page: { rows: ContainerRow[]; next: string | null } = await value(core, 'containers:list', {
      page: after ? { limit: 200, after } : { limit: 200 },
    });
    rows.push(...page.rows);
    after = page.next;
  } while (after);
}, 60_000);
afterAll(() => core.close());

/** The numbers of the boxes the list's "Ready for pickup" filter returns, over IPC. */
async function readyFiltered(): Promise<string[]> {
  const count = await value<number>(core, 'containers:count', { filters: { pickupReady: true } });
  const page = await value<{ rows: ContainerRow[] }>(core, 'containers:list', {
    filters: { pickupReady: true },
    page: { limit: 500 },
  });
  expect(page.rows).toHaveLength(count);
  return page.rows.map((r) => r.number!).sort();
}

/** The export's pickup columns by container number. */
async function exportPickup(): Promise<Map<string, Record<string, string>>> {
  const result = await value<{ path: string }>(core, 'export:list', {
    view: 'containers',
    columns: ['number', 'pickup', 'pickup_detail', 'lfd_source', 'terminal_checked_at', 'pickup_ready'],
    headerStyle: 'keys',
  });
  const records = parse<Record<string, string>>(readFileSync(result.path, 'utf8'), { columns: true, bom: true });
  return new Map(records.map((r) => [r.number!, r]));
}

describe('pickup truth through the store, IPC and export', () => {
  it('lists each box with its terminal check time and whose last free day it has', () => {
    const atTerminal = rows.filter((r) => r.status === 'discharged' || r.status === 'available');
    expect(atTerminal.length).toBeGreaterThan(3);
    for (const r of atTerminal) {
      // The sandbox checks a terminal every 3 hours (plus a few minutes) while a box is there.
      const age = start - Date.parse(r.terminalCheckedAt!);
      expect(age, r.number!).toBeGreaterThanOrEqual(0);
      expect(age, r.number!).toBeLessThan(3 * HOUR + 900_000);
    }
    const withLfd = rows.filter((r) => r.lastFreeDay !== null);
    expect(withLfd.length).toBeGreaterThan(0);
    for (const r of withLfd) expect(['terminal', 'rail']).toContain(r.lfdSource);
    expect(rows.filter((r) => r.lastFreeDay === null).every((r) => r.lfdSource === null)).toBe(true);
  });

  it('exports the answer the container page gives: ready on fresh data, can’t tell once stale', async () => {
    const fresh = await exportPickup();
    expect(fresh.size).toBe(rows.length);
    const states = new Set<string>();
    for (const r of rows) {
      const truth = pickupTruth(r, start, 24);
      states.add(truth.state);
      const line = fresh.get(r.number!)!;
      expect(line.pickup, r.number!).toBe(pickupStateLabels[truth.state]);
      expect(line.pickup_detail, r.number!).toBe(truth.reasons.join('; '));
      expect(line.terminal_checked_at, r.number!).toBe(r.terminalCheckedAt ?? '');
      // "Ready for pickup" says yes exactly where the Pickup column says Ready.
      expect(line.pickup_ready, r.number!).toBe(String(truth.state === 'ready'));
    }
    // The demo fleet has boxes of each kind at this moment.
    expect([...states].sort()).toEqual(['done', 'not_ready', 'ready']);
    const ready = rows.filter((r) => pickupTruth(r, start, 24).state === 'ready');
    // The list's filter returns exactly the boxes the column calls Ready.
    expect(await readyFiltered()).toEqual(ready.map((r) => r.number!).sort());

    // 30 hours on, nothing synced: no box at the terminal is called ready any more.
    clock = start + 30 * HOUR;
    const later = await exportPickup();
    for (const r of ready) {
      expect(later.get(r.number!)).toMatchObject({
        pickup: 'Can’t tell',
        pickup_detail: 'Terminal data older than 24 h: availability may have changed',
        // The stored flag still says available and no hold; the file no longer calls the box ready.
        pickup_ready: 'false',
      });
      expect(r.pickupReady, r.number!).toBe(true);
    }
    expect([...later.values()].some((line) => line.pickup === 'Ready')).toBe(false);
    expect(await readyFiltered()).toEqual([]);

    // With a 48-hour limit in Settings the same data is fresh enough again.
    await value(core, 'settings:update', { terminalStaleHours: 48 });
    const lenient = await exportPickup();
    for (const r of ready) expect(lenient.get(r.number!)?.pickup).toBe('Ready');
    const readyLater = rows.filter((r) => pickupTruth(r, clock, 48).state === 'ready');
    expect(readyLater.length).toBeGreaterThanOrEqual(ready.length);
    expect(await readyFiltered()).toEqual(readyLater.map((r) => r.number!).sort());
  });
});
