/**
 * A list exported as one file per customer, through `export:perCustomer` (in its worker, into the
 * folder the dialog gives) and through the CLI's `export … --per customer --out-dir DIR`. The
 * service names some customers to trouble a file system: a path (`../x`), a name Windows
 * reserves (`CON`), 80 CJK characters, emoji sequences, bidi overrides, only dots, an empty
 * name, two names alike but for case and two alike once cleaned. Each file holds exactly the
 * rows the one-file export of the same list holds for its customer, in the same order; no name
 * leaves the folder or replaces a file already there.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import readExcelFile from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index';
import { exitCodes } from '../../src/cli/exit-codes';
import { openForReading } from '../../src/cli/database-files';
import { exportPerCustomer } from '../../src/core/export/export-per-customer';
import { DEMO_API_KEY, startSandbox } from '../../src/sandbox/index';
import type { PerCustomerExportResult } from '../../src/shared/export-per-customer';
import type { ExportResult } from '../../src/shared/types';
import { capture } from '../helpers/capture';
import { failure, syncNow, testCore, value } from '../helpers/core';
import { tempDir } from '../helpers/temp-dir';

const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
/** Customer names, each given to two shipments the service lists. */
const hostile = [
  'Harbor Freight Co',
  'HARBOR FREIGHT CO',
  'Pier 9: Imports',
  'Pier 9? Imports',
  '../x',
  'CON',
  '海'.repeat(80),
  `🚢${family.repeat(40)}`,
  'Invoice\u202Efdp.exe',
  'Line\nbreak\ttab',
  '...',
  '',
];
/** The file each is written to: case and cleaning collide and are numbered, in name order. */
const expectedFiles: Record<string, string> = {
  'HARBOR FREIGHT CO': 'HARBOR FREIGHT CO.csv',
  'Harbor Freight Co': 'Harbor Freight Co (2).csv',
  'Pier 9: Imports': 'Pier 9_ Imports.csv',
  'Pier 9? Imports': 'Pier 9_ Imports (2).csv',
  '../x': '_x.csv',
  CON: '_CON.csv',
  // 48 characters of 3 bytes and `.csv`: 148 bytes, the 49th would pass 150.
  ['海'.repeat(80)]: `${'海'.repeat(48)}.csv`,
  // The ship (4 bytes) and 7 whole families (18 bytes each) and `.csv`: 134; an 8th would be 152.
  [`🚢${family.repeat(40)}`]: `🚢${family.repeat(7)}.csv`,
  'Invoice\u202Efdp.exe': 'Invoicefdp.exe.csv',
  'Line\nbreak\ttab': 'Line break tab.csv',
  '...': 'Unnamed customer.csv',
};

let folders: (string | null)[] = [];
const asked: string[] = [];
const exportDir = tempDir();
const { core, logs } = testCore({
  demo: {
    async start() {
      const sandbox = await startSandbox({
        seed: 'per-customer',
        shipments: 40,
        tick: 0,
        routing: false,
        rateLimit: { limit: 10_000, windowSeconds: 60 },
      });
      const listed = sandbox.store.shipments.filter((s) => s.createdAt <= sandbox.clock.now());
      hostile.forEach((companyName, i) => {
        const party = { id: `party-hostile-${i}`, companyName, createdAt: 0 };
        listed[2 * i]!.customer = party;
        listed[2 * i + 1]!.customer = party;
      });
      return { url: sandbox.url, apiKey: DEMO_API_KEY, close: () => sandbox.close() };
    },
  },
  chooseExportPath: (suggested) => Promise.resolve(join(exportDir, `${asked.push(suggested)}-${suggested}`)),
  chooseExportFolder: (format) => {
    asked.push(format);
    return Promise.resolve(folders.shift() ?? null);
  },
});
let dbPath = '';

beforeAll(async () => {
  const sync = await syncNow(core, 'full').catch((error: unknown) => {
    throw new Error(`${String(error)}\n${logs.join('\n')}`);
  });
  expect(sync.state).toBe('idle');
  dbPath = (await value<{ path: string }>(core, 'data:info')).path;
}, 60_000);
afterAll(() => core.close());

function readCsv(path: string): string[][] {
  return parse(readFileSync(path, 'utf8'), { bom: true, record_delimiter: '\r\n' });
}

