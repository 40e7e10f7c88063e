/**
 * Demurrage and detention exposure, estimated from the forwarder's rates. Days
 * are calendar days in the box's own zone; tiers; which rate applies; waiting, picked up, returned.
 */
import { describe, expect, it } from 'vitest';
import {
  estimateExposure,
  priceDays,
  rateFor,
  ratesSchema,
  type ExposureInput,
  type Rates,
  type RateSet,
} from '../../src/shared/exposure';
import { settingsSchema } from '../../src/shared/settings';

const tiered = [
  { fromDay: 1, perDay: 150 },
  { fromDay: 5, perDay: 250 },
  { fromDay: 10, perDay: 400 },
];
const defaults: RateSet = {
  scope: 'default',
  match: '',
  demurrage: tiered,
  detention: { freeDays: 4, tiers: [{ fromDay: 1, perDay: 100 }] },
};
const maersk: RateSet = {
  scope: 'carrier',
  match: 'MAEU',
  demurrage: [{ fromDay: 1, perDay: 200 }],
  detention: { freeDays: 7, tiers: [{ fromDay: 1, perDay: 125 }] },
};
const pier400: RateSet = {
  scope: 'terminal',
  match: 'Pier 400',
  demurrage: [{ fromDay: 1, perDay: 300 }],
  detention: null,
};
const rates: Rates = { currency: 'USD', sets: [defaults, maersk, pier400] };

const box = (overrides: Partial<ExposureInput> = {}): ExposureInput => ({
  status: 'available',
  carrierScac: 'CMDU',
  terminals: ['Fenix Marine'],
  lastFreeDay: '2026-05-10',
  zone: 'America/Los_Angeles',
  pickedUpAt: null,
  emptyReturnedAt: null,
  ...overrides,
});
/** An instant at a Los Angeles wall-clock time (PDT, UTC−7, in May). */
const la = (date: string, time = '12:00') => Date.parse(`${date}T${time}:00-07:00`);

describe('tiers', () => {
  it('price each chargeable day at the tier it falls in', () => {
    expect(priceDays(tiered, 0)).toEqual({ amount: 0, lines: [] });
    expect(priceDays(tiered, 4).amount).toBe(600);
    expect(priceDays(tiered, 5).amount).toBe(850);
    expect(priceDays(tiered, 12)).toEqual({
      amount: 4 * 150 + 5 * 250 + 3 * 400,
      lines: [
        { fromDay: 1, toDay: 4, days: 4, perDay: 150, amount: 600 },
        { fromDay: 5, toDay: 9, days: 5, perDay: 250, amount: 1250 },
        { fromDay: 10, toDay: 12, days: 3, perDay: 400, amount: 1200 },
      ],
    });
    expect(priceDays([{ fromDay: 1, perDay: 0.1 }], 3).amount).toBe(0.3);
  });
});

describe('demurrage', () => {
  it('counts from the day after the last free day to today while the box waits, in the box’s zone', () => {
    // The last free day itself costs nothing.
    expect(estimateExposure(box(), rates, la('2026-05-10', '23:59')).demurrage).toMatchObject({ days: 0, amount: 0 });
    // 00:30 on the 11th in Los Angeles is already 07:30 UTC: one day, by the box's calendar.
    expect(estimateExposure(box(), rates, la('2026-05-11', '00:30')).demurrage).toMatchObject({
      days: 1,
      running: true,
      amount: 150,
      rate: { scope: 'default', match: '' },
    });
    // 16:30 on the 10th in Los Angeles is the 11th in UTC: still free there.
    expect(estimateExposure(box({ zone: 'UTC' }), rates, la('2026-05-10', '18:00')).demurrage?.days).toBe(1);
    expect(estimateExposure(box(), rates, la('2026-05-10', '18:00')).demurrage?.days).toBe(0);
    expect(estimateExposure(box(), rates, la('2026-05-22')).demurrage).toMatchObject({ days: 12, amount: 3050 });
  });

  it('stops on the day the box is picked up, which counts', () => {
    const picked = box({ status: 'picked_up', pickedUpAt: '2026-05-13T15:00:00Z' });
    expect(estimateExposure(picked, rates, la('2026-06-30')).demurrage).toMatchObject({
      days: 3,
      from: '2026-05-11',
      through: '2026-05-13',
      running: false,
      amount: 450,
    });
    // Picked up before the last free day: none.
    const early = box({ status: 'picked_up', pickedUpAt: '2026-05-08T15:00:00Z' });
    expect(estimateExposure(early, rates, la('2026-06-30')).demurrage).toMatchObject({ days: 0, amount: 0 });
  });

  it('cannot be counted without a last free day, or for a box picked up on no known date', () => {
    expect(estimateExposure(box({ lastFreeDay: null }), rates, la('2026-05-20')).demurrage).toBeNull();
    const noDate = box({ status: 'picked_up', pickedUpAt: null });
    expect(estimateExposure(noDate, rates, la('2026-05-20')).demurrage).toBeNull();
    expect(estimateExposure(noDate, rates, la('2026-05-20')).detention).toBeNull();
  });

  it('uses the terminal’s rates, else the carrier’s, else the default', () => {
    const at = la('2026-05-12');
    expect(estimateExposure(box({ terminals: ['PIER 400 '], carrierScac: 'MAEU' }), rates, at).demurrage).toMatchObject(
      { amount: 600, rate: { scope: 'terminal', match: 'Pier 400' } },
    );
    expect(estimateExposure(box({ carrierScac: 'MAEU' }), rates, at).demurrage).toMatchObject({
      amount: 400,
      rate: { scope: 'carrier', match: 'MAEU' },
    });
    expect(estimateExposure(box({ carrierScac: null, terminals: [] }), rates, at).demurrage?.amount).toBe(300);
    // A rail box: the ramp's name is among its terminals.
    expect(rateFor(rates, 'demurrage', box({ terminals: ['Fenix Marine', 'Pier 400'] }))?.match).toBe('Pier 400');
  });

  it('shows the days and no amount when no rate applies', () => {
    const onlyMaersk: Rates = { currency: 'EUR', sets: [maersk] };
    expect(estimateExposure(box(), onlyMaersk, la('2026-05-13'))).toEqual({
      currency: 'EUR',
      demurrage: {
        days: 3,
        from: '2026-05-11',
        through: '2026-05-13',
        running: true,
        rate: null,
        amount: null,
        lines: [],
      },
      detention: null,
      total: null,
    });
  });
});

