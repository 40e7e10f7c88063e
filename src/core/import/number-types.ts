/**
 * Words as a spreadsheet writes them, and the number types a cell may name: "BL", "B/L", "Bill of
 * lading", "Booking", "BKG", "Container", "CNTR"… in any case and punctuation.
 */
import type { RequestType } from '../../shared/imports';

/** Lower case, accents off, "#" and "No." read as "number", punctuation as spaces, single spaces. */
export function normalizeWords(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/#/g, ' number ')
    .replace(/\bno\./g, ' number ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const typeWords: [RequestType, string[]][] = [
  [
    'bill_of_lading',
    [
      'bl',
      'b l',
      'bol',
      'b o l',
      'bill of lading',
      'bill',
      'lading',
      'mbl',
      'mbol',
      'master bl',
      'master bill of lading',
      'obl',
    ],
  ],
  ['booking_number', ['booking', 'bkg', 'bk', 'booking number', 'bkg number', 'booking nr', 'bn']],
  ['container', ['container', 'cntr', 'ctr', 'ctnr', 'cont', 'container number', 'box', 'equipment', 'unit']],
];
const byWords = new Map<string, RequestType>(
  typeWords.flatMap(([type, words]) => words.map((w) => [w, type] as const)),
);
for (const type of ['bill_of_lading', 'booking_number', 'container'] as const) byWords.set(normalizeWords(type), type);

/** The number type a cell names, or null when it names none. */
export function parseNumberType(text: string): RequestType | null {
  const words = normalizeWords(text);
  return byWords.get(words) ?? byWords.get(words.replace(/ (number|no|nr|num)$/, '')) ?? null;
}
