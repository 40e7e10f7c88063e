/**
 * Demurrage and detention exposure: an estimate from the per-diem rates the forwarder entered in
 * Settings, never a bill. Pure (no clock of its own, no I/O), shared by core and the renderer.
 *
 * - **Demurrage**: the days a box sits at the terminal (or rail ramp) past its last free day and
 *   is not picked up. Chargeable day 1 is the day after the last free day; the day it is picked
 *   up counts; while it waits, today counts (so far).
 * - **Detention**: the days from pickup (full out) until the empty is returned. The pickup day is
 *   day 1 and the return day counts; past the line's free days (entered with the rate), each day
 *   is chargeable. While out, today counts.
 * - Days are calendar days in the box's own zone (the zone of its last free day, as
 *   `src/core/derive/container.ts` derives it; else the port's; else UTC), as `daysLeft` counts.
 * - **Tiers**: day n of chargeable time costs the rate of the tier with the highest `fromDay` ≤ n
 *   (days 1–4 at 150, 5–9 at 250, 10+ at 400 is `[{1,150},{5,250},{10,400}]`).
 * - **Which rate**: demurrage is the terminal's (or ramp's) charge: a rate set for one of the
 *   box's terminals, else for its carrier (SCAC), else the default set. Detention is the line's:
 *   the carrier's set, else the default. A set without tiers for a charge does not apply to it.
 *   With no set that applies, the days are shown and the amount is null.
 */
import { z } from 'zod';
import { isTimeZone } from './date-formatters';
import type { ContainerStatus } from './status';
import { localDate } from './zoned-time';

export type RateScope = 'default' | 'carrier' | 'terminal';

export interface RateTier {
  /** The first chargeable day this rate applies from (1-based). */
  fromDay: number;
  perDay: number;
}

export interface RateSet {
  scope: RateScope;
  /** '' for the default set; the SCAC for a carrier; the terminal's (or ramp's) name for a terminal. */
  match: string;
  /** Per day past the last free day; empty when this set does not say. */
  demurrage: RateTier[];
  /** The line's free days after pickup and its per-diem after them; null when this set does not say (always for a terminal). */
  detention: { freeDays: number; tiers: RateTier[] } | null;
}

export interface Rates {
  /** ISO 4217, e.g. USD. */
  currency: string;
  sets: RateSet[];
}

export const defaultRates: Rates = { currency: 'USD', sets: [] };

const maxPerDay = 100_000;
const tierSchema = z
  .object({
    fromDay: z.number().int('A tier starts on a whole day.').min(1, 'A tier starts on day 1 or later.').max(365),
    perDay: z
      .number({ error: 'Enter a rate per day.' })
      .min(0, 'A rate cannot be negative.')
      .max(maxPerDay, `A rate per day is at most ${maxPerDay.toLocaleString('en-US')}.`)
      .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, { message: 'A rate has at most two decimals.' }),
  })
  .strict();

/** Tiers start on day 1 and each starts later than the one before. */
const tiersSchema = z
  .array(tierSchema)
  .max(10, 'At most 10 tiers.')
  .superRefine((tiers, ctx) => {
    if (tiers.length > 0 && tiers[0]!.fromDay !== 1) {
      ctx.addIssue({ code: 'custom', path: [0, 'fromDay'], message: 'The first tier starts on day 1.' });
    }
    tiers.forEach((tier, i) => {
      if (i > 0 && tier.fromDay <= tiers[i - 1]!.fromDay) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'fromDay'],
          message: `This tier must start after day ${tiers[i - 1]!.fromDay}, where the one before starts.`,
        });
      }
    });
  });

