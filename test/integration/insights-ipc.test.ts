/**
 * Insights through the IPC contract, as the view will call it: `insights:get` answers from the
 * session's reads the figures computed again from the stored records, with the cost at the rates
 * in Settings; `insights:export` writes a table (CSV and Excel) whose rows are those figures, ranked
 * first; a bad argument is refused before it runs.
 */
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byRank, flatArrival } from '../../src/core/insights/flat';
import type { Sandbox } from '../../src/sandbox/index';
import type { Rates } from '../../src/shared/exposure';
import type { InsightsResult } from '../../src/shared/insights';
import type { ExportResult } from '../../src/shared/types';
import { failure, syncNow, testCore, value } from '../helpers/core';
import { referenceArrivals, referenceDwell } from '../helpers/insights-reference';
import { startTestSandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp-dir';

const rates: Rates = {
  currency: 'EUR',
  sets: [{ scope: 'default', match: '', demurrage: [{ fromDay: 1, perDay: 100 }], detention: null }],
};

describe('insights through the IPC contract', () => {
  let sandbox: Sandbox;
  const exportDir = tempDir();
  const apiKey = `insights-${randomUUID()}`;
  const { core, dataDir } = testCore({
    chooseExportPath: (name) => Promise.resolve(join(exportDir, name)),
    demo: { start: () => Promise.resolve({ url: sandbox.url, apiKey, close: () => Promise.resolve() }) },
  });

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 'insights-ipc', shipments: 80, apiKeys: [apiKey] });
    expect((await syncNow(core, 'full')).state).toBe('idle');
    await value(core, 'settings:update', { rates });
  });
  afterAll(async () => {
    await core.close();
    await sandbox.close();
  });

  it('answers the figures the stored records give, with the cost at the rates in Settings', async () => {
    const result = await value<InsightsResult>(core, 'insights:get', { zone: 'Europe/Amsterdam', minimum: 3 });
    expect(result).toMatchObject({ zone: 'Europe/Amsterdam', minimum: 3, customer: null });
    const db = new Database(join(dataDir, 'demo', 'demo.sqlite'), { readonly: true });
    const options = { ...result, rates, customer: null };
    const arrivals = referenceArrivals(db, options);
    const dwell = referenceDwell(db, options);
    db.close();
    const byKey = <G extends { key: string; kind?: string }>(groups: G[]) =>
      new Map(groups.map((g) => [`${g.kind ?? ''}|${g.key}`, g]));
    expect(byKey(result.carriers)).toEqual(
      byKey(arrivals.filter((g) => g.dimension === 'carrier' && g.month === null)),
    );
    expect(byKey(result.terminals)).toEqual(byKey(dwell.filter((g) => g.month === null)));
    expect(result.terminals.some((g) => g.cost?.currency === 'EUR' && g.cost.demurrage > 0)).toBe(true);
  });

  it('exports a table as CSV and as Excel, ranked groups first', async () => {
    const result = await value<InsightsResult>(core, 'insights:get', { months: false });
    const csv = await value<ExportResult>(core, 'insights:export', { table: 'carriers' });
    expect(csv).toMatchObject({ cancelled: false, rows: result.carriers.length });
    const lines = readFileSync(csv.path!, 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toMatch(
      /^Key,Carrier,Carrier name,Pol,Pol name,Pod,Pod name,Month,Shipments,Small,Rank,On time share,/,
    );
    const first = byRank(result.carriers, (g) => g.shipments).map(flatArrival)[0]!;
    expect(lines[1]!.startsWith(`${first.key as string},`)).toBe(true);
    expect(lines).toHaveLength(result.carriers.length + 1);
    const xlsx = await value<ExportResult>(core, 'insights:export', {
      table: 'terminals',
      byMonth: true,
      format: 'xlsx',
    });
    const monthly = await value<InsightsResult>(core, 'insights:get', {});
    expect(xlsx).toMatchObject({ cancelled: false, rows: monthly.months.terminals.length });
    expect(readFileSync(xlsx.path!).subarray(0, 2).toString()).toBe('PK');
  });

  it('refuses a range whose first day is after its last, and an unknown table, before running', async () => {
    expect(await failure(core, 'insights:get', { from: '2026-05-02', to: '2026-05-01' })).toMatchObject({
      code: 'invalid_argument',
    });
    expect(await failure(core, 'insights:export', { table: 'ports' })).toMatchObject({ code: 'invalid_argument' });
  });
});
