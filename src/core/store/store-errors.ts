import type { DatabaseProblem } from '../../shared/types';
import { QuaysideError } from '../errors';

/** What Quayside says when a local copy can be read but not written. */
export function readOnlyMessage(file: string | null): string {
  return `The local copy${file ? ` at ${file}` : ''} is on a read-only disk; Quayside can show and export it but cannot sync into it.`;
}

/** One sentence per reason a local copy cannot be opened; each says the file was left as it was. */
export function databaseProblemMessage(
  problem: DatabaseProblem,
  file: string,
  detail: { schema?: number; known?: number } = {},
): string {
  switch (problem) {
    case 'not_a_database':
      return `The local copy at ${file} is not a Quayside database, or it is damaged. Quayside has not changed it.`;
    case 'newer_version':
      return `The local copy at ${file} was written by a newer version of Quayside (schema ${detail.schema ?? '?'}; this version knows ${detail.known ?? '?'}); update Quayside to open it. Quayside has not changed it.`;
    case 'no_access':
      return `Quayside is not allowed to read the local copy at ${file} (permission denied). Quayside has not changed it.`;
    case 'not_a_file':
      return `There is a folder at ${file}, where Quayside keeps its local copy. Quayside has not changed it.`;
    case 'cannot_create':
      return `Quayside cannot create its local copy at ${file}: the folder is read-only or protected.`;
    case 'read_only_unusable':
      return `The local copy at ${file} is on a read-only disk and cannot be opened there as it is; copy it (with any files of the same name beside it) to a writable folder to open it.`;
  }
}

/**
 * A local copy that cannot be opened: the `storage` code, one plain sentence, and what is wrong,
 * so the app can offer to move the file aside and the CLI can say what to do.
 */
export class DatabaseOpenError extends QuaysideError {
  readonly path: string;
  readonly problem: DatabaseProblem;
  constructor(path: string, problem: DatabaseProblem, message: string, cause?: unknown) {
    super('storage', message, { cause });
    this.name = 'DatabaseOpenError';
    this.path = path;
    this.problem = problem;
  }
}

function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

/** SQLite's and the file system's ways of saying "you may not write here". */
export function isReadOnlyFailure(error: unknown): boolean {
  const code = codeOf(error);
  return (
    (typeof code === 'string' && code.startsWith('SQLITE_READONLY')) ||
    code === 'EROFS' ||
    code === 'EACCES' ||
    code === 'EPERM'
  );
}

/** SQLite's ways of saying "this is not (or no longer) a database". */
export function isDamageFailure(error: unknown): boolean {
  const code = codeOf(error);
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/**
 * SQLite failures a forwarder can act on, in words; null for anything else. `file` names the
 * local copy when the caller knows it (the sync engine does).
 */
export function describeStoreError(
  error: unknown,
  file: string | null = null,
): { code: string; message: string } | null {
  const code = codeOf(error);
  if (error instanceof DatabaseOpenError) return { code: error.problem, message: error.message };
  if (typeof code === 'string' && code.startsWith('SQLITE_READONLY')) {
    return { code: 'read_only', message: readOnlyMessage(file) };
  }
  if (isDamageFailure(error)) {
    return {
      code: 'corrupt',
      message: `The local copy${file ? ` at ${file}` : ''} is damaged; Quayside has not changed it. Move it aside (it is kept) and start a fresh copy that the next sync fills.`,
    };
  }
  switch (code) {
    case 'SQLITE_FULL':
      return {
        code: 'disk_full',
        message: 'The disk is full: the latest data was not saved. Free some space and sync again.',
      };
    case 'SQLITE_CANTOPEN':
      return {
        code: 'read_only',
        message: `The local copy${file ? ` at ${file}` : ''} cannot be written (its folder is read-only, protected or gone). Nothing was lost; check the folder and sync again.`,
      };
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return { code: 'busy', message: 'The local database is in use by another Quayside; close it and try again.' };
    default:
      return null;
  }
}
