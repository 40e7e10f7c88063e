/**
 * Which column holds what. A header is matched forgivingly: case, spaces, punctuation and a
 * trailing "number", "no", "#" or "code" do not matter, and the names forwarders use ("BL", "B/L",
 * "Container #", "SCAC", "Line", "Ref", "PO") are known. A header that names a kind of number
 * ("BL", "Booking", "Container #") also says the type of every number in it. Without a header row
 * the columns are told by their contents. Whatever is unsure is said, so the app can ask.
 */
import {
  columnLetter,
  singleColumnFields,
  type ImportField,
  type ImportMapping,
  type RequestType,
} from '../../shared/imports';
import { importFieldLabels } from '../../shared/imports';
import { normalizeWords, parseNumberType } from './number-types';

export interface HeaderMatch {
  field: ImportField;
  /** A header naming a kind of number ("BL") also gives the numbers' type. */
  numberType: RequestType | null;
}

const synonyms: [ImportField, RequestType | null, string[]][] = [
  ['number', null, ['number', 'tracking', 'tracking number', 'track number', 'request number', 'shipment number']],
  [
    'number',
    'bill_of_lading',
    [
      'bl',
      'b l',
      'bol',
      'b o l',
      'bill of lading',
      'bill lading',
      'mbl',
      'mbol',
      'm bl',
      'master bl',
      'master b l',
      'master bol',
      'master bill',
      'master bill of lading',
      'ocean bl',
      'ocean bill of lading',
      'obl',
      'lading',
    ],
  ],
  ['number', 'booking_number', ['booking', 'bkg', 'bk', 'booking reference', 'booking ref', 'bkg ref', 'booking nr']],
  [
    'number',
    'container',
    [
      'container',
      'cntr',
      'ctr',
      'ctnr',
      'cont',
      'container id',
      'equipment',
      'equipment id',
      'box',
      'unit',
      'container equipment',
    ],
  ],
  [
    'numberType',
    null,
    ['type', 'number type', 'request type', 'kind', 'track by', 'tracking type', 'id type', 'reference type'],
  ],
  [
    'carrier',
    null,
    [
      'carrier',
      'scac',
      'carrier scac',
      'scac carrier',
      'line',
      'shipping line',
      'steamship line',
      'ssl',
      'ocean carrier',
      'vocc',
      'shipping line scac',
      'line scac',
      'liner',
      'carrier name',
      'shipping company',
    ],
  ],
  [
    'refNumbers',
    null,
    [
      'ref',
      'refs',
      'reference',
      'references',
      'ref number',
      'reference number',
      'po',
      'p o',
      'pos',
      'purchase order',
      'customer ref',
      'customer reference',
      'our ref',
      'your ref',
      'job',
      'job ref',
      'file',
      'file ref',
      'shipment ref',
      'shipment reference',
      'internal ref',
      'order',
      'order ref',
    ],
  ],
  ['tags', null, ['tag', 'tags', 'label', 'labels']],
  ['customer', null, ['customer', 'customer name', 'client', 'client name', 'account', 'account name', 'customer id']],
];

const byName = new Map<string, HeaderMatch>();
for (const [field, numberType, names] of synonyms) {
  for (const name of names) byName.set(name, { field, numberType });
}

/** Words that only say "the identifier of": "Container No.", "PO #", "Carrier code". */
const trailing = new Set(['number', 'numbers', 'no', 'nos', 'num', 'nr', 'nbr', 'code', 'id', 'ids', 'ref', 's']);

export function matchHeader(header: string): HeaderMatch | null {
  // "#" alone heads a count of rows, not their numbers.
  if (!/\p{L}/u.test(header)) return null;
  let words = normalizeWords(header).split(' ').filter(Boolean);
  while (words.length > 0) {
    const found = byName.get(words.join(' '));
    if (found) return found;
    // "Container No." → "container"; "Ref #" → "ref"; but never down to nothing.
    if (words.length > 1 && trailing.has(words[words.length - 1]!)) words = words.slice(0, -1);
    else break;
  }
  return null;
}

const CONTAINER_SHAPE = /^[A-Z]{3}[UJZ]\d{7}$/;

