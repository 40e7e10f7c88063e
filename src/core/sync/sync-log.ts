/** The sync log lives in the store (`store/sync-log.ts`); the engine and its callers import it from here too. */
export { finishLogEntry, readSyncLog, startLogEntry, type SyncLogEntry } from '../store/sync-log';
