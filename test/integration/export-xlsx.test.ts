/**
 * A list exported as an Excel workbook holds what its CSV export holds (the
 * same rows, order and columns, each cell the same value), with dates as dates and numbers as
 * numbers, through `export:list` with format xlsx and through the CLI's `export --out FILE.xlsx`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import readExcelFile from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index';
import { exitCodes } from '../../src/cli/exit-codes';
import { DEMO_API_KEY } from '../../src/sandbox/index';
import { capture } from '../helpers/capture';
import { syncNow, testCore, value } from '../helpers/core';
import { startTestSandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp-dir';

const start = Date.parse('2026-03-02T09:30:00Z');
const exportDir = tempDir();
const asked: string[] = [];
const { core } = testCore({
  demo: {
    async start() {
      const sandbox = await startTestSandbox({ seed: 'xlsx-export', shipments: 40, start, tick: 0 });
      return { url: sandbox.url, apiKey: DEMO_API_KEY, close: () => sandbox.close() };
    },
  },
  chooseExportPath: (suggested) => {
    asked.push(suggested);
    return Promise.resolve(join(exportDir, `${asked.length}-${suggested}`));
  },
});
let dbPath = '';

beforeAll(async () => {
  expect((await syncNow(core, 'full')).state).toBe('idle');
  dbPath = (await value<{ path: string }>(core, 'data:info')).path;
}, 60_000);
afterAll(() => core.close());

type Cell = string | number | boolean | Date | null;

function readCsv(path: string): string[][] {
  return parse(readFileSync(path, 'utf8'), { bom: true });
}

async function readXlsx(path: string): Promise<Cell[][]> {
  return (await readExcelFile(path, { trim: false }))[0]!.data as unknown as Cell[][];
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A Date the reader made from a serial, to the second (it rounds by floating point). */
function wallClock(date: Date): string {
  const d = new Date(Math.round(date.getTime() / 1000) * 1000);
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}

/**
 * Whether the workbook's cell stands for the CSV's: a date for its text (UTC to the second, the
 * port's wall clock to the minute before the zone's abbreviation, a calendar date), a number
 * for its digits, a boolean for true/false, text for itself (the CSV's `'` before a formula
 * start is the CSV's own guard), an empty cell for an empty one.
 */
function same(xlsx: Cell | undefined, csv: string): boolean {
  if (xlsx === null || xlsx === undefined) return csv === '';
  if (xlsx instanceof Date) {
    const clock = wallClock(xlsx);
    if (/^\d{4}-\d{2}-\d{2}$/.test(csv)) return clock === `${csv}T00:00:00`;
    if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(csv)) return `${clock}Z` === csv;
    const local = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}) \S+$/.exec(csv);
    return local !== null && clock === `${local[1]}T${local[2]}:00`;
  }
  if (typeof xlsx === 'number') return String(xlsx) === csv;
  if (typeof xlsx === 'boolean') return String(xlsx) === csv;
  return xlsx === csv || `'${xlsx}` === csv;
}

function expectSameTable(xlsx: Cell[][], csv: string[][]): void {
  expect(xlsx.length).toBe(csv.length);
  expect(xlsx[0]).toEqual(csv[0]);
  const differing: string[] = [];
  csv.forEach((row, r) =>
    row.forEach((text, c) => {
      if (!same(xlsx[r]![c], text)) differing.push(`row ${r + 1} ${csv[0]![c]}: ${String(xlsx[r]![c])} vs ${text}`);
    }),
  );
  expect(differing).toEqual([]);
}

const views = [
  { view: 'shipments', sort: { field: 'eta', direction: 'desc' }, filters: {} },
  {
    view: 'containers',
    sort: { field: 'last_free_day', direction: 'asc' },
    filters: { statuses: ['available', 'discharged', 'in_transit'] },
  },
  { view: 'tracking-requests', sort: undefined, filters: {} },
];

