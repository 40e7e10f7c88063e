/**
 * The XLSX export's cells. Read back with read-excel-file (a dependency, used by
 * the import), so each check is what a spreadsheet program would show: dates as dates in the
 * column's zone, numbers as numbers, text as sent minus what a cell must not carry.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { unzipSync, strFromU8 } from 'fflate';
import readExcelFile from 'read-excel-file/node';
import { describe, expect, it } from 'vitest';
import { dateOnly, timestamp, type CellValue, type ExportColumn } from '../../src/core/export/columns';
import { MAX_CELL_LENGTH } from '../../src/core/export/csv';
import { excelSerial, xmlText } from '../../src/core/export/xlsx-cells';
import { writeXlsx } from '../../src/core/export/xlsx';
import { exportToFile } from '../../src/core/export/write-file';
import { tempDir } from '../helpers/temp-dir';

interface Cell {
  id: number;
  value: CellValue;
}
const cellColumns: ExportColumn<Cell>[] = [
  { key: 'id', header: 'ID', value: (row) => row.id },
  { key: 'value', header: 'Value', value: (row) => row.value },
];

function collect() {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  return { out, bytes: () => Buffer.concat(chunks) };
}

async function workbook<Row>(rows: Row[], columns: ExportColumn<Row>[], headerStyle?: 'human' | 'keys') {
  const sink = collect();
  const result = await writeXlsx({ rows, columns, out: sink.out, headerStyle, sheetName: 'Shipments' });
  return { result, bytes: sink.bytes() };
}

async function readBack<Row>(rows: Row[], columns: ExportColumn<Row>[]) {
  const { bytes } = await workbook(rows, columns);
  const sheets = await readExcelFile(bytes, { trim: false });
  // The reader turns a serial into a Date by floating point, a millisecond either side: to the second.
  return sheets[0]!.data.map((row) => row.map((cell) => (cell instanceof Date ? toSecond(cell) : cell)));
}

function toSecond(date: Date): Date {
  return new Date(Math.round(date.getTime() / 1000) * 1000);
}

function part(bytes: Buffer, name: string): string {
  return strFromU8(unzipSync(new Uint8Array(bytes))[name]!);
}

describe('writeXlsx', () => {
  it('writes numbers as numbers, booleans as booleans and text as text, empty cells empty', async () => {
    const rows = await readBack(
      [
        { id: 1, value: 12.5 },
        { id: 2, value: 'MSCU1234567' },
        { id: 3, value: true },
        { id: 4, value: null },
        { id: 5, value: ['a', 'b'] },
        { id: 6, value: Number.NaN },
        { id: 7, value: '00123' },
      ],
      cellColumns,
    );
    expect(rows).toEqual([
      ['ID', 'Value'],
      [1, 12.5],
      [2, 'MSCU1234567'],
      [3, true],
      [4, null],
      [5, 'a; b'],
      [6, null],
      // Text of digits stays text: leading zeros are kept.
      [7, '00123'],
    ]);
  });

  it('freezes the header row, makes it bold and puts an autofilter over the header and every row', async () => {
    const { bytes, result } = await workbook(
      [1, 2, 3].map((id) => ({ id, value: `v${id}` })),
      cellColumns,
    );
    expect(result.rows).toBe(3);
    const sheet = part(bytes, 'xl/worksheets/sheet1.xml');
    expect(sheet).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>');
    expect(sheet).toContain('<autoFilter ref="A1:B4"/>');
    expect(sheet).toMatch(/<c r="A1" s="1" t="inlineStr"><is><t>ID<\/t>/);
    expect(part(bytes, 'xl/workbook.xml')).toContain(`'Shipments'!$A$1:$B$4`);
    // No cell of the sheet is a formula.
    expect(sheet).not.toContain('<f>');
  });

  it('names the columns by key with the keys header style', async () => {
    const rows = await readBack([{ id: 1, value: 'x' }], cellColumns);
    expect(rows[0]).toEqual(['ID', 'Value']);
    const { bytes } = await workbook([{ id: 1, value: 'x' }], cellColumns, 'keys');
    expect((await readExcelFile(bytes))[0]!.data[0]).toEqual(['id', 'value']);
  });
});

describe('dates', () => {
  interface Event {
    at: string | null;
    zone: string | null;
    lfd?: string | null;
  }
  const columns: ExportColumn<Event>[] = [
    ...timestamp<Event>(
      'eta',
      'ETA',
      (r) => r.at,
      (r) => r.zone,
    ),
    dateOnly<Event>(
      'lfd',
      'Last free day',
      (r) => r.lfd,
      (r) => r.zone,
    ),
  ];

  it('writes the UTC instant and the port local wall clock as Excel dates with date formats', async () => {
    const { bytes } = await workbook(
      [{ at: '2026-03-01T14:05:09Z', zone: 'America/Los_Angeles', lfd: '2026-03-04' }],
      columns,
    );
    const sheet = part(bytes, 'xl/worksheets/sheet1.xml');
    // Serial numbers, styled: 46082 is 2026-03-01.
    expect(sheet).toContain(`<c r="A2" s="2"><v>${46082 + (14 * 3600 + 5 * 60 + 9) / 86400}</v></c>`);
    expect(sheet).toContain(`<c r="B2" s="3"><v>${46082 + (6 * 60 + 5) / 1440}</v></c>`);
    expect(sheet).toContain('<c r="C2" s="4"><v>46085</v></c>');
    const styles = part(bytes, 'xl/styles.xml');
    expect(styles).toContain('formatCode="yyyy-mm-dd hh:mm:ss"');
    // read-excel-file takes them as dates (it reads the serial as UTC).
    const rows = (await readExcelFile(bytes))[0]!.data;
    expect(rows[1]!.map((cell) => toSecond(cell as unknown as Date))).toEqual([
      new Date('2026-03-01T14:05:09Z'),
      new Date('2026-03-01T06:05:00Z'),
      new Date('2026-03-04T00:00:00Z'),
    ]);
  });

  it('follows the zone across a DST change: the wall clock before and after the spring gap and the autumn overlap', async () => {
    const rows = await readBack(
      [
        // Los Angeles springs forward at 2026-03-08 10:00Z (02:00 PST becomes 03:00 PDT).
        { at: '2026-03-08T09:59:00Z', zone: 'America/Los_Angeles' },
        { at: '2026-03-08T10:00:00Z', zone: 'America/Los_Angeles' },
        // Rotterdam falls back at 2026-10-25 01:00Z (03:00 CEST becomes 02:00 CET).
        { at: '2026-10-25T00:30:00Z', zone: 'Europe/Amsterdam' },
        { at: '2026-10-25T01:30:00Z', zone: 'Europe/Amsterdam' },
        // A zone the export cannot read leaves the local cell empty, the UTC cell stays.
        { at: '2026-05-01T12:00:00Z', zone: 'Mars/Olympus' },
      ],
      columns,
    );
    expect(rows.slice(1).map((r) => r.slice(0, 2))).toEqual([
      [new Date('2026-03-08T09:59:00Z'), new Date('2026-03-08T01:59:00Z')],
      [new Date('2026-03-08T10:00:00Z'), new Date('2026-03-08T03:00:00Z')],
      [new Date('2026-10-25T00:30:00Z'), new Date('2026-10-25T02:30:00Z')],
      [new Date('2026-10-25T01:30:00Z'), new Date('2026-10-25T02:30:00Z')],
      [new Date('2026-05-01T12:00:00Z'), null],
    ]);
  });

  it('lands a last free day given as local midnight on the port calendar day', async () => {
    const rows = await readBack([{ at: null, zone: 'Asia/Shanghai', lfd: '2026-03-03T16:00:00Z' }], columns);
    expect(rows[1]).toEqual([null, null, new Date('2026-03-04T00:00:00Z')]);
  });

  it('reads only the dates this writer makes as serials', () => {
    expect(excelSerial('2026-03-01')).toBe(46082);
    expect(excelSerial('2026-03-01 06:05 PST')).toBeCloseTo(46082.2535, 4);
    expect(excelSerial(new Date('2026-03-01T12:00:00Z'))).toBe(46082.5);
    expect(excelSerial('2026-02-30')).toBeUndefined();
    expect(excelSerial('1900-01-01')).toBeUndefined();
    expect(excelSerial('not a date')).toBeUndefined();
  });
});

describe('hostile text', () => {
  it('escapes XML, keeps formula-like text as text, and strips what XML 1.0 and a cell must not carry', async () => {
    const hostile = [
      '<script>&amp;</script>',
      '=HYPERLINK("http://evil","click")',
      '@SUM(A1)',
      'a\u0000b\u0008c\u001Fd\uFFFEe\uFFFFf',
      'line1\r\nline2\rline3',
      'lone \uD800 surrogate \uDC00 halves',
      'rtl \u202Eevil\u202C text',
      '_x0041_ stays',
      '  padded  ',
      '🚢 ship',
    ];
    const { bytes } = await workbook(
      hostile.map((value, id) => ({ id, value })),
      cellColumns,
    );
    const sheet = part(bytes, 'xl/worksheets/sheet1.xml');
    expect(sheet).not.toContain('<script>');
    expect(sheet).not.toContain('<f>');
    // eslint-disable-next-line no-control-regex -- the point of the check
    expect(sheet).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/);
    // Spaces at either end and line breaks are kept by saying so (xml:space); other text is bare.
    expect(sheet).toContain('<t xml:space="preserve">  padded  </t>');
    expect(sheet).toContain('<t xml:space="preserve">line1\nline2\nline3</t>');
    expect(sheet).toContain('<t>@SUM(A1)</t>');
    const values = (await readExcelFile(bytes, { trim: false }))[0]!.data.slice(1).map((r) => r[1]);
    expect(values).toEqual([
      '<script>&amp;</script>',
      // A string cell is never run as a formula: the text stays as sent, no `'` before it.
      '=HYPERLINK("http://evil","click")',
      '@SUM(A1)',
      'abcdef',
      'line1\nline2\nline3',
      'lone  surrogate  halves',
      'rtl evil text',
      '_x0041_ stays',
      '  padded  ',
      '🚢 ship',
    ]);
  });

  it('drops LINE SEPARATOR and PARAGRAPH SEPARATOR as the CSV does', async () => {
    const values = ['Rotter\u2028dam', 'two\u2029paragraphs', 'both\u2028\u2029 at once <b>'];
    const { bytes } = await workbook(
      values.map((value, id) => ({ id, value })),
      cellColumns,
    );
    expect(part(bytes, 'xl/worksheets/sheet1.xml')).not.toMatch(/[\u2028\u2029]/u);
    const cells = (await readExcelFile(bytes, { trim: false }))[0]!.data.slice(1).map((r) => r[1]);
    expect(cells).toEqual(['Rotterdam', 'twoparagraphs', 'both at once <b>']);
  });

  it(`cuts a cell longer than Excel's ${MAX_CELL_LENGTH} characters with the CSV's marker`, async () => {
    const long = 'x'.repeat(40_000);
    const values = (await readBack([{ id: 1, value: long }], cellColumns))[1]!;
    const cell = values[1] as string;
    expect(cell.length).toBe(MAX_CELL_LENGTH);
    expect(cell).toMatch(/… \[cut: 7,\d{3} more characters\]$/);
    // The same with characters to escape: the cut counts what the cell shows, not the XML.
    expect(xmlText('&'.repeat(40_000)).startsWith('&amp;&amp;')).toBe(true);
    const amp = (await readBack([{ id: 1, value: '&'.repeat(40_000) }], cellColumns))[1]![1] as string;
    expect(amp.length).toBe(MAX_CELL_LENGTH);
  });
});

describe('exportToFile as XLSX', () => {
  it('writes a workbook that a reader opens, all or nothing as the CSV', async () => {
    const dir = tempDir('quayside-xlsx-');
    const path = join(dir, 'out.xlsx');
    const result = await exportToFile(path, {
      rows: [{ id: 1, value: 'a' }],
      columns: cellColumns,
      format: 'xlsx',
    });
    expect(result.rows).toBe(1);
    expect(readFileSync(path).subarray(0, 2).toString()).toBe('PK');
    expect((await readExcelFile(path))[0]!.data).toEqual([
      ['ID', 'Value'],
      [1, 'a'],
    ]);
  });

  it('stops on abort and leaves the source closed', async () => {
    const controller = new AbortController();
    let closed = false;
    function* rows() {
      try {
        for (let id = 0; id < 10_000; id++) {
          if (id === 1500) controller.abort();
          yield { id, value: 'x' };
        }
      } finally {
        closed = true;
      }
    }
    const sink = collect();
    await expect(
      writeXlsx({ rows: rows(), columns: cellColumns, out: sink.out, signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(closed).toBe(true);
  });
});
