/**
 * Files a careless user or an attacker hands to the import, through the CLI and the app's import
 * channel: devices, pipes, folders and files that are huge, that grow while read, that unzip to
 * gigabytes while declaring a kilobyte, and programs, images and documents in a CSV's or a
 * workbook's name. Each is refused in one sentence, reading stops at the limits, and the database
 * the import would write to still opens with its data and syncs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { constants, crc32, deflateRawSync, gzipSync } from 'node:zlib';
import { strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import writeExcelFile from 'write-excel-file/node';
import { runImport } from '../../src/cli/commands/import';
import { runCli } from '../../src/cli/index';
import { exitCodes } from '../../src/cli/exit-codes';
import { MAX_UNZIPPED_BYTES, MAX_ZIP_ENTRIES } from '../../src/core/import/unzip';
import { openDatabase } from '../../src/core/store/database';
import { MAX_IMPORT_BYTES, type ImportTable } from '../../src/shared/imports';
import { capture } from '../helpers/capture';
import { failure, syncNow, testCore, value } from '../helpers/core';
import { useSandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp-dir';

const KEY = 'import-KEY-hostile-9a8b7c6d5e4f';
const MB = 1024 * 1024;
const UNZIP_LIMIT = `${MAX_UNZIPPED_BYTES / MB} MB`;
/** A long file name in CJK: 80 characters, 240 bytes in UTF-8 (under the 255 most file systems allow). */
const CJK = '顧客の追跡番号一覧表'.repeat(8);

/** A zip entry as the test writes it: its packed bytes, the size it declares and its checksum. */
interface Entry {
  name: string;
  packed: Uint8Array;
  declared: number;
  crc: number;
}

const entry = (name: string, data: Uint8Array): Entry => ({
  name,
  packed: deflateRawSync(data),
  declared: data.length,
  crc: crc32(data),
});

/**
 * Deflated bytes that inflate to `megabytes` MB of sheet rows: one megabyte deflated and flushed to
 * a byte boundary (so its copies follow one another), repeated, then an empty final block.
 */
function inflatesTo(megabytes: number): Uint8Array {
  const row = Buffer.from('<row><c t="n"><v>1</v></c></row>');
  const segment = deflateRawSync(Buffer.alloc(MB, row), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  return Buffer.concat([...Array.from({ length: megabytes }, () => segment), Buffer.from([0x03, 0x00])]);
}

/** A zip written byte by byte, each entry's local header and directory record declaring `declared`. */
function zipOf(entries: Entry[]): Buffer {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let at = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(e.crc, 14);
    local.writeUInt32LE(e.packed.length, 18);
    local.writeUInt32LE(e.declared, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(e.crc, 16);
    central.writeUInt32LE(e.packed.length, 20);
    central.writeUInt32LE(e.declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(at, 42);
    parts.push(local, name, Buffer.from(e.packed));
    directory.push(central, name);
    at += local.length + name.length + e.packed.length;
  }
  const list = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(list.length, 12);
  end.writeUInt32LE(at, 16);
  return Buffer.concat([...parts, list, end]);
}

/**
 * A real workbook whose two sheets' directory and local headers declare 1,000 bytes each, and
 * which really inflate to a gigabyte each: about 2 MB on disk.
 */
async function zipBomb(): Promise<Buffer> {
  const workbook = unzipSync(await writeExcelFile([[{ value: 'Container' }], [{ value: 'MSCU1234566' }]]).toBuffer());
  const bomb = inflatesTo(1024);
  const entries = Object.entries(workbook)
    .filter(([name]) => !name.startsWith('xl/worksheets/'))
    .map(([name, data]) => entry(name, data));
  for (const sheet of ['xl/worksheets/sheet1.xml', 'xl/worksheets/sheet2.xml']) {
    entries.push({ name: sheet, packed: bomb, declared: 1_000, crc: 0 });
  }
  return zipOf(entries);
}

/** A zip listing one part more than a workbook may. */
function manyParts(): Uint8Array {
  const files: Zippable = {};
  for (let i = 0; i <= MAX_ZIP_ENTRIES; i++) files[`xl/p${i}.xml`] = [new Uint8Array(), { level: 0 }];
  return zipSync(files);
}

/** The start of a 64-bit Linux program, with the strings and zeros that follow in a real one. */
function elf(): Buffer {
  const bytes = Buffer.alloc(8192);
  bytes.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]);
  bytes.writeUInt16LE(3, 16);
  bytes.writeUInt16LE(0x3e, 18);
  bytes.writeUInt32LE(1, 20);
  bytes.write('GLIBC_2.34\0libc.so.6\0main\0', 1024);
  return bytes;
}

/** A Windows program: "MZ", and at the offset it gives, "PE" and two NULs. */
function windowsProgram(): Buffer {
  const bytes = Buffer.alloc(1024);
  bytes.write('MZ', 0);
  bytes.writeUInt32LE(0x80, 0x3c);
  bytes.write('PE\0\0', 0x80, 'latin1');
  bytes.write('This program cannot be run in DOS mode.', 0x4e);
  return bytes;
}

