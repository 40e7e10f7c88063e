/**
 * Bulk import of tracking requests: the columns a file may carry, how a file's
 * columns are mapped to them, and each row's way from the file to its result. Core parses,
 * validates and sends; the renderer and the CLI show what core says. No node, electron or DOM
 * imports here.
 */
import { z } from 'zod';
import type { CarrierCandidate } from './service-actions';

/** What a column can hold. Reference numbers and tags may come from several columns. */
export const importFields = ['number', 'numberType', 'carrier', 'refNumbers', 'tags', 'customer'] as const;
export type ImportField = (typeof importFields)[number];

export const importFieldLabels: Record<ImportField, string> = {
  number: 'Number',
  numberType: 'Number type',
  carrier: 'Carrier (SCAC)',
  refNumbers: 'Reference numbers',
  tags: 'Tags',
  customer: 'Customer',
};

/** Fields a file may fill from one column only. */
export const singleColumnFields: readonly ImportField[] = ['number', 'numberType', 'carrier', 'customer'];

export const requestTypes = ['bill_of_lading', 'booking_number', 'container'] as const;
export type RequestType = (typeof requestTypes)[number];

/** The most rows one import takes: about 100 minutes at the service's 100 creates a minute. */
export const MAX_IMPORT_ROWS = 10_000;
/** The largest file read (bytes as chosen; the base64 sent over IPC is a third larger). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
/** The most columns looked at. */
export const MAX_IMPORT_COLUMNS = 60;

/**
 * How a file's columns are read: whether its first row names them, the field of each column
 * (null: left out), and, for rows whose type no column gives, the type all its numbers are (a
 * header such as "BL" or "Container #" says so) or null to tell each number's type from its shape
 * and the service's answer.
 */
export const importMappingSchema = z
  .object({
    hasHeader: z.boolean(),
    fields: z.array(z.enum(importFields).nullable()).max(MAX_IMPORT_COLUMNS),
    numberType: z.enum(requestTypes).nullable(),
  })
  .strict();
export type ImportMapping = z.infer<typeof importMappingSchema>;

/** One column as read, with what Quayside made of it. */
export interface ImportColumn {
  index: number;
  /** "A", "B", … as a spreadsheet names it. */
  letter: string;
  /** Its cell in the first row holding anything: the header ("Container #") when there is a header row. */
  first: string;
  /** The first few values below that row, to tell a column by. */
  samples: string[];
}

/** A file read and its columns mapped as well as Quayside could. */
export interface ImportTable {
  id: string;
  /** The file's name, or "Pasted cells". */
  name: string;
  /** The sheet read, for a workbook (the first one). */
  sheet: string | null;
  columns: ImportColumn[];
  /** Rows holding anything, the header row included. */
  rowCount: number;
  mapping: ImportMapping;
  /**
   * Why the mapping should be looked at before the preview, one sentence each: a header that
   * matched nothing, two columns that could both be the number, no header row. Empty when sure.
   */
  unsure: string[];
}

/**
 * Where a row stands. `validation`: something in the row must change before it can be sent
 * (`message` says what). `ready`: valid, not sent. `inferring`: waiting for the service to name
 * its carrier. `sending`: on its way. Then one of `created`, `already_tracked` (in the local copy,
 * or the service's duplicate answer) or `failed` (the service's reason, or why it was not sent).
 */
export const importRowStatuses = [
  'validation',
  'ready',
  'inferring',
  'sending',
  'created',
  'already_tracked',
  'failed',
] as const;
export type ImportRowStatus = (typeof importRowStatuses)[number];

export const importRowStatusLabels: Record<ImportRowStatus, string> = {
  validation: 'Needs a fix',
  ready: 'Ready',
  inferring: 'Finding carrier',
  sending: 'Sending',
  created: 'Created',
  already_tracked: 'Already tracked',
  failed: 'Failed',
};