describe('detention', () => {
  const out = box({ status: 'picked_up', lastFreeDay: '2026-05-20', pickedUpAt: '2026-05-11T17:00:00Z' });

  it('counts from pickup (day 1) to today past the line’s free days', () => {
    expect(estimateExposure(out, rates, la('2026-05-14')).detention).toMatchObject({
      daysOut: 4,
      freeDays: 4,
      days: 0,
      amount: 0,
      running: true,
    });
    expect(estimateExposure(out, rates, la('2026-05-17')).detention).toMatchObject({
      daysOut: 7,
      days: 3,
      amount: 300,
    });
    // The carrier's free days and rate, not the default's.
    expect(estimateExposure({ ...out, carrierScac: 'MAEU' }, rates, la('2026-05-20')).detention).toMatchObject({
      daysOut: 10,
      freeDays: 7,
      days: 3,
      amount: 375,
      rate: { scope: 'carrier', match: 'MAEU' },
    });
  });

  it('stops on the day the empty is returned, which counts; the total adds both charges', () => {
    const returned = {
      ...out,
      status: 'empty_returned' as const,
      lastFreeDay: '2026-05-09',
      emptyReturnedAt: '2026-05-18T20:00:00Z',
    };
    const estimate = estimateExposure(returned, rates, la('2026-07-01'));
    expect(estimate.detention).toMatchObject({ daysOut: 8, days: 4, amount: 400, running: false });
    expect(estimate.demurrage).toMatchObject({ days: 2, amount: 300, running: false });
    expect(estimate.total).toBe(700);
  });

  it('without a detention rate, says the days out and no amount', () => {
    const demurrageOnly: Rates = { currency: 'USD', sets: [pier400] };
    expect(estimateExposure(out, demurrageOnly, la('2026-05-17')).detention).toEqual({
      from: '2026-05-11',
      through: '2026-05-17',
      daysOut: 7,
      freeDays: null,
      days: 0,
      running: true,
      rate: null,
      amount: null,
      lines: [],
    });
  });
});

describe('the rates schema', () => {
  it('accepts rates as entered and refuses what cannot be priced, field by field', () => {
    expect(ratesSchema.safeParse(rates).success).toBe(true);
    const refused = ratesSchema.safeParse({
      currency: 'usd',
      sets: [
        { ...defaults, demurrage: [{ fromDay: 2, perDay: 150 }] },
        { ...maersk, match: 'Maersk' },
        { ...pier400, detention: { freeDays: 3, tiers: [{ fromDay: 1, perDay: 1 }] } },
        { ...defaults, demurrage: [tiered[0], { fromDay: 1, perDay: -5 }] },
      ],
    });
    expect(refused.success).toBe(false);
    const messages = Object.fromEntries(refused.error!.issues.map((i) => [i.path.join('.'), i.message]));
    expect(messages).toEqual({
      currency: 'A currency is its three-letter code, e.g. USD or EUR.',
      'sets.0.demurrage.0.fromDay': 'The first tier starts on day 1.',
      'sets.1.match': 'A carrier is its four-letter SCAC, e.g. MAEU.',
      'sets.2.detention': 'Detention is the line’s: enter it for the carrier.',
      'sets.3.demurrage.1.perDay': 'A rate cannot be negative.',
      'sets.3.demurrage.1.fromDay': 'This tier must start after day 1, where the one before starts.',
      'sets.3.match': 'There are already default rates.',
    });
  });

  it('refuses a second default set, and is part of the settings with no rates by default', () => {
    expect(ratesSchema.safeParse({ currency: 'USD', sets: [defaults, defaults] }).error?.issues[0]?.message).toBe(
      'There are already default rates.',
    );
    expect(settingsSchema.shape.rates.parse({ currency: 'USD', sets: [] })).toEqual({ currency: 'USD', sets: [] });
  });
});
