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

/** Something to say: days past the last free day, or a box out since pickup. */
export function worthShowing(estimate: ExposureEstimate): boolean {
  return (estimate.demurrage?.days ?? 0) > 0 || estimate.detention !== null;
}

export function demurrageWords(d: ChargeEstimate): string {
  const days = plural(d.days, 'day');
  return d.running
    ? `${days} past the last free day, not picked up yet`
    : `${days} past the last free day until pickup`;
}

export function detentionWords(d: DetentionEstimate): string {
  const out = d.running
    ? `Out ${plural(d.daysOut, 'day')} since pickup`
    : `Out ${plural(d.daysOut, 'day')} until the empty was returned`;
  if (d.freeDays === null) return `${out}; no detention rate applies`;
  return d.days > 0
    ? `${out}, ${plural(d.days, 'day')} past ${plural(d.freeDays, 'free day')}`
    : `${out}, within ${plural(d.freeDays, 'free day')}`;
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
