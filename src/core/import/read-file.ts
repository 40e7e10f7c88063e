/**
 * A chosen file's bytes from disk, bounded before and while reading: only a regular file (not a
 * device such as /dev/zero, a pipe or a folder), refused by the size the file system gives, and
 * read in slices that stop one byte past the import limit whatever that size said (a file that
 * grows while read, or one whose size reads 0, stops there too).
 */
import { constants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { MAX_IMPORT_BYTES } from '../../shared/imports';
import { ImportFileError, tooLarge } from './read-table';

const SLICE = 256 * 1024;

/**
 * The file's bytes, at most `MAX_IMPORT_BYTES`. Refusals of what the file is are
 * `ImportFileError`s; the system's own errors (no such file, no permission) are thrown as they come.
 */
export async function readImportPath(path: string, name = basename(path)): Promise<Uint8Array> {
  // Opened without blocking: a pipe opened for reading waits for a writer that may never come.
  // Windows has no such flag (nor such pipes at a path).
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    // Windows refuses to open a folder at all.
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') throw notAFile(name, 'a folder');
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      throw notAFile(name, whatItIs(stat));
    }
    if (stat.size > MAX_IMPORT_BYTES) throw tooLarge(name, stat.size);
    const most = MAX_IMPORT_BYTES + 1;
    const slices: Buffer[] = [];
    let total = 0;
    while (total < most) {
      const slice = Buffer.allocUnsafe(Math.min(SLICE, most - total));
      const { bytesRead } = await handle.read(slice, 0, slice.length, null);
      if (bytesRead === 0) break;
      slices.push(slice.subarray(0, bytesRead));
      total += bytesRead;
    }
    if (total > MAX_IMPORT_BYTES) throw tooLarge(name, null);
    return Buffer.concat(slices, total);
  } finally {
    await handle.close();
  }
}

const notAFile = (name: string, what: string) =>
  new ImportFileError(`${name} is not a file Quayside can import (it is ${what}); choose a CSV or Excel file.`);

function whatItIs(stat: Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a pipe';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}
