/**
 * The rates form in Settings, and the estimate on the container page, the
 * shipment page and the dashboard, labelled as an estimate from the user's rates; days only
 * without rates.
 */
import { render, screen, waitFor, within } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import ContainerExposure from '../../src/renderer/src/components/ContainerExposure.svelte';
import ExposureTile from '../../src/renderer/src/components/ExposureTile.svelte';
import RatesSettings from '../../src/renderer/src/components/RatesSettings.svelte';
import ShipmentExposure from '../../src/renderer/src/components/ShipmentExposure.svelte';
import { app } from '../../src/renderer/src/lib/app-state.svelte';
import type { Rates } from '../../src/shared/exposure';
import type { ContainerRow } from '../../src/shared/rows';
import type { ContainerDetail, Settings, ShipmentDetail } from '../../src/shared/types';
import { bridge } from './bridge';
import { containerRow } from './container-row';

const noRates: Rates = { currency: 'USD', sets: [] };
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
  ],
};
const settings = (r: Rates): Settings => ({ theme: 'system', timeDisplay: 'local', syncIntervalMinutes: 15, rates: r });
/** Noon in Los Angeles on 22 May 2026: 12 days past a last free day of 10 May. */
const now = Date.parse('2026-05-22T12:00:00-07:00');

const row = (overrides: Partial<ContainerRow> = {}): ContainerRow =>
  containerRow({
    lastFreeDay: '2026-05-10',
    lfdDeadlineAt: '2026-05-11T07:00:00Z',
    lfdTimezone: 'America/Los_Angeles',
    lfdSource: 'terminal',
    ...overrides,
  });
const detailOf = (container: ContainerRow): ContainerDetail => ({
  container,
  milestones: [],
  emptyOut: null,
  delivered: null,
  facilityHolds: null,
  facilityFeesTotal: null,
  terminal: null,
  railCarriers: { pod: null, inland: null },
  railTerminal: null,
  location: null,
  eventsSyncedAt: null,
});

beforeEach(() => {
  app.settings = settings(noRates);
});

