/**
 * A file's rows as tracking requests to be, each checked before anything is sent: the number's
 * shape (a container number's ISO 6346 check digit; a bill of lading or booking number's letters
 * and digits), its type, the carrier (known to the account, able to track that type), references,
 * tags and customer, numbers already tracked here, and a number the file repeats. A row without a
 * carrier (or whose type neither the file nor the number's shape says) waits for the service's
 * inference.
 */
import { containerCheckDigit, isValidContainerNumber, normalizeTrackingNumber } from '../../shared/identifiers';
import type { ImportField, ImportMapping, ImportRow, RequestType } from '../../shared/imports';
import { requestTypeLabels } from '../../shared/labels';
import type { CarrierCandidate } from '../../shared/service-actions';
import type { ImportLookups } from './lookups';
import { parseNumberType } from './number-types';

/** One data row's cells, by field (a field several columns fill has each column's cell). */
export interface RowDraft {
  row: number;
  number: string;
  numberType: string;
  carrier: string;
  refNumbers: string[];
  tags: string[];
  customer: string;
}

/** What the service said of a row's number, and what the forwarder picked among its guesses. */
export interface RowAnswers {
  inferredCarrier?: string | null;
  inferredType?: RequestType | null;
  /** The service could not be asked or said nothing: why, in one sentence. */
  inferenceProblem?: string | null;
  candidates?: CarrierCandidate[];
  pickedCarrier?: string | null;
}

/** The data rows of a table: the header row and blank rows are none. */
export function draftRows(table: string[][], mapping: ImportMapping): RowDraft[] {
  const drafts: RowDraft[] = [];
  const columnsOf = (field: ImportField) => mapping.fields.flatMap((f, i) => (f === field ? [i] : []));
  const one = (row: string[], field: ImportField) => {
    const [i] = columnsOf(field);
    return i === undefined ? '' : (row[i] ?? '').trim();
  };
  const many = (row: string[], field: ImportField) =>
    columnsOf(field).flatMap((i) =>
      (row[i] ?? '')
        .split(/[,;|\n]/)
        .map((part) => part.trim())
        .filter(Boolean),
    );
  let first = true;
  table.forEach((row, index) => {
    if (!row.some((cell) => cell.trim() !== '')) return;
    if (first && mapping.hasHeader) {
      first = false;
      return;
    }
    first = false;
    drafts.push({
      row: index + 1,
      number: one(row, 'number'),
      numberType: one(row, 'numberType'),
      carrier: one(row, 'carrier'),
      refNumbers: many(row, 'refNumbers'),
      tags: many(row, 'tags'),
      customer: one(row, 'customer'),
    });
  });
  return drafts;
}