export interface ImportRow {
  /** Its row number in the file, as a spreadsheet numbers it (the header row is row 1). */
  row: number;
  /** As it will be sent: spaces and dashes out, upper case (as typed when it cannot be read). */
  number: string;
  requestType: RequestType | null;
  /** SCAC as it will be sent, or null while unknown. */
  carrier: string | null;
  carrierName: string | null;
  /** The carrier came from the service's inference, not the file. */
  carrierInferred: boolean;
  refNumbers: string[];
  tags: string[];
  /** The customer as the file names it, and the party it was matched to. */
  customer: string | null;
  customerId: string | null;
  status: ImportRowStatus;
  /** What is wrong, what happened or why it was not sent; null for a plain ready row. */
  message: string | null;
  /** The field the message is about, for `validation`. */
  field: ImportField | null;
  /** The carriers the service thought of, when it was not sure (pick one to send the row). */
  candidates: CarrierCandidate[];
  /** The tracking request created, or the one that already tracks this number when known. */
  trackingRequestId: string | null;
  /** The shipment already tracking this number, when the local copy has it. */
  shipmentId: string | null;
}

export type ImportPhase = 'preview' | 'inferring' | 'sending' | 'done';

export interface ImportProgress {
  done: number;
  total: number;
  /** Seconds until the last row is sent at the limit, when it can be said. */
  etaSeconds: number | null;
}

/** An import as it stands. */
export interface ImportState {
  id: string;
  /** The last progress event this state includes (see ImportProgressEvent.version). */
  version: number;
  name: string;
  phase: ImportPhase;
  /** The last run (inference or sending) was cancelled before it ended. */
  cancelled: boolean;
  /** Why the last run stopped early (the key refused, no connection), when it did. */
  stopped: string | null;
  rows: ImportRow[];
  counts: Record<ImportRowStatus, number>;
  progress: ImportProgress | null;
}

/** `imports:progress`: an import's phase and counts, and the rows that changed since the last one. */
export interface ImportProgressEvent {
  id: string;
  /**
   * 1, 2, 3… per import: `rows` holds the rows changed since the event before, so a listener
   * that missed one (its number skips) reads the whole import again (`imports:get`).
   */
  version: number;
  phase: ImportPhase;
  cancelled: boolean;
  stopped: string | null;
  progress: ImportProgress | null;
  counts: Record<ImportRowStatus, number>;
  rows: ImportRow[];
}

const importId = z.string().min(1).max(100);

/** `imports:read`: a chosen file's bytes (base64) or cells pasted from a spreadsheet. */
export const readImportSchema = z.union([
  z
    .object({
      name: z.string().trim().min(1).max(260),
      base64: z
        .string()
        .max(Math.ceil(MAX_IMPORT_BYTES / 3) * 4 + 4)
        .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Not base64'),
    })
    .strict(),
  z.object({ text: z.string().min(1).max(MAX_IMPORT_BYTES) }).strict(),
]);

export const previewImportSchema = z.object({ id: importId, mapping: importMappingSchema }).strict();
export const importIdSchema = z.object({ id: importId }).strict();
/** `imports:send`: the ready rows, or these rows (row numbers; failed ones are sent again). */
export const sendImportSchema = z
  .object({ id: importId, rows: z.array(z.number().int().min(1).max(10_000_000)).max(MAX_IMPORT_ROWS).optional() })
  .strict();
/** `imports:setCarrier`: the carrier picked for a row the service was not sure about. */
export const setImportCarrierSchema = z
  .object({
    id: importId,
    row: z.number().int().min(1).max(10_000_000),
    scac: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2,4}$/, 'A carrier code (SCAC) is 4 letters'),
  })
  .strict();

/** Spreadsheet column letters: 0 → A, 25 → Z, 26 → AA. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let letters = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(65 + rest) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

export function emptyImportCounts(): Record<ImportRowStatus, number> {
  return Object.fromEntries(importRowStatuses.map((s) => [s, 0])) as Record<ImportRowStatus, number>;
}
