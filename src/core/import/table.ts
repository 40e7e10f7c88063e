/** A table read from a file, described for the mapping step: its columns, a few values of each, the proposal. */
import { columnLetter, type ImportTable } from '../../shared/imports';
import { proposeMapping } from './headers';
import type { ImportLookups } from './lookups';
import type { ReadTable } from './read-table';

export function describeTable(id: string, name: string, read: ReadTable, lookups: ImportLookups): ImportTable {
  const { mapping, unsure } = proposeMapping(
    read.rows,
    (text) => lookups.carriersKnown && lookups.carrier(text) !== null,
  );
  const filled = read.rows.filter((row) => row.some((cell) => cell !== ''));
  const width = Math.max(0, ...filled.map((row) => row.length));
  const columns = Array.from({ length: width }, (_, index) => ({
    index,
    letter: columnLetter(index),
    first: (filled[0]?.[index] ?? '').slice(0, 60),
    samples: filled
      .slice(1)
      .map((row) => row[index] ?? '')
      .filter((cell) => cell !== '')
      .slice(0, 3)
      .map((cell) => cell.slice(0, 60)),
  }));
  return { id, name, sheet: read.sheet, columns, rowCount: filled.length, mapping, unsure };
}
