/**
 * CSV for exports: RFC 4180 with CRLF and a UTF-8 byte order mark (Excel), quoting done here (a
 * general library's machinery was most of an export's time), rows streamed in batches with
 * backpressure, progress and abort. Every text cell, headers included, goes through `cellText`:
 * controls, U+2028/U+2029 and bidi controls removed (no cell can reorder or hide its neighbours),
 * a formula start neutralised with a leading `'`, a cell past Excel's 32,767 characters cut with
 * a visible marker. Numbers are never altered.
 */
import type { Writable } from 'node:stream';
import { nextTurn as yieldToEventLoop } from '../loop-turns';
import { formatUtc, type CellValue, type ExportColumn } from './columns';

export interface WriteCsvOptions<Row> {
  rows: Iterable<Row> | AsyncIterable<Row>;
  columns: readonly ExportColumn<Row>[];
  /** Not ended by writeCsv: the caller owns it (exportToFile has to flush it before renaming). */
  out: NodeJS.WritableStream | Writable;
  /** 'human' (default) writes each column's header, 'keys' its API field name. */
  headerStyle?: 'human' | 'keys';
  /** UTF-8 byte order mark, on by default: without it Excel reads the file as the local code page. */
  bom?: boolean;
  /** The header line, on by default (off for the second part of an export made in two: export-aside.ts). */
  header?: boolean;
  /** Called with the number of rows written so far, about every 1000 rows and once at the end. */
  onProgress?: (rowsWritten: number) => void;
  signal?: AbortSignal;
}

