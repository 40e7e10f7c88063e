/**
 * The parts of a zip archive a workbook reader needs, unpacked within a budget of bytes counted
 * as they inflate. A zip declares each entry's unpacked size, and a hostile one lies (a sheet
 * said to be 1,000 bytes that inflates to a gigabyte): those declared sizes are never used here.
 * Where the entries are comes from the central directory (as Excel reads it); how much each
 * unpacks to is what zlib produces, stopped by `maxOutputLength` once the budget is spent.
 */
import { crc32, inflateRawSync } from 'node:zlib';
import { MAX_IMPORT_BYTES } from '../../shared/imports';

/** The most a workbook's parts may unpack to in all: far above any sheet of numbers, far below what hurts. */
export const MAX_UNZIPPED_BYTES = 10 * MAX_IMPORT_BYTES;
/** The most entries a workbook's zip may list (Excel writes a dozen or so, plus a few per sheet). */
export const MAX_ZIP_ENTRIES = 5_000;

export type ZipRefusal = 'damaged' | 'too_big' | 'too_many' | 'encrypted' | 'method';

export class ZipError extends Error {
  override name = 'ZipError';
  constructor(
    readonly refusal: ZipRefusal,
    message: string,
  ) {
    super(message);
  }
}

export interface Unzipped {
  /** Every entry name the central directory lists, in its order. */
  names: string[];
  /** The wanted entries' bytes, by name (the first of a repeated name). */
  files: Map<string, Uint8Array>;
  /** Bytes produced by unpacking, in all. */
  unpacked: number;
}

const END = 0x06054b50;
const END64 = 0x06064b50;
const END64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const FULL = 0xffffffff;

const damaged = (why: string) => new ZipError('damaged', why);

/**
 * Unpacks the entries `wanted` picks, refusing once their bytes pass `budget` or the archive lists
 * more than `maxEntries`.
 */
export function unzip(
  bytes: Uint8Array,
  wanted: (name: string) => boolean,
  budget = MAX_UNZIPPED_BYTES,
  maxEntries = MAX_ZIP_ENTRIES,
): Unzipped {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Out of the file reads as -1, which no signature, size or offset check lets through.
  const u32 = (at: number) => (at >= 0 && at + 4 <= bytes.length ? view.getUint32(at, true) : -1);
  const u16 = (at: number) => (at >= 0 && at + 2 <= bytes.length ? view.getUint16(at, true) : -1);
  const u64 = (at: number) => (at >= 0 && at + 8 <= bytes.length ? Number(view.getBigUint64(at, true)) : -1);

  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (u32(i) === END) {
      end = i;
      break;
    }
  }
  if (end < 0) throw damaged('its contents list cannot be found');
  let count = u16(end + 10);
  let offset = u32(end + 16);
  if ((count === 0xffff || offset === FULL) && u32(end - 20) === END64_LOCATOR) {
    // ZIP64: the real count and offset are in a record a locator just before the end points to.
    const at = u64(end - 16);
    if (u32(at) !== END64) throw damaged('its contents list is cut');
    count = u64(at + 32);
    offset = u64(at + 48);
  }
  if (count > maxEntries) {
    throw new ZipError('too_many', `it lists ${count.toLocaleString('en-US')} parts`);
  }

  const names: string[] = [];
  const files = new Map<string, Uint8Array>();
  const decoder = new TextDecoder('utf-8');
  let unpacked = 0;
  // Entries may share their packed bytes: what is inflated from is counted too, so entries that
  // all point at the same megabytes of blocks that unpack to nothing still stop at the budget.
  let inflatedFrom = 0;
  for (let n = 0; n < count; n++) {
    if (u32(offset) !== CENTRAL || offset + 46 > bytes.length) throw damaged('its contents list is cut');
    const flags = u16(offset + 8);
    const method = u16(offset + 10);
    const crc = u32(offset + 16);
    let packed = u32(offset + 20);
    const nameLength = u16(offset + 28);
    const extraLength = u16(offset + 30);
    let local = u32(offset + 42);
    const nameAt = offset + 46;
    if (nameAt + nameLength + extraLength > bytes.length) throw damaged('its contents list is cut');
    const name = decoder.decode(bytes.subarray(nameAt, nameAt + nameLength));
    const extra = zip64Sizes(bytes.subarray(nameAt + nameLength, nameAt + nameLength + extraLength), {
      unpacked: u32(offset + 24) === FULL,
      packed: packed === FULL,
      local: local === FULL,
    });
    packed = extra.packed ?? packed;
    local = extra.local ?? local;
    offset = nameAt + nameLength + extraLength + u16(offset + 32);
    names.push(name);
    if (!wanted(name) || files.has(name)) continue;

    if (flags & 1) throw new ZipError('encrypted', `${name} is encrypted`);
    if (u32(local) !== LOCAL || local + 30 > bytes.length) throw damaged(`${name} is not where its contents list says`);
    const dataAt = local + 30 + u16(local + 26) + u16(local + 28);
    if (packed < 0 || dataAt + packed > bytes.length) throw damaged(`${name} is cut`);
    const data = bytes.subarray(dataAt, dataAt + packed);
    inflatedFrom += packed;
    if (inflatedFrom > budget) throw tooBig(budget);
    const left = budget - unpacked;
    let out: Uint8Array;
    if (method === 0) {
      if (data.length > left) throw tooBig(budget);
      out = Uint8Array.from(data);
    } else if (method === 8) {
      if (left <= 0) throw tooBig(budget);
      try {
        out = inflateRawSync(data, { maxOutputLength: left });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooBig(budget);
        throw damaged(`${name} cannot be unpacked`);
      }
    } else {
      throw new ZipError('method', `${name} uses compression method ${method}`);
    }
    unpacked += out.length;
    if (crc32(out) >>> 0 !== crc >>> 0) throw damaged(`${name} does not match its checksum`);
    files.set(name, out);
  }
  return { names, files, unpacked };
}

const tooBig = (budget: number) => new ZipError('too_big', `it unpacks to more than ${budget / 1024 / 1024} MB`);

/** The ZIP64 extra field's values, present (in this order) for each of the entry's fields that says "see ZIP64". */
function zip64Sizes(
  extra: Uint8Array,
  full: { unpacked: boolean; packed: boolean; local: boolean },
): { packed?: number; local?: number } {
  if (!full.unpacked && !full.packed && !full.local) return {};
  const view = new DataView(extra.buffer, extra.byteOffset, extra.byteLength);
  for (let at = 0; at + 4 <= extra.length;) {
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (id === 0x0001) {
      const values: number[] = [];
      for (let v = at + 4; v + 8 <= Math.min(at + 4 + size, extra.length); v += 8) {
        values.push(Number(view.getBigUint64(v, true)));
      }
      if (full.unpacked) values.shift();
      return {
        packed: full.packed ? (values.shift() ?? -1) : undefined,
        local: full.local ? (values.shift() ?? -1) : undefined,
      };
    }
    at += 4 + size;
  }
  throw damaged('its contents list is cut');
}