describe('export:list with format xlsx', () => {
  for (const v of views) {
    it(`${v.view}: the workbook holds the CSV's rows, order, columns and values, dates and numbers typed`, async () => {
      const csv = await value<{ path: string; rows: number }>(core, 'export:list', {
        view: v.view,
        filters: v.filters,
        sort: v.sort,
      });
      const xlsx = await value<{ path: string; rows: number; cancelled: boolean }>(core, 'export:list', {
        view: v.view,
        filters: v.filters,
        sort: v.sort,
        format: 'xlsx',
      });
      // Main's save dialog is asked for an .xlsx name, and the file is a zip.
      expect(asked.at(-1)).toMatch(new RegExp(`^quayside-${v.view}-\\d{4}-\\d{2}-\\d{2}\\.xlsx$`));
      expect(readFileSync(xlsx.path).subarray(0, 2).toString()).toBe('PK');
      expect(xlsx.rows).toBe(csv.rows);
      expect(xlsx.rows).toBeGreaterThan(0);
      const table = await readXlsx(xlsx.path);
      expectSameTable(table, readCsv(csv.path));
      if (v.view === 'shipments') {
        // Dates are dates, not text.
        const eta = table[0]!.indexOf('ETA (UTC)');
        expect(eta).toBeGreaterThanOrEqual(0);
        expect(table.slice(1).some((row) => row[eta] instanceof Date)).toBe(true);
      }
    });
  }

  it('exports the columns asked for, in that order', async () => {
    const columns = [
      'number',
      'pod_eta_at_local',
      'pod_eta_at',
      'pickup_lfd',
      'fees_total',
      'available_for_pickup',
      'tags',
    ];
    const csv = await value<{ path: string }>(core, 'export:list', { view: 'containers', columns });
    const xlsx = await value<{ path: string }>(core, 'export:list', { view: 'containers', columns, format: 'xlsx' });
    const table = await readXlsx(xlsx.path);
    expect(table[0]!.length).toBe(columns.length);
    expectSameTable(table, readCsv(csv.path));
    const cells = (key: string) => table.slice(1).map((row) => row[columns.indexOf(key)]);
    expect(cells('pod_eta_at_local').some((cell) => cell instanceof Date)).toBe(true);
    expect(cells('pickup_lfd').some((cell) => cell instanceof Date)).toBe(true);
    expect(cells('available_for_pickup').every((cell) => cell === null || typeof cell === 'boolean')).toBe(true);
    expect(cells('fees_total').every((cell) => cell === null || typeof cell === 'number')).toBe(true);
  });
});

describe('quayside export --out', () => {
  const cli = async (args: string[]) => {
    const o = capture();
    const e = capture();
    const code = await runCli(args, { out: o.stream, err: e.stream });
    return { code, out: o.text(), err: e.text() };
  };

  it('writes a workbook for .xlsx and CSV for .csv, of the same rows', async () => {
    const dir = tempDir();
    const flags = ['--sort', 'eta:desc', '--carrier', 'MAEU', '--carrier', 'MSCU'];
    const asCsv = await cli(['export', 'shipments', '--db', dbPath, '--out', join(dir, 's.csv'), ...flags]);
    const asXlsx = await cli(['export', 'shipments', '--db', dbPath, '--out', join(dir, 'S.XLSX'), ...flags]);
    expect(asCsv.code).toBe(exitCodes.ok);
    expect(asXlsx).toMatchObject({ code: exitCodes.ok, err: '' });
    expect(asXlsx.out).toMatch(/^Wrote \d+ rows to .*S\.XLSX\n$/);
    expect(readFileSync(join(dir, 's.csv')).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expectSameTable(await readXlsx(join(dir, 'S.XLSX')), readCsv(join(dir, 's.csv')));
  });

  it('exits 2 with a sentence for any other extension, and writes nothing', async () => {
    const dir = tempDir();
    for (const name of ['shipments.txt', 'shipments', 'shipments.xls']) {
      const run = await cli(['export', 'shipments', '--db', dbPath, '--out', join(dir, name)]);
      expect(run.code).toBe(exitCodes.usage);
      expect(run.err).toMatch(/^--out must end in \.csv \(a CSV file\) or \.xlsx \(an Excel workbook\)/);
    }
    const events = await cli(['export', 'events', '--db', dbPath, '--out', join(dir, 'events.xlsx')]);
    expect(events.code).toBe(exitCodes.usage);
    expect(events.err).toMatch(/^export events writes CSV only/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
