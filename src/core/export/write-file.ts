import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { finished } from 'node:stream/promises';
import { QuaysideError } from '../errors';
import { writeCsv, type CsvResult, type WriteCsvOptions } from './csv';
import { writeXlsx } from './xlsx';

export interface ExportFileResult extends CsvResult {
  /** The absolute path written. */
  path: string;
  /** Made in parts (export-aside.ts): the rows each part holds, in file order. */
  parts?: number[];
}

/** The file's format: CSV (the default) or an Excel workbook; sheetName names the workbook's one sheet. */
export interface ExportFormatOptions {
  format?: ExportFormat;
  sheetName?: string;
  /**
   * Write `path` itself (a new file, removed again on failure), not a temp file renamed over it:
   * a part of an export made in two, which its caller joins and renames (export-aside.ts).
   */
  direct?: boolean;
  /**
   * fsync before close (the default, but for a `direct` part). The first part of an export made
   * in two is flushed by its worker as it ends, beside the other's work: the join then syncs only
   * the bytes it appends (export-aside.ts).
   */
  flush?: boolean;
}
export type ExportFormat = 'csv' | 'xlsx';

/** Bytes of CSV that may wait for the disk while the export goes on formatting. */
const WRITE_AHEAD_BYTES = 8 * 1024 * 1024;

const FOLDER_GONE = 'The folder does not exist any more: choose another folder.';
const TOO_MANY_FILES = 'Too many files are open: close some programs and export again.';

// Written for a forwarder choosing where to save, not for a developer reading a log.
const MESSAGES: Record<string, string> = {
  ENOSPC: 'The disk is full: the export was not saved. Free some space or choose another drive.',
  EDQUOT: 'Your disk quota is used up: the export was not saved. Free some space or choose another drive.',
  EACCES: 'Quayside is not allowed to save in this folder: the export was not saved. Choose another folder.',
  // Windows reports a file held open by Excel as EPERM or EBUSY when we try to replace it.
  EPERM:
    'The file could not be saved: it may be open in another program such as Excel, or the folder may be protected. ' +
    'Close the file or choose another folder.',
  EBUSY: 'The file is open in another program, such as Excel: close it and export again.',
  EROFS: 'This drive is read-only: the export was not saved. Choose another folder.',
  ENOENT: FOLDER_GONE,
  ENOTDIR: FOLDER_GONE,
  EISDIR: 'A folder already has that name: choose another file name.',
  ENAMETOOLONG: 'The file name is too long: choose a shorter name or a folder nearer the top of the drive.',
  EMFILE: TOO_MANY_FILES,
  ENFILE: TOO_MANY_FILES,
  EIO:
    'The drive reported an error while saving: the export was not saved. ' +
    'If it is a USB stick or a network drive, check that it is still connected.',
};

function readSystemErrorCode(error: unknown): string | undefined {
  // `syscall` marks an error from the operating system, as opposed to Node's own ERR_* codes.
  if (!(error instanceof Error)) return undefined;
  const { code, syscall } = error as NodeJS.ErrnoException;
  return typeof code === 'string' && typeof syscall === 'string' ? code : undefined;
}

/**
 * Turns a file-system error into one whose message a forwarder can act on (the original is
 * its `cause`, for the log). It is a QuaysideError so that dispatch passes the message to the
 * renderer instead of its generic one. Anything else, an AbortError included, comes back
 * unchanged, so a cancellation or a bug is not disguised as a disk problem.
 */
export function describeFsError(error: unknown): Error {
  const code = readSystemErrorCode(error);
  if (code === undefined) return error instanceof Error ? error : new Error(String(error));
  const message = MESSAGES[code] ?? `The export was not saved: the system reported ${code}.`;
  return new QuaysideError('internal', message, { cause: error });
}

/**
 * Exports to `path` all or nothing: the CSV goes to a temp file in the same folder (a rename is
 * only atomic within one file system), is flushed to disk, then renamed over the target. A full
 * disk, an abort or a failing row leaves no half file and keeps any previous export intact.
 */
export async function exportToFile<Row>(
  path: string,
  options: Omit<WriteCsvOptions<Row>, 'out'> & ExportFormatOptions,
): Promise<ExportFileResult> {
  const target = resolve(path);
  const { direct = false, flush = !direct, ...written } = options;
  const temp = direct ? target : join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  let stream: WriteStream | undefined;
  let created = false;
  try {
    // flush: fsync before close, so the data is on disk before the new name points at it:
    // after a power cut, the old file or the whole new one, never an empty one. The second part
    // of an export made in two is not flushed: its caller syncs what it appends of it to the
    // first, before its rename (export-aside.ts).
    // highWaterMark: a batch (up to a few MB) is handed to the disk while the next is being
    // formatted; at the default 64 KB every batch waited for the previous write to finish.
    stream = createWriteStream(temp, { flags: 'wx', flush, highWaterMark: WRITE_AHEAD_BYTES });
    // Errors reach us through once(), writeCsv and finished(); this only keeps a late one
    // (after a cancel) from being an unhandled 'error' event.
    stream.on('error', () => {});
    // Opened before any row is read, so a read-only folder fails at once, not after the query.
    await once(stream, 'open');
    created = true;
    const { format = 'csv', sheetName, ...rest } = written;
    const result =
      format === 'xlsx'
        ? await writeXlsx({ ...rest, sheetName, out: stream })
        : await writeCsv({ ...rest, out: stream });
    stream.end();
    await finished(stream);
    if (!direct) await rename(temp, target);
    return { ...result, path: target };
  } catch (error) {
    if (stream !== undefined && !stream.closed) {
      // Windows will not delete a file that is still open.
      const closed = once(stream, 'close').catch(() => {});
      stream.destroy();
      await closed;
    }
    if (created) await rm(temp, { force: true }).catch(() => {});
    throw describeFsError(error);
  }
}
