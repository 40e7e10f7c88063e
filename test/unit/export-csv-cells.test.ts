/**
 * Each text cell of an export is what a spreadsheet should show, whatever the
 * service sent: no control characters, line breaks as LF, no bidi controls that could reorder
 * the cells beside it, at most Excel's 32,767 characters, and formulas still neutralised.
 */
import { Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { CellValue, ExportColumn } from '../../src/core/export/columns';
import { csvCell, formatCell, MAX_CELL_LENGTH, quoteCell, writeCsv } from '../../src/core/export/csv';

interface Row {
  id: number;
  value: CellValue;
  after?: string;
}
const columns: ExportColumn<Row>[] = [
  { key: 'id', header: 'ID', value: (row) => row.id },
  { key: 'value', header: 'Value', value: (row) => row.value },
  { key: 'after', header: 'After', value: (row) => row.after ?? 'next cell' },
];

async function exportText(rows: Row[], headers: ExportColumn<Row>[] = columns): Promise<string> {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  await writeCsv({ rows, columns: headers, out });
  return Buffer.concat(chunks).toString('utf8');
}

/** Strict RFC 4180 reading: CRLF only, every record as wide as the header, quotes well formed. */
const parseCsv = (text: string): string[][] => parse(text, { bom: true, record_delimiter: '\r\n' });

/** The value cell of each row, as a spreadsheet reads it; fails unless the next cell is intact. */
async function cellsOf(values: CellValue[]): Promise<string[]> {
  const records = parseCsv(await exportText(values.map((value, id) => ({ id, value })))).slice(1);
  expect(records.map((r) => [r[0], r[2]])).toEqual(values.map((_, id) => [String(id), 'next cell']));
  return records.map((r) => r[1]!);
}

const bidiControls = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];

describe('control characters', () => {
  it('removes every C0 control but TAB and LF, and DEL and the C1 controls', async () => {
    const removed: number[] = [];
    for (let code = 0; code < 0x20; code++) if (code !== 0x09 && code !== 0x0a && code !== 0x0d) removed.push(code);
    removed.push(0x7f);
    for (let code = 0x80; code <= 0x9f; code++) removed.push(code);
    const values = removed.map((code) => `MSCU${String.fromCharCode(code)}1234565`);
    expect(await cellsOf(values)).toEqual(values.map(() => 'MSCU1234565'));
  });

  it('keeps TAB and LF, and writes CRLF and a lone CR as LF', async () => {
    expect(await cellsOf(['a\tb', 'two\nlines', 'crlf\r\nline', 'cr\rline', 'lf cr\n\rline'])).toEqual([
      'a\tb',
      'two\nlines',
      'crlf\nline',
      'cr\nline',
      'lf cr\n\nline',
    ]);
    const text = await exportText([{ id: 1, value: 'a\r\nb\rc' }]);
    // The only CRs left in the file end records.
    expect(text.replaceAll('\r\n', '')).not.toContain('\r');
  });

  it('removes LINE SEPARATOR and PARAGRAPH SEPARATOR, which break lines in some readers only', async () => {
    const values = ['Rotter\u2028dam', 'two\u2029paragraphs', '\u2028=1+1', '\u2029\u2028'];
    expect(await cellsOf(values)).toEqual(['Rotterdam', 'twoparagraphs', "'=1+1", '']);
    const text = await exportText(
      [{ id: 1, value: 'a\u2028b', after: 'c\u2029d' }],
      [{ ...columns[0]!, header: 'I\u2028D' }, ...columns.slice(1)],
    );
    expect(text).not.toMatch(/[\u2028\u2029]/u);
    expect(parseCsv(text)).toEqual([
      ['ID', 'Value', 'After'],
      ['1', 'ab', 'cd'],
    ]);
  });

  it('leaves a cell of nothing but controls empty', async () => {
    expect(await cellsOf(['\u0000\u0001\u001b\u007f', '\u202E\u2066'])).toEqual(['', '']);
  });

  it('cleans headers and list cells too', async () => {
    const text = await exportText(
      [{ id: 1, value: ['HOT\u0000', 'Rotter\u202Edam'] }],
      [columns[0]!, { ...columns[1]!, header: 'Ta\u0007gs\u202E' }],
    );
    expect(parseCsv(text)).toEqual([
      ['ID', 'Tags'],
      ['1', 'HOT; Rotterdam'],
    ]);
  });
});

