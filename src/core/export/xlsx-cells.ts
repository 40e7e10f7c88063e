/**
 * The cells of an XLSX export as SpreadsheetML text: strings made safe for XML and for Excel,
 * numbers as numbers, dates as Excel serial numbers. Nothing here knows where rows come from or
 * how the file is zipped (xlsx.ts).
 */
import type { CellValue, ExportColumn } from './columns';
import { fitCellLength, removeUnsafeCharacters } from './csv';

/** Style indexes in styles.xml (cellXfs), in this order. */
export const STYLE = { header: 1, utc: 2, local: 3, date: 4 } as const;

/** Day 0 of Excel's 1900 date system as it counts from March 1900 on (1899-12-30). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;
/** Serial 61 is 1900-03-01: below it Excel counts a 29 February 1900 that never was. */
const FIRST_SAFE_SERIAL = 61;
/** 9999-12-31, the last day Excel shows. */
const LAST_SERIAL = 2_958_465;

/**
 * What XML 1.0 forbids in text once removeUnsafeCharacters has run (it takes the C0 and C1
 * controls but TAB and LF, CR, and U+2028/U+2029): U+FFFE, U+FFFF and a surrogate without its pair.
 */
const XML_FORBIDDEN = /[\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/**
 * Excel reads `_x0041_` in a string as the character U+0041 (ECMA-376's ST_Xstring): text that
 * holds such a sequence has its `_` written as `_x005F_` so the cell shows what was sent.
 */
const ESCAPE_LIKE = /_(?=x[0-9A-Fa-f]{4}_)/g;
const XML_SPECIAL = /[&<>]/g;
const XML_ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
/** Text that needs nothing of the above: letters, digits, spaces and common punctuation. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const NEEDS_WORK = /[&<>_\x00-\x08\x0B-\x1F\x7F-\x9F\u2028-\u202E\u2066-\u2069\uD800-\uDFFF\uFFFE\uFFFF]/;

/**
 * The text a spreadsheet should show for `text`, as it goes between `<t>` and `</t>`: control
 * and bidi characters removed and line breaks as LF (as in a CSV), characters XML 1.0 forbids
 * removed, cut at Excel's 32,767 characters with the CSV's marker, then `_xHHHH_` look-alikes
 * and `& < >` escaped. No `'` before a formula start: an XLSX string cell is text, never a
 * formula, so the cell keeps what was sent.
 */
export function xmlText(text: string): string {
  if (!NEEDS_WORK.test(text)) return text.length <= 32_767 ? text : fitCellLength(text);
  const safe = fitCellLength(removeUnsafeCharacters(text).replace(XML_FORBIDDEN, ''));
  return safe.replace(ESCAPE_LIKE, '_x005F_').replace(XML_SPECIAL, (c) => XML_ENTITY[c]!);
}

/** `A`, `B`, … `Z`, `AA`: the letters of the column at 0-based `index`. */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

const isDigit = (code: number) => code >= 48 && code <= 57;
function digitsAt(text: string, at: number, count: number): number | undefined {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const code = text.charCodeAt(i);
    if (!isDigit(code)) return undefined;
    value = value * 10 + code - 48;
  }
  return value;
}

/**
 * The Excel serial number (days since 1899-12-30, the time as the fraction) of a date column's
 * cell as columns.ts makes it: `2026-03-01T14:05:00Z` (UTC), `2026-03-01 06:05 PST` (the
 * wall clock of the row's place: the serial is that wall clock, and the zone is the column's
 * header's), `2026-03-04` (a calendar date), or a Date (UTC). Undefined for anything else, and
 * for a day Excel cannot show correctly (before March 1900, after 9999).
 */
export function excelSerial(value: CellValue): number | undefined {
  let ms: number;
  if (value instanceof Date) ms = value.getTime();
  else if (
    typeof value === 'string' &&
    value.length >= 10 &&
    value.charCodeAt(4) === 45 &&
    value.charCodeAt(7) === 45
  ) {
    const year = digitsAt(value, 0, 4);
    const month = digitsAt(value, 5, 2);
    const day = digitsAt(value, 8, 2);
    if (year === undefined || month === undefined || day === undefined) return undefined;
    let hour = 0;
    let minute = 0;
    let second = 0;
    if (value.length > 10) {
      const separator = value.charCodeAt(10);
      if ((separator !== 84 && separator !== 32) || value.charCodeAt(13) !== 58) return undefined;
      const h = digitsAt(value, 11, 2);
      const m = digitsAt(value, 14, 2);
      if (h === undefined || m === undefined) return undefined;
      hour = h;
      minute = m;
      if (value.charCodeAt(16) === 58) second = digitsAt(value, 17, 2) ?? 0;
    }
    ms = Date.UTC(year, month - 1, day, hour, minute, second);
    // A day the month lacks (2026-02-30) would roll over: not a date this writer makes.
    const check = new Date(ms);
    if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return undefined;
  } else return undefined;
  if (Number.isNaN(ms)) return undefined;
  const serial = (ms - EXCEL_EPOCH_MS) / DAY_MS;
  return serial >= FIRST_SAFE_SERIAL && serial < LAST_SERIAL + 1 ? serial : undefined;
}

/** A number's text in a `<v>`: the shortest that reads back as the same number. */
const numberText = (value: number) => String(value);

/**
 * One cell as SpreadsheetML (`<c>`), or '' for an empty cell (left out of the row). `ref` is its
 * address (`B7`). Text is an inline string, a number a number, true/false a boolean, a date
 * column's cell a serial number with the column's date format; a date column's cell that is not
 * a date this writer knows stays text.
 */
export function cellXml(value: CellValue, ref: string, date: ExportColumn<unknown>['date']): string {
  if (value === null || value === undefined || value === '') return '';
  if (date !== undefined || value instanceof Date) {
    const serial = excelSerial(value);
    if (serial !== undefined) {
      const style = value instanceof Date && date === undefined ? STYLE.utc : STYLE[date ?? 'utc'];
      return `<c r="${ref}" s="${style}"><v>${numberText(serial)}</v></c>`;
    }
    if (value instanceof Date) return '';
  }
  switch (typeof value) {
    case 'number':
      // NaN and Infinity are not values a customer can use; an empty cell says "unknown".
      return Number.isFinite(value) ? `<c r="${ref}"><v>${numberText(value)}</v></c>` : '';
    case 'boolean':
      return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
    case 'string':
      return stringXml(value, ref, 0);
    default:
      return Array.isArray(value) && value.length > 0 ? stringXml(value.join('; '), ref, 0) : '';
  }
}

/** An inline string cell; `style` 0 is the default, STYLE.header the bold header. */
export function stringXml(text: string, ref: string, style: number): string {
  const body = xmlText(text);
  if (body === '') return '';
  const s = style === 0 ? '' : ` s="${style}"`;
  const t = needsPreserve(body) ? '<t xml:space="preserve">' : '<t>';
  return `<c r="${ref}"${s} t="inlineStr"><is>${t}${body}</t></is></c>`;
}

/**
 * Whether a cell's text must say xml:space="preserve": it starts or ends with whitespace, or
 * holds a tab or a line break, which a reader may otherwise let go or fold (Excel itself writes
 * the attribute only then). Most cells need not: 21 bytes each less to make and deflate.
 */
function needsPreserve(body: string): boolean {
  return (
    body.charCodeAt(0) <= 32 || body.charCodeAt(body.length - 1) <= 32 || body.includes('\n') || body.includes('\t')
  );
}
