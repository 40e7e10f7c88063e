/**
 * A file from outside read within a limit, bounded by the bytes actually read: opened without
 * blocking (a pipe opened for reading would wait for a writer that may never come; Windows has no
 * such flag nor such pipes), refused unless it is a regular file (not a folder, a pipe, a socket,
 * a device such as /dev/zero behind a symlink), refused by the size the file system gives, then
 * read to one byte past the limit whatever that size said (a file that grows while read, or whose
 * size reads 0, stops there too). Callers say each outcome in their own words.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

export type BoundedRead =
  | { kind: 'read'; bytes: Buffer }
  | { kind: 'missing' }
  /** What it is instead: "a folder", "a pipe", "a socket", "a device". */
  | { kind: 'not-a-file'; what: string }
  /** `size` is what the file system gave when that was already over; null when the reading found it. */
  | { kind: 'too-large'; size: number | null };

const NO_WAIT = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const SLICE = 256 * 1024;

/** What a path that is not a regular file is, in words. */
export function whatItIs(stat: Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a pipe';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** The outcome of opening: refused by the system's answer (other errors are thrown as they come). */
function openRefusal(error: unknown): BoundedRead | null {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { kind: 'missing' };
  // Windows refuses to open a folder at all.
  if (code === 'EISDIR') return { kind: 'not-a-file', what: 'a folder' };
  return null;
}

function checked(stat: Stats, max: number): BoundedRead | null {
  if (!stat.isFile()) return { kind: 'not-a-file', what: whatItIs(stat) };
  if (stat.size > max) return { kind: 'too-large', size: stat.size };
  return null;
}

/** Reads `path` within `max` bytes, synchronously (small files of the app's own). */
export function readBoundedSync(path: string, max: number): BoundedRead {
  let fd: number;
  try {
    fd = openSync(path, NO_WAIT);
  } catch (error) {
    const refusal = openRefusal(error);
    if (refusal) return refusal;
    throw error;
  }
  try {
    const refusal = checked(fstatSync(fd), max);
    if (refusal) return refusal;
    const bytes = Buffer.allocUnsafe(max + 1);
    let total = 0;
    for (;;) {
      const read = readSync(fd, bytes, total, bytes.length - total, null);
      if (read === 0) break;
      total += read;
      if (total === bytes.length) return { kind: 'too-large', size: null };
    }
    return { kind: 'read', bytes: bytes.subarray(0, total) };
  } finally {
    closeSync(fd);
  }
}

/** Reads `path` within `max` bytes, in slices between turns of the event loop. */
export async function readBounded(path: string, max: number): Promise<BoundedRead> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, NO_WAIT);
  } catch (error) {
    const refusal = openRefusal(error);
    if (refusal) return refusal;
    throw error;
  }
  try {
    const refusal = checked(await handle.stat(), max);
    if (refusal) return refusal;
    const most = max + 1;
    const slices: Buffer[] = [];
    let total = 0;
    while (total < most) {
      const slice = Buffer.allocUnsafe(Math.min(SLICE, most - total));
      const { bytesRead } = await handle.read(slice, 0, slice.length, null);
      if (bytesRead === 0) break;
      slices.push(slice.subarray(0, bytesRead));
      total += bytesRead;
    }
    if (total > max) return { kind: 'too-large', size: null };
    return { kind: 'read', bytes: Buffer.concat(slices, total) };
  } finally {
    await handle.close();
  }
}
