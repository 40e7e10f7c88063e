/**
 * A chosen file's bytes from disk, bounded before and while reading (`bounded-file.ts`): only a
 * regular file, refused by the size the file system gives, and read to one byte past the import
 * limit whatever that size said.
 */
import { basename } from 'node:path';
import { MAX_IMPORT_BYTES } from '../../shared/imports';
import { readBounded } from '../bounded-file';
import { ImportFileError, tooLarge } from './read-table';

/**
 * The file's bytes, at most `MAX_IMPORT_BYTES`. Refusals of what the file is are
 * `ImportFileError`s; the system's own errors (no such file, no permission) are thrown as they come.
 */
export async function readImportPath(path: string, name = basename(path)): Promise<Uint8Array> {
  const read = await readBounded(path, MAX_IMPORT_BYTES);
  switch (read.kind) {
    case 'read':
      return read.bytes;
    case 'missing':
      throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
    case 'not-a-file':
      throw new ImportFileError(
        `${name} is not a file Quayside can import (it is ${read.what}); choose a CSV or Excel file.`,
      );
    case 'too-large':
      throw tooLarge(name, read.size);
  }
}
