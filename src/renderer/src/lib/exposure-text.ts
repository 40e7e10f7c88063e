/** Words for the demurrage and detention estimate, shared by its container, shipment and dashboard views. */
import {
  estimateExposure,
  formatMoney,
  hasRates,
  type ChargeEstimate,
  type DetentionEstimate,
  type ExposureEstimate,
  type Rates,
} from '../../../shared/exposure';
import type { ContainerRow } from '../../../shared/rows';
import { formatChartDay } from './format';

export { formatMoney, hasRates };

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A box's estimate; its terminal (and rail ramp) names, from the detail page when there is one. */
export function estimateOf(
  container: ContainerRow,
  rates: Rates,
  now: number,
  terminalNames: readonly (string | null | undefined)[] = [],
): ExposureEstimate {
  return estimateExposure(
    {
      status: container.status,
      carrierScac: container.carrierScac,
      terminals: [container.terminal, ...terminalNames].map((name) => name ?? null),
      lastFreeDay: container.lastFreeDay,
      zone: container.lfdTimezone ?? container.podTimezone,
      pickedUpAt: container.pickedUpAt,
      emptyReturnedAt: container.emptyReturnedAt,
    },
    rates,
    now,
  );
}

/**
 * Something to say: days past the last free day, or a box out since pickup (still out, or
 * returned after its free days). A box returned within its free time owes nothing: not shown.
 */
export function worthShowing(estimate: ExposureEstimate): boolean {
  const d = estimate.detention;
  return (estimate.demurrage?.days ?? 0) > 0 || (d !== null && (d.running || d.days > 0));
}

/** "Sat, Nov 14" for 2026-11-14 (the shared formatters' chart day). */
export const dayWords = formatChartDay;

/** "11 days past the last free day so far (Sat, Nov 14 – today), not picked up yet" */
export function demurrageWords(d: ChargeEstimate): string {
  const span = `${dayWords(d.from)} – ${d.running ? 'today' : dayWords(d.through)}`;
  return d.running
    ? `${plural(d.days, 'day')} past the last free day so far (${span}), not picked up yet`
    : `${plural(d.days, 'day')} past the last free day (${span}), until pickup`;
}

/** "Out 7 days since pickup (Mon, May 11 – today), 3 days past 4 free days" */
export function detentionWords(d: DetentionEstimate): string {
  const span = `${dayWords(d.from)} – ${d.running ? 'today' : dayWords(d.through)}`;
  const out = d.running
    ? `Out ${plural(d.daysOut, 'day')} since pickup (${span})`
    : `Out ${plural(d.daysOut, 'day')} until the empty was returned (${span})`;
  if (d.freeDays === null) return `${out}; no detention rate applies`;
  return d.days > 0
    ? `${out}, ${plural(d.days, 'day')} past ${plural(d.freeDays, 'free day')}`
    : `${out}, within ${plural(d.freeDays, 'free day')}`;
}

/** The shipment table's detention cell: "3 d", "day 2 of 4 free", or days out without a rate. */
export function detentionCell(d: DetentionEstimate | null): string {
  if (d === null) return '—';
  if (d.freeDays === null) return `${d.daysOut} d out`;
  if (d.days > 0) return `${d.days} d`;
  return d.running ? `day ${d.daysOut} of ${d.freeDays} free` : 'none';
}

/** "4 days × $150.00 + 3 days × $400.00 (MAEU rates)" */
export function breakdownWords(charge: ChargeEstimate, currency: string): string {
  if (charge.rate === null || charge.lines.length === 0) return '';
  const parts = charge.lines.map((line) => `${plural(line.days, 'day')} × ${formatMoney(line.perDay, currency)}`);
  return `${parts.join(' + ')} (${rateWords(charge.rate)})`;
}

export function rateWords(rate: { scope: string; match: string }): string {
  return rate.scope === 'default' ? 'default rates' : `${rate.match} rates`;
}
