import { existsSync } from 'node:fs';
import { openDatabase, isReadOnly, type Db } from '../core/store/database';
import { DatabaseOpenError, isDamageFailure } from '../core/store/store-errors';
import type { DatabaseProblem } from '../shared/types';
import { exitCodes } from './exit-codes';
import type { CommandIo } from './io';

/** What to do about a --db file that cannot be opened, in the CLI's words. */
function cliSentence(problem: DatabaseProblem, file: string, core: string): string {
  switch (problem) {
    case 'not_a_database':
      return `${file} is not a Quayside database (or is damaged). Move it aside or point --db at another file.`;
    case 'newer_version':
      return `${file} was written by a newer version of Quayside; update Quayside to open it. It has not been changed.`;
    case 'no_access':
      return `Quayside is not allowed to read ${file} (permission denied). Check its permissions or point --db at another file.`;
    case 'not_a_file':
      return `${file} is a folder, not a Quayside database. Point --db at the database file.`;
    case 'cannot_create':
    case 'read_only_unusable':
      return core;
  }
}

/** The CLI's sentence for a database failure, or null when the error is something else. */
export function describeDatabaseFailure(error: unknown, file: string): string | null {
  if (error instanceof DatabaseOpenError) return cliSentence(error.problem, error.path, error.message);
  if (isDamageFailure(error)) return cliSentence('not_a_database', file, '');
  return null;
}

/** A --db file for reading (status, export): read-only media work; anything else unreadable is a sentence. */
export function openForReading(file: string): { db: Db; readOnly: boolean } | { error: string } {
  try {
    const db = openDatabase(file);
    return { db, readOnly: isReadOnly(db) };
  } catch (error) {
    const sentence = describeDatabaseFailure(error, file);
    if (sentence === null) throw error;
    return { error: sentence };
  }
}

/**
 * The frame of a command that reads a --db file (status, raw, changes, alerts): a missing file,
 * one that cannot be opened, and damage found while reading are each one sentence on stderr and
 * exit 1; otherwise `read` answers with the exit code. The database is closed either way.
 * `missingAdvice` follows "There is no database at PATH" (e.g. "run sync first").
 */
export function withReadableDatabase(
  { file, io, missingAdvice }: { file: string; io: CommandIo; missingAdvice?: string },
  read: (opened: { db: Db; readOnly: boolean }) => number,
): number {
  if (!existsSync(file)) {
    io.err.write(`There is no database at ${file}${missingAdvice ? `; ${missingAdvice}` : ''}.\n`);
    return exitCodes.failure;
  }
  const opened = openForReading(file);
  if ('error' in opened) {
    io.err.write(`${opened.error}\n`);
    return exitCodes.failure;
  }
  try {
    return read(opened);
  } catch (error) {
    // Damage found past the header (a page of a table): the same sentence as at open.
    const sentence = describeDatabaseFailure(error, file);
    if (sentence === null) throw error;
    io.err.write(`${sentence}\n`);
    return exitCodes.failure;
  } finally {
    opened.db.close();
  }
}

export const readOnlyNote = 'This database is on a read-only disk: it can be shown and exported but not synced.';
