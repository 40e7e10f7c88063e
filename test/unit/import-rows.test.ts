import { describe, expect, it } from 'vitest';
import type { Carrier, ImportLookups, Tracked } from '../../src/core/import/lookups';
import { asRepeat, checkRow, draftRows, numberProblem, repeatsOf, type RowDraft } from '../../src/core/import/rows';
import type { ImportMapping, RequestType } from '../../src/shared/imports';

const everything = { bill_of_lading: true, booking_number: true, container: true };
const carriers: Carrier[] = [
  { scac: 'MAEU', name: 'Maersk', tracks: everything },
  { scac: 'MSCU', name: 'Mediterranean Shipping Company', tracks: everything },
  { scac: 'ONEY', name: 'Ocean Network Express', tracks: { ...everything, booking_number: false } },
];

function lookups(tracked: Record<string, Tracked> = {}): ImportLookups {
  return {
    carriersKnown: true,
    customersKnown: true,
    carrier: (text) =>
      carriers.find(
        (c) => c.scac === text.trim().toUpperCase() || c.name?.toLowerCase() === text.trim().toLowerCase(),
      ) ?? null,
    customer: (text) => (text.toLowerCase() === 'acme' ? { id: 'party-1', name: 'Acme' } : null),
    tracked: (type: RequestType, number: string) => tracked[`${type}:${number}`] ?? null,
  };
}

const draft = (cells: Partial<RowDraft>): RowDraft => ({
  row: 2,
  number: '',
  numberType: '',
  carrier: '',
  refNumbers: [],
  tags: [],
  customer: '',
  ...cells,
});

describe('a row checked before anything is sent', () => {
  it('is ready with a valid container number and a known carrier, spaces and case forgiven', () => {
    const row = checkRow(draft({ number: 'mscu 123456-6', carrier: 'mscu' }), lookups());
    expect(row).toMatchObject({
      number: 'MSCU1234566',
      requestType: 'container',
      carrier: 'MSCU',
      carrierName: 'Mediterranean Shipping Company',
      status: 'ready',
      message: null,
    });
  });

  it('names the check digit a container number should have', () => {
    const row = checkRow(draft({ number: 'MSCU1234567', carrier: 'MSCU' }), lookups());
    expect(row.status).toBe('validation');
    expect(row.field).toBe('number');
    expect(row.message).toBe(
      'MSCU1234567 is not a valid container number: its check digit (the last digit) should be 6. Check the number on the paperwork.',
    );
    expect(numberProblem('container', 'MSCU123456')).toMatch(/is not a container number/);
    expect(numberProblem('container', 'CSQU3054383')).toBeNull();
  });

  it('takes a bill of lading or booking number of 5 to 30 letters and digits, nothing else', () => {
    expect(numberProblem('bill_of_lading', 'MAEU123456789')).toBeNull();
    expect(numberProblem('booking_number', '123456789')).toBeNull();
    expect(numberProblem('bill_of_lading', 'AB12')).toMatch(/5 to 30 letters and digits/);
    expect(numberProblem('bill_of_lading', 'MAEU/1234567')).toMatch(/5 to 30 letters and digits/);
    expect(numberProblem('booking_number', 'X'.repeat(31))).toMatch(/5 to 30 letters and digits/);
  });

  it('refuses an unknown carrier and one that cannot track that type', () => {
    const unknown = checkRow(draft({ number: 'MAEU123456789', numberType: 'BL', carrier: 'ZZZZ' }), lookups());
    expect(unknown).toMatchObject({ status: 'validation', field: 'carrier' });
    expect(unknown.message).toMatch(/“ZZZZ” is not a carrier the Tracking API covers/);
    const unsupported = checkRow(draft({ number: '987654321', numberType: 'booking', carrier: 'ONEY' }), lookups());
    expect(unsupported).toMatchObject({ status: 'validation', field: 'carrier' });
    expect(unsupported.message).toBe('The Tracking API cannot track Ocean Network Express (ONEY) by booking number.');
  });

  it('reads the type cell, and refuses a word that names no type', () => {
    expect(checkRow(draft({ number: '987654321', numberType: 'BKG', carrier: 'MAEU' }), lookups()).requestType).toBe(
      'booking_number',
    );
    const odd = checkRow(draft({ number: '987654321', numberType: 'pallet', carrier: 'MAEU' }), lookups());
    expect(odd).toMatchObject({ status: 'validation', field: 'numberType' });
  });

  it('takes a valid container number as a container even under a "BL" header', () => {
    const row = checkRow(draft({ number: 'MSCU1234566', carrier: 'MSCU' }), lookups(), {}, 'bill_of_lading');
    expect(row.requestType).toBe('container');
    const bl = checkRow(draft({ number: 'MAEU123456789', carrier: 'MAEU' }), lookups(), {}, 'bill_of_lading');
    expect(bl.requestType).toBe('bill_of_lading');
  });

  it('waits for the service when the carrier, or the type of a non-container number, is missing', () => {
    expect(checkRow(draft({ number: 'MSCU1234566' }), lookups())).toMatchObject({ status: 'inferring', carrier: null });
    expect(checkRow(draft({ number: 'MAEU123456789', carrier: 'MAEU' }), lookups())).toMatchObject({
      status: 'inferring',
      requestType: null,
    });
  });

  it('takes the service’s answer, says the carrier came from it, and says when it could not tell', () => {
    const inferred = checkRow(draft({ number: 'MSCU1234566' }), lookups(), { inferredCarrier: 'MSCU' });
    expect(inferred).toMatchObject({ status: 'ready', carrier: 'MSCU', carrierInferred: true });
    expect(inferred.message).toBe('Carrier from the Tracking API: Mediterranean Shipping Company (MSCU).');
    const typed = checkRow(draft({ number: 'MAEU123456789', carrier: 'MAEU' }), lookups(), {
      inferredType: 'bill_of_lading',
      inferredCarrier: null,
    });
    expect(typed).toMatchObject({ status: 'ready', requestType: 'bill_of_lading', carrierInferred: false });
    const none = checkRow(draft({ number: 'MSCU1234566' }), lookups(), { inferredCarrier: null, inferredType: null });
    expect(none).toMatchObject({ status: 'validation', field: 'carrier' });
    expect(none.message).toMatch(/could not tell this number’s carrier/);
  });

  it('sends the carrier the forwarder picked among the service’s guesses', () => {
    const candidates = [
      { scac: 'MSCU', name: 'MSC', confidence: 0.5 },
      { scac: 'MAEU', name: 'Maersk', confidence: 0.5 },
    ];
    const unsure = checkRow(draft({ number: 'MSCU1234566' }), lookups(), {
      inferredCarrier: null,
      candidates,
      inferenceProblem: 'The Tracking API is not sure of the carrier.',
    });
    expect(unsure).toMatchObject({ status: 'validation', field: 'carrier', candidates });
    const picked = checkRow(draft({ number: 'MSCU1234566' }), lookups(), {
      inferredCarrier: null,
      candidates,
      inferenceProblem: 'The Tracking API is not sure of the carrier.',
      pickedCarrier: 'MAEU',
    });
    expect(picked).toMatchObject({ status: 'ready', carrier: 'MAEU', carrierInferred: false });
  });

  it('matches the customer by name and refuses one the account does not have', () => {
    expect(checkRow(draft({ number: 'MSCU1234566', carrier: 'MSCU', customer: 'ACME' }), lookups())).toMatchObject({
      status: 'ready',
      customerId: 'party-1',
    });
    const stranger = checkRow(draft({ number: 'MSCU1234566', carrier: 'MSCU', customer: 'Globex' }), lookups());
    expect(stranger).toMatchObject({ status: 'validation', field: 'customer' });
  });

  it('refuses references and tags the service would refuse', () => {
    const long = checkRow(draft({ number: 'MSCU1234566', carrier: 'MSCU', tags: ['x'.repeat(61)] }), lookups());
    expect(long).toMatchObject({ status: 'validation', field: 'tags' });
    const many = checkRow(
      draft({ number: 'MSCU1234566', carrier: 'MSCU', refNumbers: Array.from({ length: 21 }, (_, i) => `R${i}`) }),
      lookups(),
    );
    expect(many).toMatchObject({ status: 'validation', field: 'refNumbers' });
  });

  it('says a number the local copy already tracks is already tracked, and sends nothing for it', () => {
    const row = checkRow(
      draft({ number: 'MSCU1234566', carrier: 'MSCU' }),
      lookups({
        'container:MSCU1234566': { trackingRequestId: 'tr-1', shipmentId: 's-1', message: 'Already tracked: here.' },
      }),
    );
    expect(row).toMatchObject({
      status: 'already_tracked',
      trackingRequestId: 'tr-1',
      shipmentId: 's-1',
      message: 'Already tracked: here.',
    });
  });
});

