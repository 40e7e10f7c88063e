import { crc32, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import writeExcelFile from 'write-excel-file/node';
import { ImportFileError, readImportFile, readPasted, sniffDelimiter } from '../../src/core/import/read-table';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('reading a CSV file', () => {
  it('reads commas and quotes, keeping row numbers with blank rows in place', async () => {
    const read = await readImportFile(
      'numbers.csv',
      bytes('Container #,SCAC,Ref\r\nMSCU1234566,MSCU,"A1, A2"\r\n\r\n"MAEU1234567",MAEU,"say ""hi"""\r\n\r\n'),
    );
    expect(read.format).toBe('csv');
    expect(read.rows).toEqual([
      ['Container #', 'SCAC', 'Ref'],
      ['MSCU1234566', 'MSCU', 'A1, A2'],
      [''],
      ['MAEU1234567', 'MAEU', 'say "hi"'],
    ]);
  });

  it('reads the semicolons of a European Excel, and its Windows-1252 text', async () => {
    // "Référence" in Windows-1252: é is 0xE9, not valid UTF-8 on its own.
    const text = Uint8Array.from([...bytes('Container;R'), 0xe9, ...bytes('f\nMSCU1234566;A;B\n')]);
    const read = await readImportFile('export.csv', text);
    expect(read.rows).toEqual([
      ['Container', 'Réf'],
      ['MSCU1234566', 'A', 'B'],
    ]);
  });

  it('reads UTF-8 with a byte order mark and UTF-16 (Excel’s "Unicode text")', async () => {
    const bom = await readImportFile(
      'bom.csv',
      Uint8Array.from([0xef, 0xbb, 0xbf, ...bytes('BL,SCAC\nX12345,MAEU\n')]),
    );
    expect(bom.rows[0]).toEqual(['BL', 'SCAC']);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('BL\tSCAC\r\nX12345\tMAEU\r\n', 'utf16le')]);
    const read = await readImportFile('unicode.txt', utf16);
    expect(read.rows).toEqual([
      ['BL', 'SCAC'],
      ['X12345', 'MAEU'],
    ]);
  });

  it('picks the delimiter most lines use, outside quotes', () => {
    expect(sniffDelimiter('a;b;c\n1;2;3')).toBe(';');
    expect(sniffDelimiter('a,b\n"x;y",2')).toBe(',');
    expect(sniffDelimiter('a\tb,c\n1\t2')).toBe('\t');
    expect(sniffDelimiter('MSCU1234566\nMAEU1234567')).toBeNull();
  });

  it('refuses what it cannot read with one sentence', async () => {
    const refusal = (name: string, content: Uint8Array) =>
      readImportFile(name, content).then(
        () => 'read',
        (error: unknown) => (error instanceof ImportFileError ? error.message : `other: ${String(error)}`),
      );
    expect(await refusal('empty.csv', new Uint8Array())).toBe('empty.csv is empty.');
    expect(await refusal('blank.csv', bytes(',,\n ,\n'))).toBe('blank.csv holds no value: there is nothing to import.');
    expect(await refusal('old.xls', Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))).toMatch(
      /older Excel workbook \(\.xls\); open it in Excel and save it as \.xlsx or CSV/,
    );
    expect(await refusal('fake.xlsx', bytes('just text'))).toMatch(/not a workbook Excel wrote/);
    expect(await refusal('quotes.csv', bytes('a,b\n"unclosed,1\n'))).toMatch(/could not be read as CSV/);
    const many = `Container\n${'MSCU1234566\n'.repeat(10_001)}`;
    expect(await refusal('many.csv', bytes(many))).toMatch(/has 10,002 rows; Quayside imports up to 10,000 at once/);
  });
});

describe('reading pasted cells', () => {
  it('reads the tab-separated rows a spreadsheet copies, quoted line breaks included', () => {
    const read = readPasted('Container\tTags\r\nMSCU1234566\t"hot\nfragile"\r\nMAEU1234567\t\r\n');
    expect(read.format).toBe('pasted');
    expect(read.rows).toEqual([
      ['Container', 'Tags'],
      ['MSCU1234566', 'hot\nfragile'],
      ['MAEU1234567', ''],
    ]);
  });

  it('reads one pasted column, and CSV text pasted from a file', () => {
    expect(readPasted('MSCU1234566\nMAEU1234567').rows).toEqual([['MSCU1234566'], ['MAEU1234567']]);
    expect(readPasted('BL,SCAC\nX12345,MAEU').rows).toEqual([
      ['BL', 'SCAC'],
      ['X12345', 'MAEU'],
    ]);
  });
});

