/** SQLite failures a forwarder can act on, in words; null for anything else. */
export function describeStoreError(error: unknown): { code: string; message: string } | null {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  switch (code) {
    case 'SQLITE_FULL':
      return {
        code: 'disk_full',
        message: 'The disk is full: the latest data was not saved. Free some space and sync again.',
      };
    case 'SQLITE_READONLY':
    case 'SQLITE_READONLY_DBMOVED':
    case 'SQLITE_CANTOPEN':
      return {
        code: 'read_only',
        message:
          'The local database cannot be written (read-only file or folder). Check its permissions and sync again.',
      };
    case 'SQLITE_CORRUPT':
    case 'SQLITE_NOTADB':
      return { code: 'corrupt', message: 'The local database is damaged. Remove it from Settings and sync again.' };
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return { code: 'busy', message: 'The local database is in use by another Quayside; close it and try again.' };
    default:
      return null;
  }
}