describe('bidi controls', () => {
  it.each(bidiControls.map((c) => [c.codePointAt(0)!.toString(16).toUpperCase(), c]))(
    'removes U+%s, leaving the letters in their own order',
    async (_name, control) => {
      expect(await cellsOf([`invoice${control}fdp.exe`, `ACME ${control}עברית`])).toEqual([
        'invoicefdp.exe',
        'ACME עברית',
      ]);
    },
  );

  it('leaves no override in the file that could reorder the cells after it', async () => {
    const text = await exportText([
      { id: 1, value: `\u202Eevil, "quoted"`, after: 'BKG-1' },
      { id: 2, value: `\u2067unclosed isolate`, after: 'BKG-2' },
    ]);
    expect(text).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/u);
    expect(parseCsv(text).slice(1)).toEqual([
      ['1', 'evil, "quoted"', 'BKG-1'],
      ['2', 'unclosed isolate', 'BKG-2'],
    ]);
  });

  it('keeps right-to-left text and its direction marks, which reorder nothing beyond their cell', async () => {
    const value = 'שלום \u200Fعربي\u200E 12';
    expect(await cellsOf([value])).toEqual([value]);
  });
});

describe('formula injection after cleaning', () => {
  it('neutralises a formula start that a removed character was hiding', async () => {
    expect(
      await cellsOf(['\u0000=1+1', '\u202E=HYPERLINK("http://x","y")', '\u0007@SUM(A1)', '\u2066+1\u2069', '\r\n-2']),
    ).toEqual(["'=1+1", `'=HYPERLINK("http://x","y")`, "'@SUM(A1)", "'+1", "'\n-2"]);
  });

  it('keeps the quote in front of a formula cut to the limit', async () => {
    const [cell] = await cellsOf([`=${'9'.repeat(MAX_CELL_LENGTH)}`]);
    expect(cell!.startsWith("'=999")).toBe(true);
    expect(cell!.length).toBeLessThanOrEqual(MAX_CELL_LENGTH);
    expect(cell).toMatch(/… \[cut: 29 more characters\]$/);
  });
});

describe("cells longer than Excel's limit", () => {
  it('keeps a cell of exactly 32,767 characters whole, and cuts one more with a visible marker', async () => {
    const [whole, cut] = await cellsOf(['x'.repeat(MAX_CELL_LENGTH), 'x'.repeat(MAX_CELL_LENGTH + 1)]);
    expect(whole).toBe('x'.repeat(MAX_CELL_LENGTH));
    expect(cut).toBe(`${'x'.repeat(MAX_CELL_LENGTH - 27)}… [cut: 28 more characters]`);
  });

  it('says how many characters were cut, the marker within the limit', async () => {
    const [cell] = await cellsOf(['x'.repeat(45_000)]);
    expect(cell).toBe(`${'x'.repeat(32_736)}… [cut: 12,264 more characters]`);
    expect(cell!.length).toBe(MAX_CELL_LENGTH);
  });

  it.each([0, 1])('never splits a surrogate pair at the cut (%i characters before the emoji)', async (pad) => {
    const value = `${'a'.repeat(pad)}${'🚢'.repeat(20_000)}`;
    const [cell] = await cellsOf([value]);
    const match = /^([\s\S]*)… \[cut: ([\d,]+) more characters\]$/u.exec(cell!);
    expect(match).not.toBeNull();
    const [, kept, count] = match!;
    expect(cell!.length).toBeLessThanOrEqual(MAX_CELL_LENGTH);
    expect(kept!.length).toBeGreaterThan(MAX_CELL_LENGTH - 40);
    // Whole ships only: no lone surrogate (which would reach the file as U+FFFD).
    expect(kept).toBe(value.slice(0, kept!.length));
    expect(kept).toMatch(/^a?(?:🚢)+$/u);
    expect(kept!.length + Number(count!.replaceAll(',', ''))).toBe(value.length);
  });

  it('cuts a long cell after cleaning it, and quotes it whole', async () => {
    const value = `"Rotterdam", ${'\u0000,\r\n'.repeat(20_000)}`;
    const [cell] = await cellsOf([value]);
    const cleaned = `"Rotterdam", ${',\n'.repeat(20_000)}`;
    const marker = / \[cut: ([\d,]+) more characters\]$/u.exec(cell!);
    expect(marker).not.toBeNull();
    const kept = cell!.slice(0, cell!.length - marker![0].length - 1);
    expect(kept).toBe(cleaned.slice(0, kept.length));
    expect(kept.length + Number(marker![1]!.replaceAll(',', ''))).toBe(cleaned.length);
  });
});