const CONTAINER_SHAPE = /^[A-Z]{3}[UJZ]\d{7}$/;
const CONTAINER_LIKE = /^[A-Z]{4}\d{7}$/;
const DOCUMENT_NUMBER = /^[A-Z0-9]{5,30}$/;
// Control characters (tabs, line breaks, escapes) have no place in a tag or a reference.
const hasControl = (text: string) => [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

const typeName = (type: RequestType) => requestTypeLabels[type]!.toLowerCase();

/** The problem with a number of this type, or null. */
export function numberProblem(type: RequestType | null, number: string): string | null {
  if (type === 'container' || (type === null && CONTAINER_LIKE.test(number))) {
    if (isValidContainerNumber(number)) return null;
    if (CONTAINER_SHAPE.test(number)) {
      const expected = containerCheckDigit(number.slice(0, 10));
      return `${number} is not a valid container number: its check digit (the last digit) should be ${expected}. Check the number on the paperwork.`;
    }
    return `${number} is not a container number: that is 3 letters, U, J or Z, and 7 digits with a valid check digit, e.g. MSCU1234566.`;
  }
  if (!DOCUMENT_NUMBER.test(number)) {
    return `${number.slice(0, 40)} is not a ${type ? typeName(type) : 'number the service tracks'}: that is 5 to 30 letters and digits.`;
  }
  return null;
}

function listProblem(values: string[], noun: string, maxLength: number): string | null {
  if (values.length > 20) return `At most 20 ${noun} a row; this one has ${values.length}.`;
  const long = values.find((v) => v.length > maxLength);
  if (long)
    return `${noun[0]!.toUpperCase()}${noun.slice(1, -1)} “${long.slice(0, 30)}…” is longer than ${maxLength} characters.`;
  if (values.some(hasControl)) return `A ${noun.slice(0, -1)} holds a tab or a line break; remove it.`;
  return null;
}

type Verdict = Pick<
  ImportRow,
  'status' | 'message' | 'field' | 'carrier' | 'carrierName' | 'carrierInferred' | 'requestType' | 'customerId'
> & { trackingRequestId: string | null; shipmentId: string | null };

/**
 * One row checked on its own (a repeat of an earlier row is found by `checkRows`). With `answers`
 * the service's inference and the forwarder's pick count as the file's own cells.
 */
export function checkRow(
  draft: RowDraft,
  lookups: ImportLookups,
  answers: RowAnswers = {},
  defaultType: RequestType | null = null,
): ImportRow {
  const number = normalizeTrackingNumber(draft.number);
  const base: ImportRow = {
    row: draft.row,
    number: number || draft.number,
    requestType: null,
    carrier: null,
    carrierName: null,
    carrierInferred: false,
    refNumbers: draft.refNumbers,
    tags: draft.tags,
    customer: draft.customer || null,
    customerId: null,
    status: 'ready',
    message: null,
    field: null,
    candidates: answers.candidates ?? [],
    trackingRequestId: null,
    shipmentId: null,
  };
  return { ...base, ...verdict(draft, number, lookups, answers, defaultType) };
}

function verdict(
  draft: RowDraft,
  number: string,
  lookups: ImportLookups,
  answers: RowAnswers,
  defaultType: RequestType | null,
): Verdict {
  const none = { trackingRequestId: null, shipmentId: null };
  const fix = (field: ImportField, message: string, partial: Partial<Verdict> = {}): Verdict => ({
    carrier: null,
    carrierName: null,
    carrierInferred: false,
    requestType: null,
    customerId: null,
    ...none,
    ...partial,
    status: 'validation',
    message,
    field,
  });
  if (number === '') return fix('number', 'This row has no number to track.');
  // Its type: the file's type cell, else the column's (a "BL" header), else the number's shape,
  // else what the service made of it.
  let type: RequestType | null = null;
  if (draft.numberType !== '') {
    type = parseNumberType(draft.numberType);
    if (!type) {
      return fix(
        'numberType',
        `“${draft.numberType.slice(0, 30)}” is not a number type: write bill of lading, booking or container.`,
      );
    }
  }
  // A valid container number is a container whatever the column is called; the column's type
  // comes next, then a number shaped like a container's (its check digit is then said wrong).
  type ??= isValidContainerNumber(number)
    ? 'container'
    : (defaultType ?? (CONTAINER_LIKE.test(number) ? 'container' : (answers.inferredType ?? null)));
  const shape = numberProblem(type, number);
  if (shape) return fix('number', shape, { requestType: type });

  const refs = listProblem(draft.refNumbers, 'references', 100);
  if (refs) return fix('refNumbers', refs, { requestType: type });
  const tags = listProblem(draft.tags, 'tags', 60);
  if (tags) return fix('tags', tags, { requestType: type });

  let customerId: string | null = null;
  if (draft.customer !== '') {
    const customer = lookups.customer(draft.customer);
    if (!customer) {
      return fix(
        'customer',
        lookups.customersKnown
          ? `No customer named “${draft.customer.slice(0, 60)}” in this account; use the name the Tracking API has, or leave the cell empty.`
          : 'The local copy has no customers yet: sync first so customers can be matched, or leave the cell empty.',
        { requestType: type },
      );
    }
    customerId = customer.id;
  }

  const carrierText = answers.pickedCarrier ?? (draft.carrier || answers.inferredCarrier || '');
  const inferred = !answers.pickedCarrier && draft.carrier === '' && !!answers.inferredCarrier;
  if (carrierText === '' || type === null) {
    if (answers.inferenceProblem) {
      return fix(carrierText === '' ? 'carrier' : 'numberType', answers.inferenceProblem, {
        requestType: type,
        customerId,
      });
    }
    if (answers.inferredCarrier === undefined && answers.inferredType === undefined) {
      return {
        status: 'inferring',
        message:
          carrierText === ''
            ? 'The carrier will be asked of the Tracking API.'
            : 'The number type will be asked of the Tracking API.',
        field: null,
        carrier: null,
        carrierName: null,
        carrierInferred: false,
        requestType: type,
        customerId,
        ...none,
      };
    }
    if (type === null) {
      return fix('numberType', `Say whether ${number} is a bill of lading or a booking number: add a Type column.`, {
        customerId,
      });
    }
    return fix('carrier', 'The Tracking API could not tell this number’s carrier; add its SCAC to the file.', {
      requestType: type,
      customerId,
    });
  }
  const carrier = lookups.carrier(carrierText);
  if (!carrier) {
    return fix(
      'carrier',
      `“${carrierText.slice(0, 30)}” is not a carrier the Tracking API covers; write its SCAC (4 letters, e.g. MAEU).`,
      { requestType: type, customerId },
    );
  }
  const named = carrier.name ? `${carrier.name} (${carrier.scac})` : carrier.scac;
  if (!carrier.tracks[type]) {
    return fix('carrier', `The Tracking API cannot track ${named} by ${typeName(type)}.`, {
      requestType: type,
      customerId,
      carrier: carrier.scac,
      carrierName: carrier.name,
      carrierInferred: inferred,
    });
  }
  const tracked = lookups.tracked(type, number, carrier.scac);
  const found = {
    requestType: type,
    customerId,
    carrier: carrier.scac,
    carrierName: carrier.name,
    carrierInferred: inferred,
  };
  if (tracked) {
    return {
      ...found,
      status: 'already_tracked',
      message: tracked.message,
      field: null,
      trackingRequestId: tracked.trackingRequestId,
      shipmentId: tracked.shipmentId,
    };
  }
  return {
    ...found,
    status: 'ready',
    message: inferred ? `Carrier from the Tracking API: ${named}.` : null,
    field: null,
    ...none,
  };
}

/** For each row that repeats an earlier row's number, that earlier row's number in the file. */
export function repeatsOf(drafts: RowDraft[]): Map<number, number> {
  const first = new Map<string, number>();
  const repeats = new Map<number, number>();
  for (const draft of drafts) {
    const number = normalizeTrackingNumber(draft.number);
    if (number === '') continue;
    const earlier = first.get(number);
    if (earlier === undefined) first.set(number, draft.row);
    else repeats.set(draft.row, earlier);
  }
  return repeats;
}

/** A row that repeats row `earlier` is left out, unless it has a problem of its own to fix first. */
export function asRepeat(row: ImportRow, earlier: number): ImportRow {
  if (row.status === 'validation') return row;
  return {
    ...row,
    status: 'validation',
    field: 'number',
    message: `Row ${earlier} has the same number; this row is left out.`,
    trackingRequestId: null,
    shipmentId: null,
  };
}