/** What a column's values look like, for a file without a header row. */
function guessFromValues(values: string[], knownCarriers: (text: string) => boolean): HeaderMatch | null {
  const filled = values.filter((v) => v !== '');
  if (filled.length === 0) return null;
  const share = (test: (v: string) => boolean) => filled.filter(test).length / filled.length;
  const compact = (v: string) => v.replace(/[\s-]+/g, '').toUpperCase();
  if (share((v) => CONTAINER_SHAPE.test(compact(v))) >= 0.8) return { field: 'number', numberType: 'container' };
  if (share((v) => parseNumberType(v) !== null) >= 0.8) return { field: 'numberType', numberType: null };
  if (share((v) => /^[A-Za-z]{4}$/.test(v) && knownCarriers(v)) >= 0.8) return { field: 'carrier', numberType: null };
  if (share((v) => /^[A-Z0-9]{6,30}$/.test(compact(v)) && /\d/.test(v)) >= 0.8) {
    return { field: 'number', numberType: null };
  }
  return null;
}

export interface Proposal {
  mapping: ImportMapping;
  unsure: string[];
}

/**
 * The mapping Quayside would use for these rows (the first rows with values; blank rows are not
 * looked at) and what it is unsure of. `knownCarrier` says whether a 4-letter code is a carrier
 * the account knows (used only to tell columns apart in a file without headers).
 */
export function proposeMapping(rows: string[][], knownCarrier: (text: string) => boolean): Proposal {
  const filled = rows.filter((row) => row.some((cell) => cell !== ''));
  const width = Math.max(0, ...filled.map((row) => row.length));
  const first = filled[0] ?? [];
  const headerMatches = Array.from({ length: width }, (_, i) => matchHeader(first[i] ?? ''));
  const body = filled.slice(1, 51);
  const hasHeader =
    headerMatches.some((m) => m !== null) ||
    // No known name, yet the first row does not look like the rest: a header in words we do not know.
    Array.from({ length: width }, (_, i) => {
      const below = guessFromValues(
        body.map((row) => row[i] ?? ''),
        knownCarrier,
      );
      return below !== null && guessFromValues([first[i] ?? ''], knownCarrier)?.field !== below.field;
    }).some(Boolean);
  const unsure: string[] = [];
  const name = (i: number) => (hasHeader && first[i] ? `“${first[i]}”` : `column ${columnLetter(i)}`);
  const matches: (HeaderMatch | null)[] = Array.from({ length: width }, (_, i) => {
    if (hasHeader && headerMatches[i]) return headerMatches[i];
    return guessFromValues(
      (hasHeader ? body : filled.slice(0, 50)).map((row) => row[i] ?? ''),
      knownCarrier,
    );
  });
  if (!hasHeader) unsure.push('The first row holds values, not column names: each column was told by what it holds.');
  else {
    for (let i = 0; i < width; i++) {
      if (!headerMatches[i] && (first[i] ?? '') !== '' && body.some((row) => (row[i] ?? '') !== '')) {
        unsure.push(
          matches[i]
            ? `${name(i)} is not a column name Quayside knows; it looks like ${importFieldLabels[matches[i]!.field].toLowerCase()}.`
            : `${name(i)} is not a column name Quayside knows; it is left out.`,
        );
      }
    }
  }
  // One column each for the number, its type, the carrier and the customer: the first one
  // keeps it, and the others are left out and said.
  const fields: (ImportField | null)[] = matches.map((m) => m?.field ?? null);
  for (const field of singleColumnFields) {
    const claimed = fields.flatMap((f, i) => (f === field ? [i] : []));
    if (claimed.length > 1) {
      unsure.push(
        `${claimed.map(name).join(' and ')} could each be the ${importFieldLabels[field].toLowerCase()}; Quayside took ${name(claimed[0]!)}.`,
      );
      for (const i of claimed.slice(1)) fields[i] = null;
    }
  }
  const numberColumn = fields.indexOf('number');
  if (numberColumn < 0) unsure.push('No column holds the numbers to track: choose which one does.');
  const numberType =
    numberColumn >= 0 && !fields.includes('numberType') ? (matches[numberColumn]?.numberType ?? null) : null;
  return { mapping: { hasHeader, fields, numberType }, unsure };
}
