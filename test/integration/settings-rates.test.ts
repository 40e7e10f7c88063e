/**
 * Per-diem rates are a setting. `settings:update` keeps rates that pass the
 * shared schema (in settings.json, through a restart, announced to the windows) and refuses any
 * other, naming the field, with the file unchanged.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Rates } from '../../src/shared/exposure';
import type { Settings } from '../../src/shared/types';
import { failure, testCore, value } from '../helpers/core';

const rates: Rates = {
  currency: 'USD',
  sets: [
    {
      scope: 'default',
      match: '',
      demurrage: [
        { fromDay: 1, perDay: 150 },
        { fromDay: 5, perDay: 250 },
        { fromDay: 10, perDay: 400 },
      ],
      detention: { freeDays: 4, tiers: [{ fromDay: 1, perDay: 100 }] },
    },
    { scope: 'terminal', match: 'Pier 400', demurrage: [{ fromDay: 1, perDay: 300 }], detention: null },
  ],
};

describe('rates in the settings', () => {
  it('starts with none, keeps rates through a restart, and tells the windows', async () => {
    const { core, dataDir } = testCore();
    expect((await value<Settings>(core, 'settings:get')).rates).toEqual({ currency: 'USD', sets: [] });
    const announced: unknown[] = [];
    core.events.subscribe((event, payload) => {
      if (event === 'settings:changed') announced.push(payload);
    });
    const saved = await value<Settings>(core, 'settings:update', { rates });
    expect(saved.rates).toEqual(rates);
    expect(announced).toEqual([saved]);
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toMatchObject({ version: 5, rates });
    await core.close();

    const again = testCore({ dataDir });
    expect((await value<Settings>(again.core, 'settings:get')).rates).toEqual(rates);
    await again.core.close();
  });

  it('refuses rates that cannot be priced, naming the field, and changes nothing', async () => {
    const { core, dataDir } = testCore();
    await value(core, 'settings:update', { rates });
    const before = readFileSync(join(dataDir, 'settings.json'), 'utf8');
    const unordered = {
      ...rates,
      sets: [{ ...rates.sets[0]!, demurrage: [rates.sets[0]!.demurrage[1]!, rates.sets[0]!.demurrage[0]!] }],
    };
    const refused = await failure(core, 'settings:update', { rates: unordered });
    expect(refused).toMatchObject({ code: 'invalid_argument', fields: { rates: 'The first tier starts on day 1.' } });
    const carrierDetentionAtTerminal = {
      ...rates,
      sets: [{ ...rates.sets[1]!, detention: { freeDays: 4, tiers: [{ fromDay: 1, perDay: 90 }] } }],
    };
    expect((await failure(core, 'settings:update', { rates: carrierDetentionAtTerminal })).fields).toEqual({
      rates: 'Detention is the line’s: enter it for the carrier.',
    });
    expect(readFileSync(join(dataDir, 'settings.json'), 'utf8')).toBe(before);
    expect((await value<Settings>(core, 'settings:get')).rates).toEqual(rates);
    await core.close();
  });
});
