/**
 * A file or pasted cells as rows of text cells: CSV (comma, semicolon or tab, in UTF-8, UTF-16 or
 * Windows-1252, as Excel saves them) through csv-parse, XLSX through read-excel-file (the first
 * sheet that holds anything), pasted cells as the tab-separated text a spreadsheet copies. Every
 * refusal is one sentence a forwarder can act on (`ImportFileError`).
 */
import { parse } from 'csv-parse/sync';
import readExcelFile from 'read-excel-file/node';
import { MAX_IMPORT_BYTES, MAX_IMPORT_COLUMNS, MAX_IMPORT_ROWS } from '../../shared/imports';

export class ImportFileError extends Error {
  override name = 'ImportFileError';
}

export interface ReadTable {
  /** Every row of the file in order, blank ones included (so row numbers match the file's). */
  rows: string[][];
  format: 'csv' | 'xlsx' | 'pasted';
  sheet: string | null;
}

/** What a workbook may unpack to: far above any list of numbers, far below what hurts. */
const MAX_UNZIPPED_BYTES = 200 * 1024 * 1024;

const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
const isOldExcel = (bytes: Uint8Array) =>
  bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0;

/** Reads a chosen file (its name says little; its first bytes say what it is). */
export async function readImportFile(name: string, bytes: Uint8Array): Promise<ReadTable> {
  if (bytes.length === 0) throw new ImportFileError(`${name} is empty.`);
  if (bytes.length > MAX_IMPORT_BYTES) {
    throw new ImportFileError(
      `${name} is ${(bytes.length / 1024 / 1024).toFixed(1)} MB; Quayside imports files up to ${MAX_IMPORT_BYTES / 1024 / 1024} MB. Split it, or keep only the columns it needs.`,
    );
  }
  if (isOldExcel(bytes)) {
    throw new ImportFileError(
      `${name} is an older Excel workbook (.xls); open it in Excel and save it as .xlsx or CSV, then choose that file.`,
    );
  }
  if (isZip(bytes)) {
    const { rows, sheet } = await readWorkbook(name, bytes);
    return { rows: limitRows(rows, name), format: 'xlsx', sheet };
  }
  if (/\.(xlsx|xlsm)$/i.test(name)) {
    throw new ImportFileError(`${name} is not a workbook Excel wrote; save it again as .xlsx or CSV.`);
  }
  return { rows: limitRows(readDelimited(decodeText(bytes), null), name), format: 'csv', sheet: null };
}

/** Cells pasted from a spreadsheet: tab-separated rows (or CSV text, told by its commas). */
export function readPasted(text: string): ReadTable {
  return {
    rows: limitRows(readDelimited(text.replace(/^\uFEFF/, ''), '\t'), 'What was pasted'),
    format: 'pasted',
    sheet: null,
  };
}

async function readWorkbook(name: string, bytes: Uint8Array): Promise<{ rows: string[][]; sheet: string }> {
  const unzipped = zipUncompressedBytes(bytes);
  if (unzipped === null) {
    throw new ImportFileError(`${name} is damaged or not a workbook (its contents list cannot be read).`);
  }
  if (unzipped > MAX_UNZIPPED_BYTES) {
    throw new ImportFileError(
      `${name} unpacks to more than ${MAX_UNZIPPED_BYTES / 1024 / 1024} MB; save the sheet with the numbers alone as CSV and import that.`,
    );
  }
  let sheets: { sheet: string; data: unknown[][] }[];
  try {
    sheets = await readExcelFile(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (error) {
    throw new ImportFileError(
      `${name} could not be read as a workbook (${(error as Error).message.slice(0, 200)}); save it again as .xlsx or CSV.`,
    );
  }
  const sheet = sheets.find((s) => s.data.some((row) => row.some((cell) => cellText(cell) !== ''))) ?? sheets[0];
  if (!sheet) throw new ImportFileError(`${name} has no sheet.`);
  return { rows: sheet.data.map((row) => row.slice(0, MAX_IMPORT_COLUMNS).map(cellText)), sheet: sheet.sheet };
}

/** A workbook cell as text: numbers as written (no exponent for whole numbers), dates as ISO dates. */
function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'string') return clean(cell);
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell)) return '';
    return Number.isInteger(cell) && Math.abs(cell) < 1e21 ? BigInt(cell).toString() : String(cell);
  }
  if (typeof cell === 'boolean') return cell ? 'TRUE' : 'FALSE';
  if (cell instanceof Date) {
    if (Number.isNaN(cell.getTime())) return '';
    const iso = cell.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  return '';
}

