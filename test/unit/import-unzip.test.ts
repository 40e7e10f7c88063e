import { crc32, deflateRawSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { unzip, ZipError } from '../../src/core/import/unzip';

const all = () => true;
const refusalOf = (act: () => unknown) => {
  try {
    act();
    return 'unpacked';
  } catch (error) {
    return error instanceof ZipError ? `${error.refusal}: ${error.message}` : `other: ${String(error)}`;
  }
};

/** One-entry zip whose every entry record points at the same packed bytes (local header at 0). */
function sharedEntries(packed: Uint8Array, count: number, declared: number, crc: number): Uint8Array {
  const name = Buffer.from('xl/a.xml');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(packed.length, 18);
  local.writeUInt32LE(declared, 22);
  local.writeUInt16LE(name.length, 26);
  const records: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const own = Buffer.from(`xl/${i}.xml`);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(own.length, 28);
    records.push(central, own);
  }
  const list = Buffer.concat(records);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(list.length, 12);
  end.writeUInt32LE(local.length + name.length + packed.length, 16);
  return Buffer.concat([local, name, packed, list, end]);
}

describe('unzipping within a budget', () => {
  it('unpacks the wanted entries, deflated or stored, and lists every name', () => {
    const zip = zipSync({
      'xl/workbook.xml': [strToU8('<workbook/>'.repeat(100)), { level: 6 }],
      'xl/styles.xml': [strToU8('<styleSheet/>'), { level: 0 }],
      'docProps/thumbnail.jpeg': [new Uint8Array(10), { level: 0 }],
    });
    const unzipped = unzip(zip, (name) => name.endsWith('.xml'));
    expect(unzipped.names).toEqual(['xl/workbook.xml', 'xl/styles.xml', 'docProps/thumbnail.jpeg']);
    expect([...unzipped.files.keys()]).toEqual(['xl/workbook.xml', 'xl/styles.xml']);
    expect(new TextDecoder().decode(unzipped.files.get('xl/styles.xml'))).toBe('<styleSheet/>');
    expect(unzipped.unpacked).toBe(11 * 100 + 13);
  });

  it('counts the bytes it inflates, whatever the entry declares', () => {
    const data = Buffer.alloc(2 * 1024 * 1024, 'a');
    const packed = deflateRawSync(data);
    expect(refusalOf(() => unzip(sharedEntries(packed, 1, 1_000, crc32(data)), all, 1024 * 1024))).toBe(
      'too_big: it unpacks to more than 1 MB',
    );
    // Declaring far more than it holds changes nothing either.
    const small = Buffer.from('<sst/>');
    const declaredHuge = unzip(sharedEntries(deflateRawSync(small), 1, 0xfffffffe, crc32(small)), all);
    expect(new TextDecoder().decode(declaredHuge.files.get('xl/0.xml'))).toBe('<sst/>');
  });

  it('stops entries that share the same packed bytes, even ones that unpack to nothing', () => {
    // 50 KB of empty stored blocks, then an empty final block: inflates to no byte at all.
    const empty = Buffer.concat([
      ...Array.from({ length: 10_000 }, () => Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff])),
      Buffer.from([0x03, 0x00]),
    ]);
    expect(refusalOf(() => unzip(sharedEntries(empty, 100, 0, 0), all, 1024 * 1024))).toBe(
      'too_big: it unpacks to more than 1 MB',
    );
  });

  it('refuses too many entries, a damaged entry and a missing contents list', () => {
    const many = sharedEntries(deflateRawSync(''), 30, 0, 0);
    expect(refusalOf(() => unzip(many, all, 1024, 20))).toBe('too_many: it lists 30 parts');
    const data = Buffer.from('<workbook/>');
    expect(refusalOf(() => unzip(sharedEntries(deflateRawSync(data), 1, data.length, 12345), all))).toBe(
      'damaged: xl/0.xml does not match its checksum',
    );
    expect(refusalOf(() => unzip(Buffer.from('PK\x03\x04 not really'), all))).toBe(
      'damaged: its contents list cannot be found',
    );
  });
});