export interface CsvResult {
  rows: number;
  /** Bytes handed to `out`, BOM included. */
  bytes: number;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
export const PROGRESS_EVERY = 1000;
// Rows are formatted in batches: one string and one write per batch, which keeps
// the cost per row low. The character cap bounds a batch of very wide rows (10 KB notes).
const BATCH_ROWS = 1000;
const BATCH_CHARS = 1 << 20;
/**
 * A batch is also written once it has taken this long to make (looked at every 32 rows), so the
 * process that hosts the core is never held for longer by an export: 1000 rows
 * are ~10 ms on a fast machine, several times that on a slow or busy one.
 */
const BATCH_MS = 8;

/**
 * OWASP CSV injection: a spreadsheet runs a cell that starts with = + - @ as a formula, and TAB
 * or CR can hide such a start. The fullwidth forms are included because Apple Numbers treats
 * them the same (as csv-stringify's own list notes). Leading whitespace is not a protection
 * we rely on: an import that trims spaces (LibreOffice's "Trim spaces", Power Query's Trim) or a
 * later Text to Columns turns " =HYPERLINK(...)" into a live formula, so it is neutralised too.
 * A leading LF is treated as CR is: cells carry their line breaks as LF (see cellText).
 * The price is a visible ' on the rare honest text that starts that way; a column of numbers
 * should return numbers, which are never altered.
 */
const FORMULA_START = /^(?:[\t\r\n]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/;

/** Prefixes `'` to text a spreadsheet would otherwise run as a formula. */
export function neutraliseFormula(text: string): string {
  // Most cells start with an ASCII letter or digit, which can start neither whitespace nor a
  // formula: they skip the regex.
  if (isAsciiAlphanumeric(text.charCodeAt(0))) return text;
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** Excel's most characters in one cell, counted as its LEN counts them (UTF-16 code units). */
export const MAX_CELL_LENGTH = 32_767;

/**
 * What a cell must not carry as it came, in one class so a clean cell costs one scan:
 * - C0 controls other than TAB and LF, DEL and the C1 controls: invisible in a spreadsheet, and
 *   readers differ on them (NUL ends the text in some programs; VT, FF, NEL and U+001C-U+001E
 *   break lines in others, Python's splitlines among them). Removed.
 * - LINE SEPARATOR and PARAGRAPH SEPARATOR (U+2028, U+2029): line breaks to some readers (text
 *   editors, JavaScript before ES2019, splitlines) and not to others, as NEL is. Removed.
 * - CR: a line break to some readers and not to others, alone or before LF. CRLF and a lone CR
 *   become one LF, the line break every spreadsheet shows inside a quoted cell.
 * - Bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): they reorder the
 *   text after them, in a text editor up to the end of the line, so one cell could make the
 *   cells beside it read in another order or disguise its own text ("Trojan Source"). Removed:
 *   the letters themselves stay and still read in their natural direction (Hebrew and Arabic
 *   right to left), and the hidden order is what shows.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\x00-\x08\x0B-\x1F\x7F-\x9F\u2028-\u202E\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex -- as above
const UNSAFE_ALL = /\r\n?|[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\u2028-\u202E\u2066-\u2069]/g;
/** UNSAFE and NEEDS_QUOTES together: text matching neither is its own cell but for a formula start. */
// eslint-disable-next-line no-control-regex -- as above
const NEEDS_WORK = /[",\n\x00-\x08\x0B-\x1F\x7F-\x9F\u2028-\u202E\u2066-\u2069]/;

/** `text` with control characters and U+2028/U+2029 removed, its line breaks as LF and bidi controls removed. */
export function removeUnsafeCharacters(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, (found) => (found.charCodeAt(0) === 13 ? '\n' : '')) : text;
}

const countFormat = new Intl.NumberFormat('en-US');
const cutMarker = (removed: number) =>
  `… [cut: ${countFormat.format(removed)} more character${removed === 1 ? '' : 's'}]`;

/**
 * Text longer than Excel keeps in a cell (which would cut it silently, or spill the rest into
 * the next row in some readers) ends with a marker saying how much was left out, the whole
 * within MAX_CELL_LENGTH. The cut never splits a surrogate pair, so no half emoji remains.
 */
export function fitCellLength(text: string): string {
  if (text.length <= MAX_CELL_LENGTH) return text;
  const length = text.length;
  // The marker for the whole length is at least as long as the one finally written; a shorter
  // count may make room for a few more characters (a fixed point within two or three steps).
  let keep = MAX_CELL_LENGTH - cutMarker(length).length;
  for (;;) {
    const more = MAX_CELL_LENGTH - cutMarker(length - keep).length;
    if (more <= keep) break;
    keep = more;
  }
  // Back off a high surrogate (its pair would be cut), and once more should that lengthen the count.
  while (isHighSurrogate(text.charCodeAt(keep - 1)) || keep + cutMarker(length - keep).length > MAX_CELL_LENGTH) {
    keep--;
  }
  return text.slice(0, keep) + cutMarker(length - keep);
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isDigit = (code: number) => code >= 48 && code <= 57;
const isAsciiAlphanumeric = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/**
 * The text a spreadsheet should show for `text`, before CSV quoting: unsafe characters out,
 * formula neutralised, cut to Excel's limit. In this order, so that removing an invisible
 * character cannot uncover a formula start, and the cut keeps the neutralising quote.
 */
export function cellText(text: string): string {
  return fitCellLength(neutraliseFormula(removeUnsafeCharacters(text)));
}

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * RFC 4180 quoting: a field holding a comma, a quote, CR or LF is wrapped in quotes with its
 * quotes doubled. Done here rather than by csv-stringify: the cells are ready strings, and its
 * general machinery was 40% of an export's time.
 */
export function quoteCell(text: string, quoteEmpty = false): string {
  if (text === '') return quoteEmpty ? '""' : '';
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The text of one cell, before CSV quoting. */
export function formatCell(value: CellValue): string {
  switch (typeof value) {
    case 'string':
      return cellText(value);
    case 'number':
      // NaN and Infinity are not values a customer can use; an empty cell says "unknown".
      return Number.isFinite(value) ? String(value) : '';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return '';
    default:
      if (value === null) return '';
      if (value instanceof Date) return formatUtc(value);
      return cellText(value.join('; '));
  }
}

/**
 * One text cell as it goes in the file. Most cells hold nothing to remove or quote: one scan
 * (NEEDS_WORK) and the formula check settle them; the rest take the full path.
 */
function textCell(text: string, quoteEmpty: boolean): string {
  if (text !== '' && !NEEDS_WORK.test(text)) {
    const cell = neutraliseFormula(text);
    if (cell.length <= MAX_CELL_LENGTH) return cell;
  }
  return quoteCell(cellText(text), quoteEmpty);
}

/**
 * One cell as it goes in the file: what quoteCell(formatCell(value)) gives, with the common
 * cases (text, empty, numbers) settled in one call: an export makes millions of cells.
 */
export function csvCell(value: CellValue, quoteEmpty: boolean): string {
  if (typeof value === 'string') return textCell(value, quoteEmpty);
  if (value === null || value === undefined) return quoteEmpty ? '""' : '';
  // A number's text holds no comma, quote or line break, and numbers are never neutralised.
  if (typeof value === 'number' && Number.isFinite(value)) return numberText(value);
  // A list is one text cell (formatCell's join), most often an empty one.
  if (Array.isArray(value))
    return value.length === 0 ? (quoteEmpty ? '""' : '') : textCell(value.join('; '), quoteEmpty);
  return quoteCell(formatCell(value), quoteEmpty);
}

// A fraction's shortest text (String(2.5)) costs ten times an integer's, and a column of them
// (days an ETA slipped) repeats a few hundred values: their texts are kept.
const fractionTexts = new Map<number, string>();
const MAX_FRACTION_TEXTS = 10_000;

function numberText(value: number): string {
  if (Number.isInteger(value)) return String(value);
  let text = fractionTexts.get(value);
  if (text === undefined) {
    text = String(value);
    if (fractionTexts.size >= MAX_FRACTION_TEXTS) fractionTexts.clear();
    fractionTexts.set(value, text);
  }
  return text;
}

/** One row's line with each cell made on its own: what writeCsv's one scan per row stands for. */
function lineCellByCell(values: readonly CellValue[], plain: readonly boolean[], quoteEmpty: boolean): string {
  let line = '';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    const cell =
      plain[i] === true && typeof value === 'string' && isDigit(value.charCodeAt(0))
        ? value
        : csvCell(value, quoteEmpty);
    line += i === 0 ? cell : `,${cell}`;
  }
  return line;
}

export function createAbortError(signal: AbortSignal): DOMException {
  // The (message, name) form is the one both Node's and the DOM's typings accept.
  return Object.assign(new DOMException('The export was cancelled.', 'AbortError'), {
    cause: signal.reason as unknown,
  });
}

export function checkColumns(columns: readonly ExportColumn<unknown>[]): void {
  if (columns.length === 0) throw new TypeError('writeCsv needs at least one column.');
  const keys = new Set<string>();
  for (const column of columns) {
    if (keys.has(column.key)) throw new TypeError(`writeCsv was given two columns with the key "${column.key}".`);
    keys.add(column.key);
  }
}

/**
 * Writes to `out` one chunk at a time and waits for 'drain' when it asks to, so a slow disk
 * slows the export down instead of filling memory. An 'error' from `out` is caught here and
 * turned into a rejection, rather than crashing the process as an unhandled 'error' event.
 */
export function openSink(out: NodeJS.WritableStream | Writable, signal: AbortSignal | undefined) {
  let failure: Error | undefined;
  let interrupt: ((error: Error) => void) | undefined;
  const stop = (error: Error) => {
    failure ??= error;
    interrupt?.(failure);
  };
  const onError = (error: Error) => stop(error);
  // A stream destroyed without an error never drains: without this the export would hang.
  const onClose = () => stop(new Error('The output was closed before the export was written.'));
  out.on('error', onError);
  out.on('close', onClose);
  if ((out as Partial<Writable>).destroyed === true) onClose();

  const throwIfStopped = () => {
    if (failure !== undefined) throw failure;
    if (signal?.aborted) throw createAbortError(signal);
  };

  const waitForDrain = () =>
    new Promise<void>((resolve, reject) => {
      const settle = (error?: Error) => {
        out.removeListener('drain', onDrain);
        signal?.removeEventListener('abort', onAbort);
        interrupt = undefined;
        if (error === undefined) resolve();
        else reject(error);
      };
      const onDrain = () => settle();
      const onAbort = () => settle(createAbortError(signal!));
      interrupt = settle;
      out.on('drain', onDrain);
      signal?.addEventListener('abort', onAbort);
    });

  let bytes = 0;
  return {
    get bytes() {
      return bytes;
    },
    throwIfStopped,
    async write(chunk: Buffer): Promise<void> {
      throwIfStopped();
      bytes += chunk.length;
      // Yielding even when `out` has room keeps the main process answering IPC during a long
      // export, and lets a write error from the previous chunk arrive before the next one.
      if (out.write(chunk)) await yieldToEventLoop();
      else await waitForDrain();
      throwIfStopped();
    },
    close(): void {
      out.removeListener('error', onError);
      out.removeListener('close', onClose);
    },
  };
}

export function openRows<Row>(rows: Iterable<Row> | AsyncIterable<Row>): Iterator<Row> | AsyncIterator<Row> {
  return Symbol.asyncIterator in rows ? rows[Symbol.asyncIterator]() : rows[Symbol.iterator]();
}

export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Streams `rows` to `out` as RFC 4180 CSV (CRLF, quotes doubled, fields holding a comma, quote,
 * CR or LF quoted), UTF-8 with a BOM by default, each text cell as cellText makes it (control
 * and bidi characters removed, line breaks as LF, formula injection neutralised, at most
 * Excel's 32,767 characters). Memory stays flat whatever the row count. An abort rejects with
 * an AbortError; it takes effect between rows and while waiting for `out`, so a source that
 * stalls on one row delays it.
 */
export async function writeCsv<Row>(options: WriteCsvOptions<Row>): Promise<CsvResult> {
  const { rows, columns, out, headerStyle = 'human', bom = true, header = true, onProgress, signal } = options;
  checkColumns(columns as readonly ExportColumn<unknown>[]);
  if (signal?.aborted) throw createAbortError(signal);

  // A one-column row with an empty cell would be a blank line, which readers skip.
  const quoteEmpty = columns.length === 1;
  // Dates and times made by columns.ts (half the cells of a shipment) skip csvCell's scan.
  const plain = columns.map((column) => column.plain === true);
  const values = new Array<CellValue>(columns.length);
  const sink = openSink(out, signal);
  const iterator = openRows(rows);
  let exhausted = false;
  let written = 0;
  let reported: number | undefined;
  // The batch is one string built by appending, which V8 keeps as a rope until Buffer.from
  // flattens it once: cheaper than a line per row joined later.
  let batch = '';
  let batchRows = 0;
  let batchStarted = performance.now();

  const flush = async () => {
    if (batchRows > 0) {
      const chunk = Buffer.from(batch, 'utf8');
      const rowsInChunk = batchRows;
      batch = '';
      batchRows = 0;
      await sink.write(chunk);
      written += rowsInChunk;
    }
    batchStarted = performance.now();
    if (onProgress !== undefined && written - (reported ?? 0) >= PROGRESS_EVERY) {
      // At whole thousands, however the batches fell (a batch may be cut short by BATCH_MS).
      reported = written - (written % PROGRESS_EVERY);
      onProgress(reported);
    }
  };

  try {
    if (bom) await sink.write(BOM);
    const headers = columns.map((column) => cellText(headerStyle === 'keys' ? column.key : column.header));
    // Excel takes a file whose first two bytes are "ID" for SYLK and refuses it (KB 215591);
    // quoting such a header is enough, and harmless elsewhere.
    const headerLine = headers
      .map((h, i) => (i === 0 && h.startsWith('ID') ? `"${h}"` : quoteCell(h, quoteEmpty)))
      .join(',');
    if (header) await sink.write(Buffer.from(`${headerLine}\r\n`, 'utf8'));

    for (;;) {
      const next = iterator.next();
      // A sync source (better-sqlite3's iterate()) is read without an await per row.
      const step = isThenable(next) ? await next : next;
      if (step.done === true) {
        exhausted = true;
        break;
      }
      sink.throwIfStopped();
      const row = step.value;
      // Text that starts with a letter or digit is taken as it came and added, end to end, to
      // `texts`; one scan of `texts` then stands for one per cell. Should it find anything to
      // remove or quote, the row is made again cell by cell (csvCell) from the same values.
      let line = '';
      let texts = '';
      for (let i = 0; i < columns.length; i++) {
        const value = columns[i]!.value(row);
        values[i] = value;
        let cell: string;
        if (typeof value === 'string') {
          const first = value.charCodeAt(0);
          if (plain[i] === true && isDigit(first)) cell = value;
          else if (isAsciiAlphanumeric(first) && value.length <= MAX_CELL_LENGTH) {
            cell = value;
            texts += value;
          } else cell = csvCell(value, quoteEmpty);
        } else cell = csvCell(value, quoteEmpty);
        line += i === 0 ? cell : `,${cell}`;
      }
      batch += texts !== '' && NEEDS_WORK.test(texts) ? lineCellByCell(values, plain, quoteEmpty) : line;
      batch += '\r\n';
      batchRows++;
      if (
        batchRows >= BATCH_ROWS ||
        batch.length >= BATCH_CHARS ||
        ((batchRows & 31) === 0 && performance.now() - batchStarted > BATCH_MS)
      ) {
        await flush();
      }
    }
    await flush();
    if (onProgress !== undefined && reported !== written) onProgress(written);
    return { rows: written, bytes: sink.bytes };
  } catch (error) {
    // Lets the source release its cursor or statement; for one that threw this is a no-op.
    if (!exhausted) await closeQuietly(iterator);
    throw error;
  } finally {
    sink.close();
  }
}

export async function closeQuietly(iterator: Iterator<unknown> | AsyncIterator<unknown>): Promise<void> {
  try {
    await iterator.return?.();
  } catch {
    // The error that stopped the export is the one worth reporting.
  }
}