export const rateSetSchema = z
  .object({
    scope: z.enum(['default', 'carrier', 'terminal']),
    match: z.string().max(100, 'At most 100 characters.'),
    demurrage: tiersSchema,
    detention: z
      .object({
        freeDays: z
          .number({ error: 'Enter the free days.' })
          .int('Free days are whole days.')
          .min(0, 'Free days cannot be negative.')
          .max(90, 'At most 90 free days.'),
        tiers: tiersSchema.min(1, 'Enter a rate per day for detention.'),
      })
      .strict()
      .nullable(),
  })
  .strict()
  // Run also when a tier is refused, so every problem of a form shows at once; the value may then
  // be partly malformed, hence the guards.
  .superRefine(
    (set, ctx) => {
      if (typeof set !== 'object' || set === null || typeof set.match !== 'string') return;
      if (set.scope === 'default' && set.match !== '') {
        ctx.addIssue({ code: 'custom', path: ['match'], message: 'The default rates apply to every box.' });
      }
      if (set.scope === 'carrier' && !/^[A-Z]{4}$/.test(set.match)) {
        ctx.addIssue({ code: 'custom', path: ['match'], message: 'A carrier is its four-letter SCAC, e.g. MAEU.' });
      }
      if (set.scope === 'terminal' && set.match.trim() === '') {
        ctx.addIssue({ code: 'custom', path: ['match'], message: 'Name the terminal or rail ramp.' });
      }
      if (set.scope === 'terminal' && set.detention !== null) {
        ctx.addIssue({
          code: 'custom',
          path: ['detention'],
          message: 'Detention is the line’s: enter it for the carrier.',
        });
      }
      if (Array.isArray(set.demurrage) && set.demurrage.length === 0 && set.detention === null) {
        ctx.addIssue({ code: 'custom', path: ['demurrage'], message: 'Enter a demurrage or a detention rate.' });
      }
    },
    { when: () => true },
  );

export const ratesSchema = z
  .object({
    currency: z.string().regex(/^[A-Z]{3}$/, 'A currency is its three-letter code, e.g. USD or EUR.'),
    sets: z.array(rateSetSchema).max(200, 'At most 200 rate sets.'),
  })
  .strict()
  .superRefine((rates, ctx) => {
    const seen = new Set<string>();
    rates.sets.forEach((set, i) => {
      if (typeof set?.match !== 'string') return;
      const key = `${set.scope}:${normalName(set.match)}`;
      if (seen.has(key)) {
        const what = set.scope === 'default' ? 'There are already default rates.' : `${set.match} has rates already.`;
        ctx.addIssue({ code: 'custom', path: ['sets', i, 'match'], message: what });
      }
      seen.add(key);
    });
  }) satisfies z.ZodType<Rates>;

const normalName = (name: string): string => name.trim().replace(/\s+/g, ' ').toLowerCase();

/** What the estimate needs of a container (a ContainerRow has it all). */
export interface ExposureInput {
  status: ContainerStatus;
  carrierScac: string | null;
  /** The names the box's terminal and rail ramp go by; the first with rates wins. */
  terminals: readonly (string | null)[];
  lastFreeDay: string | null;
  /** The last free day's zone (lfdTimezone), else the port's. */
  zone: string | null;
  pickedUpAt: string | null;
  emptyReturnedAt: string | null;
}

export interface ChargeLine {
  fromDay: number;
  toDay: number;
  days: number;
  perDay: number;
  amount: number;
}

export interface ChargeEstimate {
  /** Chargeable days so far (past the last free day, or past the free days after pickup). */
  days: number;
  /** Still counting: today is one of the days. */
  running: boolean;
  /**
   * The calendar days counted, YYYY-MM-DD: demurrage from the day after the last free day,
   * detention from the pickup day; through the pickup (return) day, or today while running.
   */
  from: string;
  through: string;
  /** The set whose rates were used; null when none applies (days only). */
  rate: { scope: RateScope; match: string } | null;
  /** Null when no rate applies. */
  amount: number | null;
  lines: ChargeLine[];
}

export interface DetentionEstimate extends ChargeEstimate {
  /** Days out since pickup (the pickup day is day 1). */
  daysOut: number;
  /** The line's free days from the rate used; null when no rate applies (then `days` is 0). */
  freeDays: number | null;
}

export interface ExposureEstimate {
  currency: string;
  /** Null when it cannot be counted: no last free day, or picked up without a date. */
  demurrage: ChargeEstimate | null;
  /** Null until the box is picked up (with a date). */
  detention: DetentionEstimate | null;
  /** The sum of the amounts there are; null when there is none. */
  total: number | null;
}

const dayMs = 86_400_000;

/** Whole calendar days from date `a` to date `b` (YYYY-MM-DD). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / dayMs);
}

function dayOf(instant: string | null, zone: string): string | null {
  if (instant === null) return null;
  const parsed = Date.parse(instant);
  return Number.isNaN(parsed) ? null : localDate(parsed, zone);
}

/** A calendar date `days` later. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);
}

/** The cost of `days` chargeable days on these tiers, tier by tier. */
export function priceDays(tiers: readonly RateTier[], days: number): { amount: number; lines: ChargeLine[] } {
  const lines: ChargeLine[] = [];
  tiers.forEach((tier, i) => {
    const last = i + 1 < tiers.length ? tiers[i + 1]!.fromDay - 1 : Infinity;
    const toDay = Math.min(days, last);
    if (toDay < tier.fromDay) return;
    const count = toDay - tier.fromDay + 1;
    lines.push({ fromDay: tier.fromDay, toDay, days: count, perDay: tier.perDay, amount: count * tier.perDay });
  });
  // Cents, added as cents: 0.1 + 0.2 stays 0.3.
  const amount = Math.round(lines.reduce((sum, line) => sum + Math.round(line.amount * 100), 0)) / 100;
  return { amount, lines };
}

