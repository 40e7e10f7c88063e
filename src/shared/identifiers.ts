/**
 * Check digits of the identifiers a shipment carries: ISO 6346 container numbers and IMO ship
 * numbers. Pure functions, so the renderer can validate input as it is typed and the sandbox can
 * mint numbers a real carrier would accept.
 */

const CONTAINER_PREFIX = /^[A-Z]{4}\d{6}$/;
const CONTAINER_NUMBER = /^[A-Z]{3}[UJZ]\d{7}$/;

/**
 * ISO 6346 values letters from 10 upwards but skips 11, 22 and 33: a multiple of 11 would vanish
 * from the weighted sum taken mod 11, letting two owner codes share a check digit too easily.
 */
const LETTER_VALUES: ReadonlyMap<string, number> = (() => {
  const values = new Map<string, number>();
  let value = 10;
  for (const letter of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') {
    if (value % 11 === 0) value += 1;
    values.set(letter, value);
    value += 1;
  }
  return values;
})();

/**
 * The check digit of a container number from its first 10 characters (owner code, category
 * letter, 6-digit serial). A remainder of 10 becomes 0: ISO 6346 advises owners not to issue such
 * serials, but boxes carrying them exist, so they are accepted rather than rejected.
 */
export function containerCheckDigit(first10: string): number {
  const prefix = first10.toUpperCase();
  if (!CONTAINER_PREFIX.test(prefix)) {
    throw new RangeError(`Not 4 letters and 6 digits: ${JSON.stringify(first10)}`);
  }
  let sum = 0;
  for (let i = 0; i < 10; i += 1) {
    const char = prefix.charAt(i);
    const value = i < 4 ? LETTER_VALUES.get(char)! : Number(char);
    sum += value * 2 ** i;
  }
  return (sum % 11) % 10;
}

/**
 * True for an ISO 6346 freight container number: a 3-letter owner code, the category letter U
 * (freight container), J (detachable equipment) or Z (trailer or chassis), 6 digits and the check
 * digit. Case and spaces are ignored, since numbers are often written as "CSQU 305438 3".
 */
export function isValidContainerNumber(value: string): boolean {
  const compact = value.replace(/\s+/g, '').toUpperCase();
  if (!CONTAINER_NUMBER.test(compact)) return false;
  return containerCheckDigit(compact.slice(0, 10)) === Number(compact.charAt(10));
}

/** The 7th digit of an IMO ship number from the first 6: weights 7 down to 2, sum mod 10. */
export function imoCheckDigit(first6: string): number {
  if (!/^\d{6}$/.test(first6)) {
    throw new RangeError(`Not 6 digits: ${JSON.stringify(first6)}`);
  }
  let sum = 0;
  for (let i = 0; i < 6; i += 1) {
    sum += Number(first6.charAt(i)) * (7 - i);
  }
  return sum % 10;
}

/**
 * True for a 7-digit IMO ship number with a correct check digit. The "IMO" prefix that registers
 * print in front of it is tolerated; the API itself sends bare digits.
 */
export function isValidImo(value: string): boolean {
  const digits = value
    .trim()
    .replace(/^IMO\s*/i, '')
    .trim();
  if (!/^\d{7}$/.test(digits)) return false;
  return imoCheckDigit(digits.slice(0, 6)) === Number(digits.charAt(6));
}

/**
 * The form a bill of lading, booking or container number is compared and stored in: people paste
 * them with spaces or dashes from e-mails and PDFs, carriers never issue them with either.
 */
export function normalizeTrackingNumber(value: string): string {
  return value.replace(/[\s-]+/g, '').toUpperCase();
}
