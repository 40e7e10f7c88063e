import { openDatabase, isReadOnly, type Db } from '../core/store/database';
import { DatabaseOpenError, isDamageFailure } from '../core/store/store-errors';
import type { DatabaseProblem } from '../shared/types';

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

export const readOnlyNote = 'This database is on a read-only disk: it can be shown and exported but not synced.';
