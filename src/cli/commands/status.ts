import { readSyncLog } from '../../core/store/sync-log';
import { countResources, listSyncState } from '../../core/store/sync-state';
import { hubSourceOf } from '../../core/team/puller';
import { readOnlyNote, withReadableDatabase } from '../database-files';
import { exitCodes } from '../exit-codes';
import { UsageError, type CommandIo, parseCommandLine } from '../io';

export const statusUsage = `status --db PATH [--json]
                      Counts per resource, the last syncs, and the sync cursors of a database; for a
                      copy pulled from a team hub, the hub's address and up to which sequence.`;

export function runStatus(args: string[], io: CommandIo): Promise<number> {
  return Promise.resolve(printStatus(args, io));
}

function printStatus(args: string[], io: CommandIo): number {
  const values = parseCommandLine({
    args,
    strict: true,
    options: { db: { type: 'string' }, json: { type: 'boolean' } },
  }).values;
  if (!values.db) throw new UsageError('status needs --db PATH');
  return withReadableDatabase({ file: values.db, io }, ({ db, readOnly }) => {
    const counts = countResources(db);
    const syncs = readSyncLog(db, 5);
    const state = listSyncState(db);
    const cursors = Object.fromEntries(state.map((s) => [s.key, JSON.parse(s.value) as unknown]));
    const source = hubSourceOf(db);
    const hub = source && {
      address: source.hub,
      last_seq: source.lastSeq,
      pulled_at: source.pulledAt,
      hub_sync: source.hubRun,
    };
    if (values.json) {
      io.out.write(
        `${JSON.stringify({ counts, last_sync: syncs[0] ?? null, recent_syncs: syncs, cursors, hub, read_only: readOnly })}\n`,
      );
    } else {
      const lines = Object.entries(counts).map(([k, n]) => `  ${k.replaceAll('_', ' ').padEnd(26)} ${n}`);
      const last = syncs[0];
      io.out.write(
        (source
          ? `Copy of the team hub ${source.hub}, up to sequence ${source.lastSeq}${source.pulledAt ? ` (last pulled whole ${source.pulledAt})` : ''}.\n`
          : '') +
          `Records:\n${lines.join('\n')}\n` +
          (last
            ? `Last sync: ${last.kind}, ${last.status}, started ${last.startedAt}, ${last.requests} requests${last.error ? ` (${last.error})` : ''}\n`
            : 'Never synced.\n') +
          `Cursors:\n${state.map((s) => `  ${s.key} = ${s.value}`).join('\n') || '  none'}\n` +
          (readOnly ? `${readOnlyNote}\n` : ''),
      );
    }
    return exitCodes.ok;
  });
}