describe('a file’s rows', () => {
  const mapping: ImportMapping = {
    hasHeader: true,
    fields: ['number', 'carrier', 'refNumbers', 'refNumbers', 'tags'],
    numberType: null,
  };

  it('are its data rows, numbered as the spreadsheet numbers them, blank rows skipped', () => {
    const drafts = draftRows(
      [
        ['Container', 'SCAC', 'Ref', 'PO', 'Tags'],
        ['MSCU1234566', 'MSCU', 'A1, A2', 'PO-9', 'hot; urgent'],
        ['', '', '', '', ''],
        ['MAEU1234567', 'MAEU'],
      ],
      mapping,
    );
    expect(drafts.map((d) => d.row)).toEqual([2, 4]);
    expect(drafts[0]).toMatchObject({ refNumbers: ['A1', 'A2', 'PO-9'], tags: ['hot', 'urgent'] });
    expect(drafts[1]).toMatchObject({ number: 'MAEU1234567', refNumbers: [], tags: [] });
  });

  it('leave out a number the file repeats, pointing at the first row that has it', () => {
    const drafts = draftRows([['Container'], ['MSCU1234566'], ['MAEU1234567'], ['mscu 1234566']], {
      hasHeader: true,
      fields: ['number'],
      numberType: null,
    });
    const repeats = repeatsOf(drafts);
    expect([...repeats]).toEqual([[4, 2]]);
    const row = asRepeat(checkRow(drafts[2]!, lookups(), {}, null), 2);
    expect(row).toMatchObject({
      status: 'validation',
      field: 'number',
      message: 'Row 2 has the same number; this row is left out.',
    });
  });
});