/** The rate set that applies to a charge, most specific first; null when none does. */
export function rateFor(rates: Rates, charge: 'demurrage' | 'detention', input: ExposureInput): RateSet | null {
  const has = (set: RateSet) => (charge === 'demurrage' ? set.demurrage.length > 0 : set.detention !== null);
  const sets = rates.sets.filter(has);
  if (charge === 'demurrage') {
    for (const name of input.terminals) {
      if (!name) continue;
      const found = sets.find((s) => s.scope === 'terminal' && normalName(s.match) === normalName(name));
      if (found) return found;
    }
  }
  const scac = input.carrierScac?.trim().toUpperCase();
  return (
    (scac ? sets.find((s) => s.scope === 'carrier' && s.match === scac) : undefined) ??
    sets.find((s) => s.scope === 'default') ??
    null
  );
}

const pickedUpStatuses: ReadonlySet<ContainerStatus> = new Set(['picked_up', 'empty_returned']);

/** The estimate for one box at `now` (epoch ms). */
export function estimateExposure(input: ExposureInput, rates: Rates, now: number): ExposureEstimate {
  const zone = isTimeZone(input.zone) ? input.zone : 'UTC';
  const today = localDate(now, zone);
  const pickedUp = dayOf(input.pickedUpAt, zone);
  const returned = dayOf(input.emptyReturnedAt, zone);
  const gone = pickedUpStatuses.has(input.status) || pickedUp !== null;

  let demurrage: ChargeEstimate | null = null;
  if (input.lastFreeDay !== null && (!gone || pickedUp !== null)) {
    const end = pickedUp ?? today;
    const days = Math.max(0, daysBetween(input.lastFreeDay, end));
    const set = rateFor(rates, 'demurrage', input);
    const priced = set ? priceDays(set.demurrage, days) : null;
    demurrage = {
      days,
      from: addDays(input.lastFreeDay, 1),
      through: end,
      running: pickedUp === null && days > 0,
      rate: set ? { scope: set.scope, match: set.match } : null,
      amount: priced?.amount ?? null,
      lines: priced?.lines ?? [],
    };
  }

  let detention: DetentionEstimate | null = null;
  if (pickedUp !== null) {
    const end = returned ?? today;
    const daysOut = Math.max(1, daysBetween(pickedUp, end) + 1);
    const set = rateFor(rates, 'detention', input);
    const freeDays = set?.detention?.freeDays ?? null;
    const days = freeDays === null ? 0 : Math.max(0, daysOut - freeDays);
    const priced = set?.detention ? priceDays(set.detention.tiers, days) : null;
    detention = {
      days,
      from: pickedUp,
      through: end,
      daysOut,
      freeDays,
      running: returned === null,
      rate: set ? { scope: set.scope, match: set.match } : null,
      amount: priced?.amount ?? null,
      lines: priced?.lines ?? [],
    };
  }

  const amounts = [demurrage?.amount, detention?.amount].filter((a): a is number => typeof a === 'number');
  return {
    currency: rates.currency,
    demurrage,
    detention,
    total: amounts.length === 0 ? null : Math.round(amounts.reduce((s, a) => s + a * 100, 0)) / 100,
  };
}

/** True when the forwarder has entered any rate. */
export function hasRates(rates: Rates | null | undefined): rates is Rates {
  return !!rates && rates.sets.length > 0;
}

/** "$1,250.00": an amount in the rates' currency. */
export function formatMoney(
  amount: number,
  currency: string,
  options: { whole?: boolean; locale?: string } = {},
): string {
  try {
    return new Intl.NumberFormat(options.locale, {
      style: 'currency',
      currency,
      ...(options.whole ? { maximumFractionDigits: 0, minimumFractionDigits: 0 } : {}),
    }).format(amount);
  } catch {
    return `${currency} ${amount.toFixed(2)}`;
  }
}
