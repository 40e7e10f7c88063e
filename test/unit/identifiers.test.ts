import { describe, expect, it } from 'vitest';
import {
  containerCheckDigit,
  imoCheckDigit,
  isValidContainerNumber,
  isValidImo,
  normalizeTrackingNumber,
} from '../../src/shared/identifiers';

describe('containerCheckDigit', () => {
  it('computes the check digit of the ISO 6346 textbook example', () => {
    expect(containerCheckDigit('CSQU305438')).toBe(3);
  });

  it('matches a sum worked by hand', () => {
    // M24 S30 C13 U32 1 2 3 4 5 6, weighted 1..512: 5528, and 5528 mod 11 = 6.
    expect(containerCheckDigit('MSCU123456')).toBe(6);
  });

  it('uses the letter values that skip multiples of 11', () => {
    // K is 21 and L is 23 (22 skipped); V is 34 (33 skipped). Valuing them naively breaks these.
    expect(containerCheckDigit('TCLU222432')).toBe(7);
    expect(containerCheckDigit('KOCU495901')).toBe(0);
    expect(containerCheckDigit('CAIU743298')).toBe(6);
  });

  it('turns a remainder of 10 into 0', () => {
    // The weighted sum of MSCU100007 leaves 10 mod 11.
    expect(containerCheckDigit('MSCU100007')).toBe(0);
    expect(isValidContainerNumber('MSCU1000070')).toBe(true);
  });

  it('accepts lower case and rejects input of the wrong shape', () => {
    expect(containerCheckDigit('csqu305438')).toBe(3);
    expect(() => containerCheckDigit('CSQU30543')).toThrow(RangeError);
    expect(() => containerCheckDigit('CSQ1305438')).toThrow(RangeError);
    expect(() => containerCheckDigit('CSQU3054383')).toThrow(RangeError);
  });
});

describe('isValidContainerNumber', () => {
  it.each([
    'CSQU3054383',
    'MSCU1234566',
    'TCLU2224327',
    'TCLU6718159',
    'CAIU7432986',
    'CMAU0619052',
    'GLDU1355602',
    'TGHU6578122',
    'ARDU1824900',
  ])('accepts %s', (number) => {
    expect(isValidContainerNumber(number)).toBe(true);
  });

  it('ignores case and spaces', () => {
    expect(isValidContainerNumber('csqu3054383')).toBe(true);
    expect(isValidContainerNumber('CSQU 305438 3')).toBe(true);
    expect(isValidContainerNumber('  CSQU3054383 ')).toBe(true);
  });

  it('accepts the J and Z equipment categories', () => {
    const serial = '305438';
    for (const category of ['J', 'Z']) {
      const first10 = `CSQ${category}${serial}`;
      expect(isValidContainerNumber(`${first10}${containerCheckDigit(first10)}`)).toBe(true);
    }
  });

  it.each([
    ['a wrong check digit', 'CSQU3054384'],
    ['another wrong check digit', 'MSCU1234567'],
    ['two swapped digits', 'CSQU3045383'],
    ['one digit too few', 'CSQU305438'],
    ['one digit too many', 'CSQU30543833'],
    ['a category letter other than U, J or Z', 'CSQX3054383'],
    ['a digit in the owner code', 'CS1U3054383'],
    ['a 3-letter prefix', 'CSU3054383'],
    ['a letter in the serial', 'CSQU30543B3'],
    ['dashes', 'CSQU-305438-3'],
    ['an empty string', ''],
  ])('rejects %s', (_reason, number) => {
    expect(isValidContainerNumber(number)).toBe(false);
  });
});

describe('IMO numbers', () => {
  it('computes check digits of real ships', () => {
    // EVER FORWARD: 9*7 + 8*6 + 5*5 + 0*4 + 5*3 + 5*2 = 161.
    expect(imoCheckDigit('985055')).toBe(1);
    // UMM SALAL: 9*7 + 5*6 + 2*5 + 5*4 + 8*3 + 5*2 = 157.
    expect(imoCheckDigit('952585')).toBe(7);
  });

  it.each(['9850551', '9525857', '9811000', '9839430', '9321483'])('accepts %s', (imo) => {
    expect(isValidImo(imo)).toBe(true);
  });

  it('tolerates the IMO prefix and surrounding spaces', () => {
    expect(isValidImo('IMO 9850551')).toBe(true);
    expect(isValidImo('imo9850551')).toBe(true);
    expect(isValidImo(' 9850551 ')).toBe(true);
  });

  it.each([
    ['a wrong check digit', '9850552'],
    ['swapped digits', '9580551'],
    ['six digits', '985055'],
    ['eight digits', '98505511'],
    ['a letter', '98505A1'],
    ['an empty string', ''],
  ])('rejects %s', (_reason, imo) => {
    expect(isValidImo(imo)).toBe(false);
  });

  it('rejects input of the wrong shape for the check digit', () => {
    expect(() => imoCheckDigit('98505')).toThrow(RangeError);
    expect(() => imoCheckDigit('98505X')).toThrow(RangeError);
  });
});

describe('normalizeTrackingNumber', () => {
  it('upper-cases and strips spaces and dashes', () => {
    expect(normalizeTrackingNumber(' medu-1234 567 ')).toBe('MEDU1234567');
    expect(normalizeTrackingNumber('oolu\t2148468620')).toBe('OOLU2148468620');
    expect(normalizeTrackingNumber('CSQU3054383')).toBe('CSQU3054383');
  });

  it('keeps other punctuation, which belongs to the number', () => {
    expect(normalizeTrackingNumber('abc/123.4')).toBe('ABC/123.4');
  });
});
