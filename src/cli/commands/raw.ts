import { rawTypes, readRaw } from '../../core/store/queries/raw';
import { withReadableDatabase } from '../database-files';
import { exitCodes } from '../exit-codes';
import { UsageError, type CommandIo, parseCommandLine } from '../io';

export const rawUsage = `raw TYPE ID --db PATH
                      Print one record as the Tracking API sent it and the database keeps it (JSON,
                      every attribute and relationship, also those Quayside shows nowhere). TYPE is
                      the API's type: shipment, container, transport_event, tracking_request, …`;

export function runRaw(args: string[], io: CommandIo): Promise<number> {
  return Promise.resolve(printRaw(args, io));
}

function printRaw(args: string[], io: CommandIo): number {
  const parsed = parseCommandLine({ args, strict: true, allowPositionals: true, options: { db: { type: 'string' } } });
  const [type, id, ...extra] = parsed.positionals;
  const db = parsed.values.db;
  if (!type || !id || extra.length > 0 || !db) throw new UsageError('raw needs TYPE ID --db PATH');
  if (!rawTypes.includes(type)) {
    throw new UsageError(`raw knows no type "${type}"; it takes one of ${rawTypes.join(', ')}`);
  }
  return withReadableDatabase({ file: db, io }, (opened) => {
    const record = readRaw(opened.db, type, id);
    if (record.found === 'record') {
      io.out.write(`${record.raw}\n`);
      return exitCodes.ok;
    }
    io.err.write(
      record.found === 'stub'
        ? `The ${type} ${id} is only known by reference here: a synced record points at it, but its own record has not been read yet (the next sync reads it).\n`
        : `There is no ${type} ${id} in ${db}.\n`,
    );
    return exitCodes.failure;
  });
}
