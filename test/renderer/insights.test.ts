/**
 * The Insights view's helpers: slips and days read in the unit that reads best, the list behind a
 * bar names the group and the days asked (a month clipped to them), a group no filter can name
 * opens nothing, and only the newest request's answers land, the first table's before the rest.
 */
import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import InsightsDwellTable from '../../src/renderer/src/components/InsightsDwellTable.svelte';
import type { ArrivalGroup, DwellGroup, InsightsRequest, InsightsResult } from '../../src/shared/insights';
import {
  arrivalHref,
  dwellHref,
  insightsReader,
  monthSpan,
  slipText,
  spanOf,
} from '../../src/renderer/src/lib/insights';

const result = { from: '2026-01-10', to: '2026-03-20', customer: 'Acme', minimum: 5 } as InsightsResult;
const group = (over: Partial<ArrivalGroup>) =>
  ({ dimension: 'carrier', carrier: 'MAEU', pol: null, pod: null, month: null, ...over }) as ArrivalGroup;
const filtersOf = (href: string | null) =>
  JSON.parse(new URLSearchParams(href!.split('?')[1]).get('filters')!) as Record<string, unknown>;

describe('insights helpers', () => {
  it('writes a slip in hours under two days and in days from there, late positive', () => {
    expect(slipText(5.24)).toBe('+5.2 h');
    expect(slipText(-3)).toBe('−3 h');
    expect(slipText(0)).toBe('0 h');
    expect(slipText(81.6)).toBe('+3.4 d');
    expect(slipText(null)).toBe('–');
  });

  it('counts the presets as the lists do: last N days ends today, this year starts on January 1', () => {
    const now = Date.parse('2026-03-20T12:00:00Z');
    expect(spanOf('last30', now, 'UTC')).toEqual({ from: '2026-02-18', to: '2026-03-20' });
    expect(spanOf('thisYear', now, 'UTC')).toEqual({ from: '2026-01-01', to: '2026-03-20' });
  });

  it('opens the shipments of a carrier, a lane or both, arrived on the days asked, for the customer asked', () => {
    expect(filtersOf(arrivalHref(group({}), result))).toEqual({
      carriers: ['MAEU'],
      customers: ['Acme'],
      ataDays: { from: '2026-01-10', to: '2026-03-20' },
    });
    const lane = group({ dimension: 'carrier-lane', pol: 'CNSHA', pod: 'NLRTM', month: '2026-03' });
    expect(filtersOf(arrivalHref(lane, result))).toMatchObject({
      carriers: ['MAEU'],
      portsOfLading: ['CNSHA'],
      portsOfDischarge: ['NLRTM'],
      ataDays: { from: '2026-03-01', to: '2026-03-20' },
    });
    expect(arrivalHref(group({ dimension: 'lane', pol: 'CNSHA' }), result)).toBeNull();
    expect(arrivalHref(group({ carrier: null }), result)).toBeNull();
  });

  it('opens the containers of a terminal, and nothing for a rail terminal the list cannot filter by', () => {
    const terminal = { kind: 'terminal', key: 't1', month: '2026-01' } as DwellGroup;
    expect(filtersOf(dwellHref(terminal, result))).toEqual({
      terminals: ['t1'],
      customers: ['Acme'],
      ataDays: { from: '2026-01-10', to: '2026-01-31' },
    });
    expect(dwellHref({ ...terminal, kind: 'rail' }, result)).toBeNull();
    expect(monthSpan('2028-02', { from: null, to: null })).toEqual({ from: '2028-02-01', to: '2028-02-29' });
  });

  it('shows the first table alone, then every table with months; an older request never lands after a newer', async () => {
    const pending: { request: InsightsRequest; resolve: (r: InsightsResult) => void }[] = [];
    const shown: [string | undefined, boolean][] = [];
    const read = insightsReader(
      (request) => new Promise((resolve) => pending.push({ request, resolve })),
      (answer, complete) => shown.push([answer.from ?? undefined, complete]),
      () => {},
    );
    const answer = (from: string) => ({ from }) as InsightsResult;
    const older = read({ from: '2026-01-01' }, 'terminals');
    expect(pending[0]!.request).toEqual({ from: '2026-01-01', tables: ['terminals'], months: false });
    pending[0]!.resolve(answer('2026-01-01'));
    await Promise.resolve();
    await Promise.resolve();
    expect(shown).toEqual([['2026-01-01', false]]);
    expect(pending[1]!.request).toEqual({ from: '2026-01-01', months: true });
    const newer = read({ from: '2026-02-01' }, 'carriers');
    pending[2]!.resolve(answer('2026-02-01'));
    pending[1]!.resolve(answer('2026-01-01'));
    await older;
    await Promise.resolve();
    await Promise.resolve();
    pending[3]!.resolve(answer('2026-02-01'));
    await newer;
    expect(shown).toEqual([
      ['2026-01-01', false],
      ['2026-02-01', false],
      ['2026-02-01', true],
    ]);
  });
});

describe('the terminals table', () => {
  const spread = (count: number) => ({
    p50: count > 0 ? 2 : null,
    p90: count > 0 ? 4 : null,
    count,
    unknown: 5 - count,
  });
  const terminal = (key: string, known: number, rank: number | null, containers = 5): DwellGroup => ({
    kind: 'terminal',
    key,
    name: `Terminal ${key}`,
    month: null,
    containers,
    small: containers < 5,
    rank,
    dischargeToAvailable: spread(known),
    availableToPickedUp: spread(known),
    dischargeToPickedUp: spread(known),
    pickedUpToEmptyReturned: spread(known),
    pickedUpAfterLfd: { share: 0, count: known, unknown: 5 - known },
    cost: null,
  });

  it('says why a terminal is not ranked: too few boxes, or a figure known for too few of them', () => {
    render(InsightsDwellTable, {
      groups: [terminal('a', 5, 1), terminal('b', 1, null), terminal('c', 2, null, 2)],
      result,
      label: 'Terminals',
    });
    const row = (name: string) => screen.getByRole('rowheader', { name }).closest('tr')!;
    expect(row('Terminal a').textContent).not.toMatch(/not ranked/);
    expect(row('Terminal b').textContent).toContain('figure known for fewer than 5: not ranked');
    expect(row('Terminal c').textContent).toContain('fewer than 5: not ranked');
    expect(row('Terminal c').textContent).not.toContain('figure known');
  });
});