describe('the rates form', () => {
  it('enters default tiers and a carrier’s detention, saves them checked, and says so', async () => {
    const user = userEvent.setup();
    bridge.answer('filters:options', () => ({
      carriers: [{ value: 'MAEU', label: 'Maersk', count: 3 }],
      terminals: [],
      portsOfLading: [],
      portsOfDischarge: [],
      destinations: [],
      customers: [],
      tags: [],
      holdTypes: [],
      failedReasons: [],
    }));
    bridge.answer('settings:update', (patch) => settings(patch.rates!));
    render(RatesSettings);

    await user.click(screen.getByRole('button', { name: 'Add default rates' }));
    const defaults = screen.getByRole('group', { name: 'Default rates' });
    await user.type(within(defaults).getByLabelText('Demurrage, tier 1: USD per day'), '150');
    await user.click(within(defaults).getByRole('button', { name: 'Add a demurrage tier' }));
    const second = within(defaults).getByLabelText('Demurrage, tier 2: from day');
    expect((second as HTMLInputElement).value).toBe('6');
    await user.clear(second);
    await user.type(second, '5');
    await user.type(within(defaults).getByLabelText('Demurrage, tier 2: USD per day'), '250');
    // Detention left empty: the default set says nothing about it.
    await user.click(within(defaults).getByRole('button', { name: 'Remove detention tier 1' }));

    await user.click(screen.getByRole('button', { name: 'Add rates for a carrier' }));
    const carrier = screen.getByRole('group', { name: /^Carrier/ });
    await user.type(within(carrier).getByRole('combobox', { name: 'Carrier SCAC' }), 'maeu');
    expect(screen.getByRole('group', { name: 'Carrier MAEU' })).toBe(carrier);
    await user.click(within(carrier).getByRole('button', { name: 'Remove demurrage tier 1' }));
    await user.type(within(carrier).getByLabelText(/^Free days after pickup/), '4');
    await user.type(within(carrier).getByLabelText('Detention, tier 1: USD per day'), '1,000.50');

    await user.click(screen.getByRole('button', { name: 'Save rates' }));
    expect((await screen.findByRole('status')).textContent).toBe('Rates saved (2 sets).');
    expect(bridge.argsOf('settings:update')).toEqual([
      {
        rates: {
          currency: 'USD',
          sets: [
            {
              scope: 'default',
              match: '',
              demurrage: [
                { fromDay: 1, perDay: 150 },
                { fromDay: 5, perDay: 250 },
              ],
              detention: null,
            },
            {
              scope: 'carrier',
              match: 'MAEU',
              demurrage: [],
              detention: { freeDays: 4, tiers: [{ fromDay: 1, perDay: 1000.5 }] },
            },
          ],
        },
      },
    ]);
    expect(app.settings?.rates.sets).toHaveLength(2);
  });

  it('puts each problem under its field and saves nothing', async () => {
    const user = userEvent.setup();
    render(RatesSettings);
    await user.click(screen.getByRole('button', { name: 'Add rates for a carrier' }));
    const carrier = screen.getByRole('group', { name: /^Carrier/ });
    await user.type(within(carrier).getByRole('combobox', { name: 'Carrier SCAC' }), 'Maersk');
    await user.type(within(carrier).getByLabelText('Demurrage, tier 1: USD per day'), '-3');
    const currency = screen.getByRole('textbox', { name: 'Currency' });
    await user.clear(currency);
    await user.type(currency, 'US');
    await user.click(screen.getByRole('button', { name: 'Save rates' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Some rates need fixing; nothing was saved.');
    const described = (el: HTMLElement) => document.getElementById(el.getAttribute('aria-describedby')!)?.textContent;
    expect(described(currency)).toBe('A currency is its three-letter code, e.g. USD or EUR.');
    expect(described(within(carrier).getByRole('combobox', { name: 'Carrier SCAC' }))).toBe(
      'A carrier is its four-letter SCAC, e.g. MAEU.',
    );
    expect(described(within(carrier).getByLabelText('Demurrage, tier 1: US per day'))).toBe(
      'A rate cannot be negative.',
    );
    expect(described(within(carrier).getByLabelText(/^Free days after pickup/))).toBe('Enter the free days.');
    expect(bridge.argsOf('settings:update')).toEqual([]);
  });
});

describe('the estimate', () => {
  it('on the container page: days, the estimate with its tiers, labelled as one from the user’s rates', () => {
    app.settings = settings(rates);
    render(ContainerExposure, { detail: detailOf(row()), now });
    const section = screen.getByRole('region', { name: /Demurrage and detention/ });
    expect(within(section).getByText('estimate')).toBeTruthy();
    expect(section.textContent).toContain(
      '12 days past the last free day so far (Mon, May 11 – today), not picked up yet',
    );
    expect(within(section).getByText('Est. $3,050.00')).toBeTruthy();
    expect(section.textContent).toContain('4 days × $150.00 + 5 days × $250.00 + 3 days × $400.00 (default rates)');
    expect(within(section).getByRole('link', { name: 'your per-diem rates' }).getAttribute('href')).toBe('#/settings');
  });

  it('without rates, days only, and where to enter rates', () => {
    render(ContainerExposure, { detail: detailOf(row()), now });
    const section = screen.getByRole('region', { name: 'Demurrage and detention' });
    expect(section.textContent).toContain('12 days past the last free day so far');
    expect(section.textContent).not.toContain('$');
    expect(within(section).getByRole('link', { name: 'Enter your per-diem rates' }).getAttribute('href')).toBe(
      '#/settings',
    );
  });

  it('says nothing for a box within its free time', () => {
    app.settings = settings(rates);
    render(ContainerExposure, { detail: detailOf(row({ lastFreeDay: '2026-05-25' })), now });
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('on the shipment page: per box and in total', () => {
    app.settings = settings(rates);
    const out = row({ id: 'c2', number: 'MSCU7654321', status: 'picked_up', pickedUpAt: '2026-05-15T18:00:00Z' });
    const justOut = row({ id: 'c4', number: 'MSCU5555555', status: 'picked_up', pickedUpAt: '2026-05-21T18:00:00Z' });
    const returnedInTime = row({
      id: 'c5',
      status: 'empty_returned',
      pickedUpAt: '2026-05-09T18:00:00Z',
      emptyReturnedAt: '2026-05-11T18:00:00Z',
    });
    const shipment = {
      containers: [row(), out, row({ id: 'c3', lastFreeDay: null }), justOut, returnedInTime].map(detailOf),
    } as ShipmentDetail;
    render(ShipmentExposure, { detail: shipment, now });
    const section = screen.getByRole('region', { name: /Demurrage and detention/ });
    // 12 days waiting: $3,050; picked up on the 15th: 5 days, $850, and 8 days out, 4 past free: $400.
    expect(within(section).getByRole('heading').textContent).toMatch(/est\. \$6,950\.00 so far/);
    const rows = within(section).getAllByRole('row').slice(1);
    expect(rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent?.trim()))).toEqual([
      ['MSCU1234565', '12 d and counting', '—', '$3,050.00'],
      ['MSCU7654321', '5 d', '4 d', '$1,250.00'],
      // Picked up on the 21st, after 11 days past the last free day; 2 days out of 4 free.
      ['MSCU5555555', '11 d', 'day 2 of 4 free', '$2,650.00'],
    ]);
  });

  it('on the dashboard: the overdue boxes’ estimated demurrage, or their days without rates', async () => {
    const filters = { overdue: true };
    bridge.answer('containers:list', () => ({
      rows: [row(), row({ id: 'c2', lastFreeDay: '2026-05-20', carrierScac: 'MAEU' })],
      next: null,
    }));
    app.settings = settings(rates);
    const { unmount } = render(ExposureTile, { filters, now });
    const tile = await screen.findByTestId('exposure-tile');
    // 12 days: $3,050; 2 days: $300.
    expect(tile.textContent).toMatch(/\$3,350\s*Est\. demurrage, overdue boxes\s*estimate from your rates →/);
    expect(bridge.argsOf('containers:list')[0]).toMatchObject({ filters, page: { limit: 500 } });
    unmount();

    app.settings = settings(noRates);
    render(ExposureTile, { filters, now });
    await waitFor(() =>
      expect(screen.getByTestId('exposure-tile').textContent).toMatch(
        /^14\s*Days past last free day, overdue boxes\s*days only: no per-diem rates entered →$/,
      ),
    );
  });
});
