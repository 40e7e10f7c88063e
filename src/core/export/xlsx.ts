/**
 * Streams rows to an XLSX workbook: one sheet, a frozen bold header row with an autofilter over
 * it, dates as Excel dates, numbers as numbers, text as inline strings. The workbook is a zip of
 * SpreadsheetML parts written by hand here and zipped by fflate's streaming Zip, a batch of rows
 * at a time, so memory stays flat at any row count (as writeCsv's). The sheet, nearly all of the
 * bytes, is deflated by Node's zlib (`SheetPart`) while the next batch of rows is made.
 */
import type { Writable } from 'node:stream';
import { constants, crc32, createDeflateRaw, type DeflateRaw } from 'node:zlib';
import { Zip, ZipDeflate, strToU8, type AsyncFlateStreamHandler, type ZipInputFile } from 'fflate';
import { QuaysideError } from '../errors';
import type { CellValue, ExportColumn } from './columns';
import {
  PROGRESS_EVERY,
  checkColumns,
  closeQuietly,
  createAbortError,
  isThenable,
  openRows,
  openSink,
  type CsvResult,
} from './csv';
import { STYLE, cellXml, columnLetters, stringXml, xmlText } from './xlsx-cells';

export interface WriteXlsxOptions<Row> {
  rows: Iterable<Row> | AsyncIterable<Row>;
  columns: readonly ExportColumn<Row>[];
  /** Not ended by writeXlsx: the caller owns it (exportToFile flushes it before renaming). */
  out: NodeJS.WritableStream | Writable;
  headerStyle?: 'human' | 'keys';
  /** The sheet's name (its tab), at most 31 characters; "Export" by default. */
  sheetName?: string;
  onProgress?: (rowsWritten: number) => void;
  signal?: AbortSignal;
}

/** Excel's most rows in a sheet, the header's included. */
export const MAX_SHEET_ROWS = 1_048_576;
const BATCH_ROWS = 1000;
const BATCH_CHARS = 1 << 20;
/** Deflate level 1: a few times faster than the default for a file a little larger. */
const LEVEL = 1;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

const CONTENT_TYPES =
  `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
  '</Types>';

const ROOT_RELS =
  `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
  `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>` +
  '</Relationships>';

const WORKBOOK_RELS =
  `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
  `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
  `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/>` +
  '</Relationships>';

// cellXfs in STYLE's order: default, bold header, UTC date and time (to the second), local date
// and time (to the minute, as the CSV's local column), calendar date.
const STYLES =
  `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
  '<numFmts count="3"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm:ss"/>' +
  '<numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm"/><numFmt numFmtId="166" formatCode="yyyy-mm-dd"/></numFmts>' +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="5"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="166" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

/**
 * A zip entry deflated by Node's zlib instead of fflate's deflate in JavaScript: the sheet's XML
 * is most of an export's work, and zlib's native deflate runs on libuv's threads, beside the
 * thread making the next batch of rows (fflate's took 40% of a 100k-row export on the thread).
 * fflate's Zip writes its headers and data descriptor from `size` and `crc` (correct once the
 * entry ends, as its interface asks) and the chunks given to `ondata`.
 */
class SheetPart implements ZipInputFile {
  readonly filename: string;
  readonly compression = 8;
  size = 0;
  crc = 0;
  ondata?: AsyncFlateStreamHandler;
  readonly #deflate: DeflateRaw = createDeflateRaw({ level: LEVEL });
  #error: Error | null = null;

  constructor(filename: string) {
    this.filename = filename;
    this.#deflate.on('data', (chunk: Buffer<ArrayBuffer>) => this.ondata?.(null, chunk, false));
    this.#deflate.on('error', (error) => {
      this.#error ??= error;
    });
  }

  /** Deflates `data`: resolved once its deflated bytes are handed to the zip (a sync flush). */
  push(data: Buffer): Promise<void> {
    this.crc = crc32(data, this.crc);
    this.size += data.length;
    return this.#settled((done) => {
      this.#deflate.write(data);
      this.#deflate.flush(constants.Z_SYNC_FLUSH, done);
    });
  }

  /** Ends the entry: the last deflated bytes, then the zip's data descriptor. */
  async end(): Promise<void> {
    await this.#settled((done) => {
      this.#deflate.once('end', done);
      this.#deflate.end();
    });
    this.ondata?.(null, new Uint8Array(0), true);
  }

  terminate(): void {
    this.#deflate.destroy();
  }

  /** Runs `start` and waits for its callback, or rejects with the deflate stream's error. */
  #settled(start: (done: () => void) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.#error) return reject(this.#error);
      const failed = (error: Error) => reject(error);
      this.#deflate.once('error', failed);
      start(() => {
        this.#deflate.off('error', failed);
        if (this.#error) reject(this.#error);
        else resolve();
      });
    });
  }
}

/** A sheet name Excel accepts: no `[]:*?/\`, not blank, at most 31 characters. */
function safeSheetName(name: string): string {
  const cleaned = name
    .replace(/[[\]:*?/\\']/g, ' ')
    .trim()
    .slice(0, 31)
    .trim();
  return cleaned === '' ? 'Export' : cleaned;
}

function workbookXml(sheetName: string, filterRef: string): string {
  const name = xmlText(sheetName).replaceAll('"', '&quot;');
  return (
    `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    `<sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets>` +
    // Excel keeps an autofilter's range as this hidden name too; without it some versions drop the filter.
    `<definedNames><definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">'${xmlText(sheetName)}'!${filterRef}</definedName></definedNames>` +
    '</workbook>'
  );
}

