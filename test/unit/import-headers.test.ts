import { describe, expect, it } from 'vitest';
import { matchHeader, proposeMapping } from '../../src/core/import/headers';
import { parseNumberType } from '../../src/core/import/number-types';

const knownCarriers = new Set(['MAEU', 'MSCU', 'CMDU', 'HLCU']);
const known = (text: string) => knownCarriers.has(text.toUpperCase());

describe('header matching', () => {
  it('reads the names forwarders give a column, whatever the case, spaces and punctuation', () => {
    const cases: [string, string, string | null][] = [
      ['BL', 'number', 'bill_of_lading'],
      ['B/L', 'number', 'bill_of_lading'],
      ['b/l no.', 'number', 'bill_of_lading'],
      ['Bill of Lading #', 'number', 'bill_of_lading'],
      ['MBL', 'number', 'bill_of_lading'],
      ['Container #', 'number', 'container'],
      ['CONTAINER NO', 'number', 'container'],
      ['Cntr', 'number', 'container'],
      ['Booking Ref', 'number', 'booking_number'],
      ['BKG #', 'number', 'booking_number'],
      ['Number', 'number', null],
      ['Tracking number', 'number', null],
      ['SCAC', 'carrier', null],
      ['Line', 'carrier', null],
      ['Shipping line', 'carrier', null],
      ['Carrier code', 'carrier', null],
      ['Ref', 'refNumbers', null],
      ['Ref #', 'refNumbers', null],
      ['PO', 'refNumbers', null],
      ['P.O. Number', 'refNumbers', null],
      ['Customer ref', 'refNumbers', null],
      ['Tags', 'tags', null],
      ['Customer', 'customer', null],
      ['Client name', 'customer', null],
      ['Type', 'numberType', null],
      ['Number type', 'numberType', null],
      ['  Réf  ', 'refNumbers', null],
    ];
    for (const [header, field, numberType] of cases) {
      expect(matchHeader(header), header).toEqual({ field, numberType });
    }
  });

  it('matches nothing for a column it does not know, rather than guess', () => {
    for (const header of ['Notes', 'Consignee', 'ETA', 'Vessel', '', '#', 'Number of pallets']) {
      expect(matchHeader(header), header).toBeNull();
    }
  });

  it('reads a type cell in the words a sheet uses', () => {
    expect(parseNumberType('B/L')).toBe('bill_of_lading');
    expect(parseNumberType('Bill of lading')).toBe('bill_of_lading');
    expect(parseNumberType('bill_of_lading')).toBe('bill_of_lading');
    expect(parseNumberType('BKG')).toBe('booking_number');
    expect(parseNumberType('Booking number')).toBe('booking_number');
    expect(parseNumberType('CNTR')).toBe('container');
    expect(parseNumberType('container no.')).toBe('container');
    expect(parseNumberType('pallet')).toBeNull();
  });
});

describe('the mapping Quayside proposes', () => {
  it('is sure of a sheet whose headers it all knows, and takes the type from a "Container #" header', () => {
    const { mapping, unsure } = proposeMapping(
      [
        ['Container #', 'SCAC', 'Ref', 'PO', 'Tags', 'Customer'],
        ['MSCU1234566', 'MSCU', 'A1', 'PO-9', 'hot', 'Acme'],
      ],
      known,
    );
    expect(unsure).toEqual([]);
    expect(mapping).toEqual({
      hasHeader: true,
      fields: ['number', 'carrier', 'refNumbers', 'refNumbers', 'tags', 'customer'],
      numberType: 'container',
    });
  });

  it('leaves the numbers’ type to a Type column when there is one', () => {
    const { mapping } = proposeMapping(
      [
        ['BL', 'Type', 'Line'],
        ['MAEU123456789', 'BL', 'MAEU'],
      ],
      known,
    );
    expect(mapping.fields).toEqual(['number', 'numberType', 'carrier']);
    expect(mapping.numberType).toBeNull();
  });

  it('says so when a column name is unknown, and when two columns could be the number', () => {
    const { mapping, unsure } = proposeMapping(
      [
        ['BL', 'Container #', 'Notes', 'SCAC'],
        ['MAEU123456789', 'MSCU1234566', 'call first', 'MAEU'],
      ],
      known,
    );
    expect(mapping.fields).toEqual(['number', null, null, 'carrier']);
    expect(unsure).toEqual([
      '“Notes” is not a column name Quayside knows; it is left out.',
      '“BL” and “Container #” could each be the number; Quayside took “BL”.',
    ]);
  });

  it('tells the columns of a sheet without a header row by what they hold', () => {
    const { mapping, unsure } = proposeMapping(
      [
        ['MSCU1234566', 'MSCU', 'first'],
        ['MAEU1234567', 'MAEU', 'second'],
        ['CMAU1111111', 'CMDU', ''],
      ],
      known,
    );
    expect(mapping).toEqual({ hasHeader: false, fields: ['number', 'carrier', null], numberType: 'container' });
    expect(unsure).toEqual(['The first row holds values, not column names: each column was told by what it holds.']);
  });

  it('takes a first row of unknown words over values as a header, and says what each column looks like', () => {
    const { mapping, unsure } = proposeMapping(
      [
        ['Kontainernummer', 'Reederei'],
        ['MSCU1234566', 'MSCU'],
        ['MAEU1234567', 'MAEU'],
      ],
      known,
    );
    expect(mapping.hasHeader).toBe(true);
    expect(mapping.fields).toEqual(['number', 'carrier']);
    expect(unsure).toEqual([
      '“Kontainernummer” is not a column name Quayside knows; it looks like number.',
      '“Reederei” is not a column name Quayside knows; it looks like carrier (scac).',
    ]);
  });

  it('asks for the number column when none can be found', () => {
    const { mapping, unsure } = proposeMapping(
      [
        ['Notes', 'Customer'],
        ['call first', 'Acme'],
      ],
      known,
    );
    expect(mapping.fields).toEqual([null, 'customer']);
    expect(unsure).toContain('No column holds the numbers to track: choose which one does.');
  });
});
