export {
  dateOnly,
  formatDateInZone,
  formatInZone,
  formatUtc,
  parseInstant,
  timestamp,
  type CellValue,
  type ExportColumn,
  type InstantInput,
  type ZoneOf,
} from './columns';
export { formatCell, neutraliseFormula, writeCsv, type CsvResult, type WriteCsvOptions } from './csv';
export { describeFsError, exportToFile, type ExportFileResult } from './write-file';