/** Trims the spaces (non-breaking ones too) a spreadsheet keeps around a value. */
function clean(text: string): string {
  return text.replace(/^[\s\u00a0\u200b\ufeff]+|[\s\u00a0\u200b\ufeff]+$/g, '');
}

/**
 * The sum of the sizes a zip's entries unpack to, from its central directory; null when there is
 * none to read. Read before unpacking, so a small file that unpacks to gigabytes is refused unread.
 */
export function zipUncompressedBytes(bytes: Uint8Array): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const earliest = Math.max(0, bytes.length - 22 - 0xffff);
  let end = -1;
  for (let i = bytes.length - 22; i >= earliest; i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const entries = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (offset + 46 > bytes.length || view.getUint32(offset, true) !== 0x02014b50) return null;
    const size = view.getUint32(offset + 24, true);
    // 0xFFFFFFFF: the size is in a ZIP64 field; no sheet of tracking numbers needs one.
    if (size === 0xffffffff) return Number.POSITIVE_INFINITY;
    total += size;
    offset +=
      46 + view.getUint16(offset + 28, true) + view.getUint16(offset + 30, true) + view.getUint16(offset + 32, true);
  }
  return total;
}

/** Text from bytes: a byte-order mark says which; else UTF-8 when it is, else Windows-1252 (Excel's "CSV" on Windows). */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/**
 * The delimiter of a text table: the one of tab, semicolon and comma found on most of its first
 * lines (outside quotes), tab first on a tie (a pasted range), then semicolon (Excel's CSV where
 * the comma is the decimal mark). None found: one column.
 */
export function sniffDelimiter(text: string): string | null {
  const lines: string[] = [];
  let line = '';
  let quoted = false;
  for (let i = 0; i < text.length && lines.length < 20; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    if (!quoted && (c === '\n' || c === '\r')) {
      if (line.trim() !== '') lines.push(line);
      line = '';
    } else if (!quoted) line += c;
  }
  if (line.trim() !== '' && lines.length < 20) lines.push(line);
  let best: string | null = null;
  let bestLines = 0;
  for (const d of ['\t', ';', ',']) {
    const n = lines.filter((l) => l.includes(d)).length;
    if (n > bestLines) {
      best = d;
      bestLines = n;
    }
  }
  return best;
}

function readDelimited(text: string, preferred: string | null): string[][] {
  const delimiter = preferred !== null && text.includes(preferred) ? preferred : sniffDelimiter(text);
  try {
    const records: string[][] = parse(text, {
      delimiter: delimiter ?? '\u0000',
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
    });
    return records.map((record) => record.slice(0, MAX_IMPORT_COLUMNS).map(clean));
  } catch (error) {
    const e = error as { lines?: number; message: string };
    throw new ImportFileError(
      `Line ${e.lines ?? '?'} of the file could not be read as CSV (${e.message.replace(/^Invalid \w+: /, '').slice(0, 160)}); check its quotes.`,
    );
  }
}

/** Trailing blank rows dropped; more data rows than one import takes is refused. */
function limitRows(rows: string[][], what: string): string[][] {
  let end = rows.length;
  while (end > 0 && rows[end - 1]!.every((cell) => cell === '')) end--;
  const kept = rows.slice(0, end);
  if (kept.length === 0) throw new ImportFileError(`${what} holds no value: there is nothing to import.`);
  const filled = kept.filter((row) => row.some((cell) => cell !== '')).length;
  if (filled > MAX_IMPORT_ROWS + 1) {
    throw new ImportFileError(
      `${what} has ${filled.toLocaleString('en-US')} rows; Quayside imports up to ${MAX_IMPORT_ROWS.toLocaleString('en-US')} at once (about ${Math.round(MAX_IMPORT_ROWS / 100)} minutes at the service's 100 a minute). Split it into smaller files.`,
    );
  }
  return kept;
}