/** Column widths (in characters) from the header and the kind of cell, so dates show whole. */
function colsXml(headers: readonly string[], columns: readonly ExportColumn<unknown>[]): string {
  const widths = columns.map((column, i) => {
    const fit = column.date === 'utc' ? 20 : column.date === 'local' ? 17 : column.date === 'date' ? 11 : 12;
    return Math.min(Math.max(headers[i]!.length + 2, fit), 50);
  });
  return `<cols>${widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>`;
}

/**
 * Streams `rows` to `out` as an XLSX workbook. As writeCsv: backpressure, progress about every
 * 1000 rows and once at the end, an abort rejects with an AbortError, and a source that is left
 * early is closed. More rows than a sheet holds is refused with a sentence, before the file is kept.
 */
export async function writeXlsx<Row>(options: WriteXlsxOptions<Row>): Promise<CsvResult> {
  const { rows, columns, out, headerStyle = 'human', onProgress, signal } = options;
  checkColumns(columns as readonly ExportColumn<unknown>[]);
  if (signal?.aborted) throw createAbortError(signal);
  const sheetName = safeSheetName(options.sheetName ?? 'Export');
  const letters = columns.map((_, i) => columnLetters(i));
  const dates = columns.map((column) => column.date);
  const sink = openSink(out, signal);
  const iterator = openRows(rows);
  let exhausted = false;

  // fflate calls back synchronously as parts are pushed; the chunks wait here for the sink.
  const pending: Uint8Array[] = [];
  let zipError: Error | undefined;
  const zip = new Zip((error, data) => {
    if (error) zipError ??= error;
    else if (data.length > 0) pending.push(data);
  });
  const drain = async () => {
    if (zipError) throw zipError;
    while (pending.length > 0) {
      const data = pending.shift()!;
      await sink.write(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    }
  };
  const addPart = async (name: string, text: string) => {
    const part = new ZipDeflate(name, { level: LEVEL });
    zip.add(part);
    part.push(strToU8(text), true);
    await drain();
  };

  let written = 0;
  let reported: number | undefined;
  try {
    await addPart('[Content_Types].xml', CONTENT_TYPES);
    await addPart('_rels/.rels', ROOT_RELS);
    await addPart('xl/_rels/workbook.xml.rels', WORKBOOK_RELS);
    await addPart('xl/styles.xml', STYLES);

    const sheet = new SheetPart('xl/worksheets/sheet1.xml');
    zip.add(sheet);
    // One batch deflating at a time, while the next is made: memory stays at two batches.
    let deflating: Promise<void> = Promise.resolve();
    const settle = async () => {
      await deflating;
      await drain();
    };
    const push = async (text: string) => {
      await settle();
      deflating = sheet.push(Buffer.from(text, 'utf8'));
      // Waited for by the next push or the end; an export that fails first does not wait for it.
      deflating.catch(() => {});
    };
    const headers = columns.map((column) => (headerStyle === 'keys' ? column.key : column.header));
    let head =
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
      '<sheetViews><sheetView workbookViewId="0">' +
      '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' +
      '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>' +
      `<sheetFormatPr defaultRowHeight="15"/>${colsXml(headers, columns as readonly ExportColumn<unknown>[])}<sheetData>` +
      '<row r="1">';
    for (let i = 0; i < columns.length; i++) head += stringXml(headers[i]!, `${letters[i]}1`, STYLE.header);
    await push(`${head}</row>`);

    let batch = '';
    let batchRows = 0;
    const flush = async () => {
      if (batchRows > 0) {
        const rowsInBatch = batchRows;
        const text = batch;
        batch = '';
        batchRows = 0;
        await push(text);
        written += rowsInBatch;
      }
      if (onProgress !== undefined && written - (reported ?? 0) >= PROGRESS_EVERY) {
        reported = written;
        onProgress(written);
      }
    };

    for (;;) {
      const next = iterator.next();
      const step = isThenable(next) ? await next : next;
      if (step.done === true) {
        exhausted = true;
        break;
      }
      sink.throwIfStopped();
      const r = written + batchRows + 2;
      if (r > MAX_SHEET_ROWS) {
        throw new QuaysideError(
          'invalid_argument',
          `Excel holds at most ${(MAX_SHEET_ROWS - 1).toLocaleString('en-US')} rows in a sheet: filter the list to fewer rows, or export it as CSV.`,
        );
      }
      const row = step.value;
      const rowNumber = String(r);
      let line = `<row r="${rowNumber}">`;
      for (let i = 0; i < columns.length; i++) {
        const value: CellValue = columns[i]!.value(row);
        line += cellXml(value, letters[i]! + rowNumber, dates[i]);
      }
      batch += `${line}</row>`;
      batchRows++;
      if (batchRows >= BATCH_ROWS || batch.length >= BATCH_CHARS) await flush();
    }
    await flush();
    const filterRef = `$A$1:$${letters[letters.length - 1]}$${written + 1}`;
    await push(`</sheetData><autoFilter ref="${filterRef.replaceAll('$', '')}"/></worksheet>`);
    await settle();
    await sheet.end();
    await drain();
    await addPart('xl/workbook.xml', workbookXml(sheetName, filterRef));
    zip.end();
    await drain();
    if (onProgress !== undefined && reported !== written) onProgress(written);
    return { rows: written, bytes: sink.bytes };
  } catch (error) {
    if (!exhausted) await closeQuietly(iterator);
    zip.terminate();
    throw error;
  } finally {
    sink.close();
  }
}
