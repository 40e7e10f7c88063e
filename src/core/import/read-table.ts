/**
 * A file or pasted cells as rows of text cells: CSV (comma, semicolon or tab, in UTF-8, UTF-16 or
 * Windows-1252, as Excel saves them) through csv-parse, XLSX through read-excel-file (the first
 * sheet that holds anything) once its parts are unpacked within a budget (`unzip.ts`), pasted
 * cells as the tab-separated text a spreadsheet copies. A file that is neither text nor a
 * workbook is named for what it looks like. Every refusal is one sentence a forwarder can act on
 * (`ImportFileError`).
 *
 * read-excel-file is maintained, small and reads a Buffer in plain Node; exceljs is unmaintained
 * and pulls deprecated packages into every install, and the registry's `xlsx` is an unmaintained
 * copy of SheetJS.
 */
import { parse } from 'csv-parse/sync';
import { zipSync, type Zippable } from 'fflate';
import readExcelFile from 'read-excel-file/node';
import { MAX_IMPORT_BYTES, MAX_IMPORT_COLUMNS, MAX_IMPORT_ROWS } from '../../shared/imports';
import { binaryKind, utf16Order } from './file-kind';
import { MAX_UNZIPPED_BYTES, MAX_ZIP_ENTRIES, unzip, ZipError, type Unzipped } from './unzip';

export class ImportFileError extends Error {
  override name = 'ImportFileError';
}

export interface ReadTable {
  /** Every row of the file in order, blank ones included (so row numbers match the file's). */
  rows: string[][];
  format: 'csv' | 'xlsx' | 'pasted';
  sheet: string | null;
}

/** A zip's first bytes: a local entry, or the end of an archive with no entry. */
const isZip = (bytes: Uint8Array) =>
  bytes[0] === 0x50 &&
  bytes[1] === 0x4b &&
  ((bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06));
const isOldExcel = (bytes: Uint8Array) =>
  bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0;

/** Reads a chosen file (its name says little; its first bytes say what it is). */
export async function readImportFile(name: string, bytes: Uint8Array): Promise<ReadTable> {
  if (bytes.length === 0) throw new ImportFileError(`${name} is empty.`);
  if (bytes.length > MAX_IMPORT_BYTES) throw tooLarge(name, bytes.length);
  if (isOldExcel(bytes)) {
    throw new ImportFileError(
      `${name} is an older Excel workbook (.xls); open it in Excel and save it as .xlsx or CSV, then choose that file.`,
    );
  }
  if (isZip(bytes)) {
    const { rows, sheet } = await readWorkbook(name, bytes);
    return { rows: limitRows(rows, name), format: 'xlsx', sheet };
  }
  const kind = binaryKind(bytes);
  if (kind !== null) throw new ImportFileError(`${name} is not a CSV or Excel file (it looks like ${kind}).`);
  if (/\.(xlsx|xlsm)$/i.test(name)) {
    throw new ImportFileError(`${name} is not a workbook Excel wrote; save it again as .xlsx or CSV.`);
  }
  return { rows: limitRows(readDelimited(decodeText(bytes), null), name), format: 'csv', sheet: null };
}

/** The refusal of a file over the import limit: its size when known, else that it is past the limit. */
export function tooLarge(name: string, size: number | null): ImportFileError {
  const limit = MAX_IMPORT_BYTES / 1024 / 1024;
  const is = size === null ? `over ${limit} MB` : `${(size / 1024 / 1024).toFixed(1)} MB`;
  return new ImportFileError(
    `${name} is ${is}; Quayside imports files up to ${limit} MB. Split it, or keep only the columns it needs.`,
  );
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
  const parts = workbookParts(name, bytes);
  let sheets: { sheet: string; data: unknown[][] }[];
  try {
    sheets = await readExcelFile(Buffer.from(parts.buffer, parts.byteOffset, parts.byteLength));
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
 * The XML parts read-excel-file reads, unpacked within the budget and zipped again as they are
 * (stored, their sizes true): the reader unpacks only what was counted here, never the file's own
 * entries, whose declared sizes and layout may lie.
 */
function workbookParts(name: string, bytes: Uint8Array): Uint8Array {
  let unzipped: Unzipped;
  try {
    unzipped = unzip(bytes, (part) => part.endsWith('.xml') || part.endsWith('.xml.rels'));
  } catch (error) {
    if (!(error instanceof ZipError)) throw error;
    const alone = 'save the sheet with the numbers alone as CSV and import that';
    const sentences: Record<ZipError['refusal'], string> = {
      too_big: `${name} unpacks to more than ${MAX_UNZIPPED_BYTES / 1024 / 1024} MB; ${alone}.`,
      too_many: `${name} holds more than ${MAX_ZIP_ENTRIES.toLocaleString('en-US')} parts, more than a workbook of numbers needs; ${alone}.`,
      encrypted: `${name} is locked with a password; save it again without one, or as CSV.`,
      method: `${name} is packed in a way Quayside cannot unpack (${error.message}); save it again in Excel as .xlsx or CSV.`,
      damaged: `${name} is damaged or not a workbook (${error.message}); save it again as .xlsx or CSV.`,
    };
    throw new ImportFileError(sentences[error.refusal]);
  }
  if (!unzipped.files.has('xl/workbook.xml')) {
    throw new ImportFileError(`${name} is not a CSV or Excel file (it looks like ${zipKind(unzipped.names)}).`);
  }
  const parts: Zippable = {};
  for (const [part, data] of unzipped.files) parts[part] = [data, { level: 0 }];
  return zipSync(parts);
}

/** What a zip with no workbook in it is, by the parts it lists. */
function zipKind(names: string[]): string {
  if (names.includes('word/document.xml')) return 'a Word document';
  if (names.includes('ppt/presentation.xml')) return 'a PowerPoint presentation';
  if (names.includes('mimetype') && names.includes('content.xml')) return 'an OpenDocument file';
  return 'a zip archive with no workbook in it';
}

/** Text from bytes: a byte-order mark (or UTF-16's NULs) says which; else UTF-8 when it is, else Windows-1252 (Excel's "CSV" on Windows). */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return new TextDecoder('utf-8').decode(bytes.subarray(3));
  const order = utf16Order(bytes);
  if (order !== null) {
    const marked = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
    return new TextDecoder(`utf-16${order}`).decode(marked ? bytes.subarray(2) : bytes);
  }
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