describe('reading an Excel workbook', () => {
  it('reads the first sheet with values from a real .xlsx: text, whole numbers, dates and blanks', async () => {
    const workbook = await writeExcelFile([
      {
        sheet: 'Empty',
        data: [[null]],
      },
      {
        sheet: 'Numbers',
        data: [
          [{ value: 'Booking #' }, { value: 'SCAC' }, { value: 'Ready' }, { value: 'Ref' }],
          [
            { value: 123456789, type: Number },
            { value: 'MAEU' },
            { value: new Date('2026-03-01T00:00:00Z'), type: Date, format: 'yyyy-mm-dd' },
            null,
          ],
          [{ value: '  MSCU1234566 ' }, { value: 'MSCU' }, null, { value: 'PO-1' }],
        ],
      },
    ]).toBuffer();
    const read = await readImportFile('customer.xlsx', workbook);
    expect(read.format).toBe('xlsx');
    expect(read.sheet).toBe('Numbers');
    expect(read.rows).toEqual([
      ['Booking #', 'SCAC', 'Ready', 'Ref'],
      ['123456789', 'MAEU', '2026-03-01', ''],
      ['MSCU1234566', 'MSCU', '', 'PO-1'],
    ]);
  });

  it('goes by what a zip really unpacks to, not by the sizes its directory declares', async () => {
    // A zip whose one entry claims 300 MB unpacked and holds 1,000 bytes: read for what it is.
    const data = deflateRawSync(Buffer.alloc(1000));
    const name = Buffer.from('xl/worksheets/sheet1.xml');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(300 * 1024 * 1024, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(Buffer.alloc(1000)), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(300 * 1024 * 1024, 24);
    central.writeUInt16LE(name.length, 28);
    const directoryAt = local.length + name.length + data.length;
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 8);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(central.length + name.length, 12);
    end.writeUInt32LE(directoryAt, 16);
    const zip = Buffer.concat([local, name, data, central, name, end]);
    await expect(readImportFile('declared.xlsx', zip)).rejects.toThrow(
      'declared.xlsx is not a CSV or Excel file (it looks like a zip archive with no workbook in it).',
    );
  });

  it('refuses a damaged workbook with a sentence saying what to do', async () => {
    const workbook = await writeExcelFile([[{ value: 'BL' }]]).toBuffer();
    await expect(readImportFile('cut.xlsx', workbook.subarray(0, workbook.length - 40))).rejects.toThrow(
      /cut\.xlsx is damaged or not a workbook/,
    );
  });
});

describe('telling text from what is not', () => {
  it('reads text that starts as a program would, and UTF-16 saved without its byte-order mark', async () => {
    const owners = await readImportFile('owners.csv', bytes(`${'MZXU1234567,MZXU\n'.repeat(8)}`));
    expect(owners.rows[0]).toEqual(['MZXU1234567', 'MZXU']);
    const unmarked = await readImportFile('unicode.txt', Buffer.from('BL\tSCAC\r\nX12345\tMAEU\r\n', 'utf16le'));
    expect(unmarked.rows).toEqual([
      ['BL', 'SCAC'],
      ['X12345', 'MAEU'],
    ]);
  });

  it('names what a binary file looks like, or says it is not text', async () => {
    const refusal = (content: Uint8Array) =>
      readImportFile('x.csv', content).then(
        () => 'read',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
    expect(await refusal(Buffer.from('SQLite format 3\0\x10\0'))).toBe(
      'x.csv is not a CSV or Excel file (it looks like an SQLite database).',
    );
    expect(await refusal(Uint8Array.from([0x41, 0x42, 0x00, 0x01, 0x43, 0x44, 0x45, 0x46]))).toBe(
      'x.csv is not a CSV or Excel file (it looks like a binary file, not text).',
    );
    expect(await refusal(Uint8Array.from({ length: 64 }, (_, i) => (i % 3 === 0 ? 0x02 : 0x41)))).toBe(
      'x.csv is not a CSV or Excel file (it looks like a binary file, not text).',
    );
  });
});