/** The raw customer of each container and shipment, by its number, as the database holds it. */
function customersByNumber(): Map<string, string | null> {
  const db = new Database(dbPath, { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT c.number AS number, s.customer_name AS customer FROM containers c JOIN shipments s ON s.id = c.shipment_id
         UNION ALL SELECT bill_of_lading, customer_name FROM shipments`,
      )
      .all() as { number: string; customer: string | null }[];
    return new Map(rows.map((r) => [r.number, r.customer]));
  } finally {
    db.close();
  }
}

/** A customer as the export groups them: none for a blank name. */
const groupOf = (customer: string | null | undefined) =>
  customer === null || customer === undefined || /^ *$/.test(customer) ? null : customer;

async function perCustomer(args: Record<string, unknown>, folder: string | null): Promise<PerCustomerExportResult> {
  folders = [folder];
  return value<PerCustomerExportResult>(core, 'export:perCustomer', args);
}

describe('export:perCustomer', () => {
  it('writes each customer its own file, named safely, holding the rows the one-file export holds for it', async () => {
    const folder = tempDir();
    const args = { view: 'shipments', headerStyle: 'human' };
    const result = await perCustomer(args, folder);
    expect(result.cancelled).toBe(false);
    expect(result.folder).toBe(resolve(folder));
    expect(result.kept).toBe(0);

    for (const [customer, file] of Object.entries(expectedFiles)) {
      expect(result.files.find((f) => f.customer === customer)?.file, customer).toBe(file);
    }
    // The empty name and the shipments with no customer share one file, after the named ones.
    expect(result.files.at(-1)).toMatchObject({ customer: null, file: 'No customer.csv' });
    expect(result.files.filter((f) => f.customer === null)).toHaveLength(1);
    const names = result.files.map((f) => f.file);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
    expect(readdirSync(folder).sort()).toEqual([...names].sort());
    for (const name of names) {
      expect(Buffer.byteLength(name, 'utf8')).toBeLessThanOrEqual(150);
      // eslint-disable-next-line no-control-regex -- no control character may be in a name
      expect(name).not.toMatch(/[/\\<>:"|?*\u0000-\u001f\u202a-\u202e\u2066-\u2069]|^[.\s]|[.\s]\.csv$/);
    }

    // The one-file export of the same list, split by each row's customer, is what the files hold.
    const single = await value<ExportResult>(core, 'export:list', args);
    const [header, ...rows] = readCsv(single.path!);
    const numberAt = header!.indexOf('Bill of lading');
    const customers = customersByNumber();
    expect(result.rows).toBe(rows.length);
    for (const file of result.files) {
      const [fileHeader, ...fileRows] = readCsv(join(folder, file.file));
      expect(fileHeader).toEqual(header);
      const expected = rows.filter((row) => groupOf(customers.get(row[numberAt]!)) === file.customer);
      expect(fileRows, file.file).toEqual(expected);
      expect(file.rows).toBe(expected.length);
    }
    expect(asked).toContain('csv');
  });

  it('keeps the list’s filters and sort: the containers of two carriers, by number, per customer', async () => {
    const every = await value<{ rows: { carrierScac: string | null }[] }>(core, 'containers:list', {
      page: { limit: 500 },
    });
    const carriers = [...new Set(every.rows.map((r) => r.carrierScac).filter((c): c is string => c !== null))];
    const filters = { carriers: carriers.slice(0, 2) };
    const filtered = await value<number>(core, 'containers:count', { filters });
    expect(filtered).toBeGreaterThan(0);
    expect(filtered).toBeLessThan(every.rows.length);

    const args = { view: 'containers', filters, sort: { field: 'number', direction: 'desc' } };
    const folder = tempDir();
    const result = await perCustomer(args, folder);
    expect(result.rows).toBe(filtered);
    const single = await value<ExportResult>(core, 'export:list', args);
    const [header, ...rows] = readCsv(single.path!);
    const customers = customersByNumber();
    const numberAt = header!.indexOf('Container');
    for (const file of result.files) {
      const [, ...fileRows] = readCsv(join(folder, file.file));
      expect(fileRows).toEqual(rows.filter((row) => groupOf(customers.get(row[numberAt]!)) === file.customer));
    }
    expect(new Set(result.files.map((f) => f.customer)).size).toBe(result.files.length);
  });

  it('never replaces a file already in the folder: the new one takes a number, and the summary counts it', async () => {
    const folder = tempDir();
    writeFileSync(join(folder, 'No customer.csv'), 'mine');
    writeFileSync(join(folder, '_CON.csv'), 'mine too');
    const result = await perCustomer({ view: 'shipments' }, folder);
    expect(result.kept).toBe(2);
    expect(readFileSync(join(folder, 'No customer.csv'), 'utf8')).toBe('mine');
    expect(readFileSync(join(folder, '_CON.csv'), 'utf8')).toBe('mine too');
    expect(result.files.find((f) => f.customer === null)?.file).toBe('No customer (2).csv');
    expect(result.files.find((f) => f.customer === 'CON')?.file).toBe('_CON (2).csv');
    expect(readCsv(join(folder, '_CON (2).csv'))).toHaveLength(3);
  });

  it('writes Excel workbooks with the same rows per customer', async () => {
    const folder = tempDir();
    const csv = await perCustomer({ view: 'tracking-requests' }, tempDir());
    const result = await perCustomer({ view: 'tracking-requests', format: 'xlsx' }, folder);
    expect(asked.at(-1)).toBe('xlsx');
    expect(result.files.map((f) => [f.customer, f.rows])).toEqual(csv.files.map((f) => [f.customer, f.rows]));
    for (const file of result.files) {
      expect(file.file).toMatch(/\.xlsx$/);
      const sheet = (await readExcelFile(join(folder, file.file)))[0]!.data;
      expect(sheet).toHaveLength(file.rows + 1);
    }
  });

  it('writes nothing when the folder dialog is cancelled, and refuses a list without customers', async () => {
    const cancelled = await perCustomer({ view: 'shipments' }, null);
    expect(cancelled).toEqual({ folder: null, files: [], rows: 0, kept: 0, cancelled: true });
    const before = asked.length;
    const refused = await failure(core, 'export:perCustomer', { view: 'email-submissions' });
    expect(refused.code).toBe('invalid_argument');
    expect(refused.message).toBe('This list names no customer to make one file per customer by.');
    // Refused before any dialog opened.
    expect(asked).toHaveLength(before);
  });

  it('leaves the folder as it was when the export stops part way', async () => {
    const folder = tempDir();
    writeFileSync(join(folder, 'keep.txt'), 'mine');
    const opened = openForReading(dbPath);
    if ('error' in opened) throw new Error(opened.error);
    const stop = new AbortController();
    try {
      // Cancelled once the first file is written: the files written so far go again.
      const run = exportPerCustomer(opened.db, folder, {
        view: 'shipments',
        signal: stop.signal,
        onProgress: () => stop.abort(),
      });
      await expect(run).rejects.toThrow('The export was cancelled.');
    } finally {
      opened.db.close();
    }
    expect(readdirSync(folder)).toEqual(['keep.txt']);
  });
});

describe('export … --per customer', () => {
  async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
    const out = capture();
    const err = capture();
    const code = await runCli(['export', ...args], { out: out.stream, err: err.stream });
    return { code, out: out.text(), err: err.text() };
  }

  it('prints what it wrote as JSON: the folder, each file with its customer and rows, the rows in all', async () => {
    const dir = join(tempDir(), 'made', 'here');
    const { code, out, err } = await cli([
      'containers',
      '--db',
      dbPath,
      '--per',
      'customer',
      '--out-dir',
      dir,
      '--json',
    ]);
    expect(err).toBe('');
    expect(code).toBe(exitCodes.ok);
    const answer = JSON.parse(out) as {
      folder: string;
      files: { customer: string | null; file: string; rows: number }[];
      rows: number;
    };
    expect(Object.keys(answer)).toEqual(['folder', 'files', 'rows']);
    expect(answer.folder).toBe(resolve(dir));
    expect(answer.rows).toBe(await value<number>(core, 'containers:count', { filters: {} }));
    expect(answer.files.reduce((n, f) => n + f.rows, 0)).toBe(answer.rows);
    for (const file of answer.files) {
      expect(Object.keys(file)).toEqual(['customer', 'file', 'rows']);
      expect(readCsv(join(dir, file.file))).toHaveLength(file.rows + 1);
    }
    expect(answer.files.find((f) => f.customer === '../x')?.file).toBe('_x.csv');
    expect(readdirSync(dir)).toHaveLength(answer.files.length);
  });

  it('prints one line per file and one for the whole, with the same filters as the one-file export', async () => {
    const dir = tempDir();
    const { code, out } = await cli([
      'shipments',
      '--db',
      dbPath,
      '--per',
      'customer',
      '--out-dir',
      dir,
      '--customer',
      'CON',
      '--customer',
      '../x',
    ]);
    expect(code).toBe(exitCodes.ok);
    expect(out).toBe(
      `Wrote 2 rows for ../x to ${join(dir, '_x.csv')}\n` +
        `Wrote 2 rows for CON to ${join(dir, '_CON.csv')}\n` +
        `Wrote 4 rows in 2 files to ${dir}\n`,
    );
  });

  it.each([
    [['--per', 'shipper', '--out-dir', 'X'], '--per takes customer only (one file per customer), not "shipper".'],
    [['--per', 'customer'], '--per customer needs --out-dir DIR, the folder to write into.'],
    [['--out-dir', 'X'], '--out-dir goes with --per customer (one file per customer).'],
    [
      ['--per', 'customer', '--out-dir', 'X', '--out', 'a.csv'],
      '--per customer writes into a folder: give --out-dir DIR, not --out FILE.',
    ],
    [['--per', 'customer', '--out-dir', 'X', '--format', 'pdf'], '--format must be csv or xlsx, not "pdf".'],
  ])('refuses %j with one sentence and exit 2, writing nothing', async (flags, sentence) => {
    const cwd = tempDir();
    const { code, out, err } = await cli([
      'shipments',
      '--db',
      dbPath,
      ...flags.map((f) => (f === 'X' ? join(cwd, 'x') : f)),
    ]);
    expect(code).toBe(exitCodes.usage);
    expect(out).toBe('');
    expect(err.split('\n')[0]).toBe(sentence);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('refuses a list that names no customer', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'x'));
    const { code, err } = await cli([
      'email-submissions',
      '--db',
      dbPath,
      '--per',
      'customer',
      '--out-dir',
      join(dir, 'x'),
    ]);
    expect(code).toBe(exitCodes.usage);
    expect(err.split('\n')[0]).toBe(
      'email-submissions name no customer: --per customer goes with shipments, containers or tracking-requests.',
    );
    expect(readdirSync(join(dir, 'x'))).toEqual([]);
  });
});