describe('the fast path', () => {
  it('writes every cell as the full path does', () => {
    // A small deterministic generator over the characters each rule looks at.
    const alphabet = ['a', 'Z', '7', ' ', '=', '+', '-', '@', ',', '"', '\t', '\n', '\r', '\u0000', '\u007f'];
    alphabet.push('\u0085', '\u2028', '\u2029', '\u202E', '\u2069', '\u200F', 'é', '🚢', '\uFF1D', '\u00a0');
    let seed = 12_345;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (let i = 0; i < 5000; i++) {
      let text = '';
      for (let n = next() % 8; n > 0; n--) text += alphabet[next() % alphabet.length];
      expect(csvCell(text, false)).toBe(quoteCell(formatCell(text), false));
      expect(csvCell(text, true)).toBe(quoteCell(formatCell(text), true));
    }
    // Lists (one cell, joined) and numbers, fractions included, take their own short paths.
    for (let i = 0; i < 2000; i++) {
      const list: string[] = [];
      for (let n = next() % 4; n > 0; n--) list.push(alphabet[next() % alphabet.length]!.repeat(next() % 3));
      expect(csvCell(list, false)).toBe(quoteCell(formatCell(list), false));
      expect(csvCell(list, true)).toBe(quoteCell(formatCell(list), true));
      const number = ((next() % 4001) - 2000) / [1, 10, 3, 7][i % 4]!;
      expect(csvCell(number, false)).toBe(quoteCell(formatCell(number), false));
    }
    const long = `a${'b'.repeat(MAX_CELL_LENGTH)}`;
    expect(csvCell(long, false)).toBe(quoteCell(formatCell(long)));
    expect(csvCell(long, false).length).toBeLessThanOrEqual(MAX_CELL_LENGTH + 2);
  });

  it('writes whole rows as their cells alone would be, however the trouble is spread over them', async () => {
    // Three text columns; the one scan per row must send the row cell by cell whichever holds it.
    const alphabet = ['a', 'Z', '7', ' ', '=', ',', '"', '\t', '\n', '\r', '\u0000', '\u0085', '\u2028', '\u202E', 'é'];
    alphabet.push('🚢');
    let seed = 987;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    const text = () => {
      let cell = next() % 2 === 0 ? 'Ab' : '';
      for (let n = next() % 4; n > 0; n--) cell += alphabet[next() % alphabet.length];
      return cell;
    };
    const rows = Array.from({ length: 3000 }, (_, id) => ({ id, value: text(), after: text() }));
    const wide: ExportColumn<Row>[] = [...columns, { key: 'again', header: 'Again', value: (row) => row.value }];
    const expected = rows.map((row) =>
      [row.id, row.value, row.after, row.value].map((cell) => quoteCell(formatCell(cell))).join(','),
    );
    const lines = (await exportText(rows, wide)).split('\r\n').slice(1, -1);
    expect(lines).toEqual(expected);
  });

  it('still checks a date column whose text does not start with a digit', async () => {
    const odd: ExportColumn<Row> = { key: 'eta', header: 'ETA', plain: true, value: (row) => row.value };
    const values: CellValue[] = ['2026-03-01 06:05 PST', '=1+1', '\u202E9,1', '', '-1', new Date('2026-03-01T00:00Z')];
    const text = await exportText(
      values.map((value, id) => ({ id, value })),
      [columns[0]!, odd],
    );
    expect(parseCsv(text).slice(1)).toEqual([
      ['0', '2026-03-01 06:05 PST'],
      ['1', "'=1+1"],
      ['2', '9,1'],
      ['3', ''],
      ['4', "'-1"],
      ['5', '2026-03-01T00:00:00Z'],
    ]);
  });
});