const png = () =>
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    Buffer.from('IHDR'),
    Buffer.alloc(4096, 7),
  ]);
const pdf = () => Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1');
const docx = () =>
  zipSync({ '[Content_Types].xml': strToU8('<Types/>'), 'word/document.xml': strToU8('<w:document/>') });

/** The prototype of every open file's handle, where the import's `stat` and `read` are. */
async function fileHandles(): Promise<FileHandle> {
  const handle = await open(process.execPath);
  await handle.close();
  return Object.getPrototypeOf(handle) as FileHandle;
}

/** The bytes the import reads from disk while `act` runs, counted on FileHandle's own read. */
async function bytesReadDuring(act: () => Promise<void>): Promise<number> {
  const read = vi.spyOn(await fileHandles(), 'read');
  await act();
  const reads = await Promise.all(read.mock.results.map((r) => r.value as Promise<{ bytesRead: number }>));
  return reads.reduce((n, r) => n + r.bytesRead, 0);
}

/** How much the process's peak memory grew while `act` ran, in bytes. */
async function peakGrowthDuring(act: () => Promise<void>): Promise<number> {
  const before = process.resourceUsage().maxRSS;
  await act();
  return (process.resourceUsage().maxRSS - before) * 1024;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('npm run cli -- import, given hostile files', () => {
  const sandbox = useSandbox({
    seed: 'import-hostile',
    shipments: 12,
    apiKeys: [KEY],
  });
  const dir = tempDir();
  const db = join(dir, 'kept.sqlite');
  let shipmentsBefore = 0;

  const cli = async (file: string) => {
    const out = capture();
    const err = capture();
    process.env.T49_API_TOKEN = KEY;
    const code = await runImport([file, '--db', db, '--base-url', sandbox.get().url], {
      out: out.stream,
      err: err.stream,
    });
    return { code, out: out.text(), err: err.text() };
  };
  const shipments = () => {
    const store = openDatabase(db);
    try {
      return store.prepare('SELECT count(*) FROM shipments').pluck().get() as number;
    } finally {
      store.close();
    }
  };
  const sync = () => {
    process.env.T49_API_TOKEN = KEY;
    return runCli(['sync', '--db', db, '--base-url', sandbox.get().url], {
      out: capture().stream,
      err: capture().stream,
    });
  };

  beforeAll(async () => {
    expect(await sync()).toBe(exitCodes.ok);
    shipmentsBefore = shipments();
    expect(shipmentsBefore).toBe(12);
  });
  afterAll(() => {
    delete process.env.T49_API_TOKEN;
  });

  it('refuses a device, a pipe and a folder without reading a byte', async () => {
    const pipe = join(dir, `${CJK}-pipe.csv`);
    execFileSync('mkfifo', [pipe]);
    const folder = join(dir, `${CJK}.xlsx`);
    mkdirSync(folder);
    const said: string[] = [];
    const read = await bytesReadDuring(async () => {
      for (const file of ['/dev/zero', pipe, folder]) {
        const result = await cli(file);
        expect(result.code).toBe(exitCodes.validation);
        expect(result.out).toBe('');
        said.push(result.err);
      }
    });
    expect(said).toEqual([
      '/dev/zero is not a file Quayside can import (it is a device); choose a CSV or Excel file.\n',
      `${pipe} is not a file Quayside can import (it is a pipe); choose a CSV or Excel file.\n`,
      `${folder} is not a file Quayside can import (it is a folder); choose a CSV or Excel file.\n`,
    ]);
    expect(read).toBe(0);
  });

  it('refuses a 500 MB file from its size alone, and stops a file that grows while read at the limit', async () => {
    const huge = join(dir, `${CJK}-500MB.csv`);
    writeFileSync(huge, '');
    truncateSync(huge, 500 * MB);
    let result = { code: 0, out: '', err: '' };
    expect(await bytesReadDuring(async () => void (result = await cli(huge)))).toBe(0);
    expect(result.code).toBe(exitCodes.validation);
    expect(result.err).toBe(
      `${huge} is 500.0 MB; Quayside imports files up to ${MAX_IMPORT_BYTES / MB} MB. Split it, or keep only the columns it needs.\n`,
    );

    // 1 KB when its size is asked, 50 MB by the time it is read.
    const growing = join(dir, 'growing.csv');
    writeFileSync(growing, 'Container\nMSCU1234566\n'.repeat(40));
    const proto = await fileHandles();
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with the handle as `this`
    const stat = proto.stat;
    vi.spyOn(proto, 'stat').mockImplementation(async function (this: FileHandle) {
      const stats = await stat.call(this);
      truncateSync(growing, 50 * MB);
      return stats;
    });
    const read = await bytesReadDuring(async () => void (result = await cli(growing)));
    expect(result.code).toBe(exitCodes.validation);
    expect(result.err).toBe(
      `${growing} is over ${MAX_IMPORT_BYTES / MB} MB; Quayside imports files up to ${MAX_IMPORT_BYTES / MB} MB. Split it, or keep only the columns it needs.\n`,
    );
    expect(read).toBe(MAX_IMPORT_BYTES + 1);
  });

  it('stops unzipping a workbook at the budget, whatever sizes its zip declares', async () => {
    const file = join(dir, 'bomb.xlsx');
    writeFileSync(file, await zipBomb());
    let result = { code: 0, out: '', err: '' };
    const grown = await peakGrowthDuring(async () => void (result = await cli(file)));
    expect(result.code).toBe(exitCodes.validation);
    expect(result.err).toBe(
      `bomb.xlsx unpacks to more than ${UNZIP_LIMIT}; save the sheet with the numbers alone as CSV and import that.\n`,
    );
    // Two gigabytes inflated would be; the budget and its copies are what may be held.
    expect(grown).toBeLessThan(4 * MAX_UNZIPPED_BYTES);
  });

  it('says once that a program, an image or a document is not a CSV or Excel file', async () => {
    const files: [string, Uint8Array, string][] = [
      [`${CJK}.csv`, elf(), 'a program (ELF)'],
      ['rates.csv', windowsProgram(), 'a Windows program'],
      ['scan.csv', png(), 'a PNG image'],
      ['invoice.xlsx', pdf(), 'a PDF document'],
      ['numbers.csv', gzipSync('Container\nMSCU1234566\n'), 'a gzip archive'],
      ['report.xlsx', docx(), 'a Word document'],
    ];
    for (const [name, bytes, kind] of files) {
      writeFileSync(join(dir, name), bytes);
      const result = await cli(join(dir, name));
      expect(result.code).toBe(exitCodes.validation);
      expect(result.out).toBe('');
      expect(result.err).toBe(`${name} is not a CSV or Excel file (it looks like ${kind}).\n`);
    }
    // Text in a workbook's name is not a workbook either.
    writeFileSync(join(dir, 'boxes.xlsx'), 'Container\nMSCU1234566\n');
    expect((await cli(join(dir, 'boxes.xlsx'))).err).toBe(
      'boxes.xlsx is not a workbook Excel wrote; save it again as .xlsx or CSV.\n',
    );
  });

  it('leaves the database as it was: it opens with its shipments and the next sync works', async () => {
    expect(shipments()).toBe(shipmentsBefore);
    expect(await sync()).toBe(exitCodes.ok);
    expect(shipments()).toBe(shipmentsBefore);
  });
});

describe("the app's import channel, given hostile files", () => {
  const { core } = testCore();
  let shipmentsBefore = 0;
  beforeAll(async () => {
    expect((await syncNow(core, 'full')).state).toBe('idle');
    shipmentsBefore = await value<number>(core, 'shipments:count', { filters: {} });
  }, 60_000);
  afterAll(() => core.close());

  const read = (name: string, bytes: Uint8Array) =>
    failure(core, 'imports:read', { name, base64: Buffer.from(bytes).toString('base64') });

  it('stops unzipping a workbook at the budget, and refuses one listing more parts than a workbook has', async () => {
    const bomb = await zipBomb();
    let refusal = { code: '', message: '' };
    const grown = await peakGrowthDuring(async () => void (refusal = await read('bomb.xlsx', bomb)));
    expect(refusal).toMatchObject({
      code: 'invalid_argument',
      message: `bomb.xlsx unpacks to more than ${UNZIP_LIMIT}; save the sheet with the numbers alone as CSV and import that.`,
    });
    expect(grown).toBeLessThan(4 * MAX_UNZIPPED_BYTES);
    expect(await read('parts.xlsx', manyParts())).toMatchObject({
      code: 'invalid_argument',
      message: `parts.xlsx holds more than ${MAX_ZIP_ENTRIES.toLocaleString('en-US')} parts, more than a workbook of numbers needs; save the sheet with the numbers alone as CSV and import that.`,
    });
  });

  it('says once that a program, an image, a document or a plain zip is not a CSV or Excel file', async () => {
    const plainZip = zipSync({ 'numbers.csv': strToU8('Container\nMSCU1234566\n') });
    const files: [string, Uint8Array, string][] = [
      [`${CJK}.csv`, elf(), 'a program (ELF)'],
      ['scan.png', png(), 'a PNG image'],
      ['invoice.pdf', pdf(), 'a PDF document'],
      ['report.xlsx', docx(), 'a Word document'],
      ['numbers.xlsx', plainZip, 'a zip archive with no workbook in it'],
    ];
    for (const [name, bytes, kind] of files) {
      expect(await read(name, bytes)).toMatchObject({
        code: 'invalid_argument',
        message: `${name} is not a CSV or Excel file (it looks like ${kind}).`,
      });
    }
  });

  it('reads the next file and syncs as before, its data intact', async () => {
    const table = await value<ImportTable>(core, 'imports:read', {
      name: 'after.csv',
      base64: Buffer.from('Container\nMSCU1234566\n').toString('base64'),
    });
    expect(table).toMatchObject({ name: 'after.csv', rowCount: 2 });
    expect(await value<number>(core, 'shipments:count', { filters: {} })).toBe(shipmentsBefore);
    expect((await syncNow(core, 'incremental')).state).toBe('idle');
    expect(await value<number>(core, 'shipments:count', { filters: {} })).toBe(shipmentsBefore);
  });
});
