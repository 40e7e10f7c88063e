/**
 * How long the sandbox waits before each answer. `none` answers at once (tests, the bench); a
 * number waits that many milliseconds every time; `realistic` waits as the live service does,
 * tens to hundreds of milliseconds, with now and then a slow page of one to three seconds. Which
 * answer is slow and by how much follows the seed (the n-th answer of a sandbox always waits the
 * same), so a run is repeatable in what it meets, though not in wall time.
 */
import { Random } from './random';

export interface LatencyProfile {
  /** An ordinary answer waits between these, most of them near the low end. */
  minMs: number;
  maxMs: number;
  /** The share of answers that are slow pages (0–1). */
  slowRate: number;
  /** A slow page waits between these. */
  slowMinMs: number;
  slowMaxMs: number;
}

export type Latency = 'none' | 'realistic' | number | LatencyProfile;

/** The demo account's default: about 120 ms on average, one answer in 50 between 1 and 3 s. */
export const realisticLatency: LatencyProfile = {
  minMs: 30,
  maxMs: 300,
  slowRate: 1 / 50,
  slowMinMs: 1000,
  slowMaxMs: 3000,
};

/** Parses `none`, `realistic` or a whole number of milliseconds (the CLI's `--latency`). */
export function parseLatency(text: string): Latency {
  const value = text.trim().toLowerCase();
  if (value === 'none' || value === 'realistic') return value;
  if (/^\d+$/.test(value)) return Number(value);
  throw new Error(`latency must be none, realistic or a whole number of milliseconds, not "${text}"`);
}

function checkProfile(p: LatencyProfile): LatencyProfile {
  const ok =
    [p.minMs, p.maxMs, p.slowMinMs, p.slowMaxMs].every((v) => Number.isFinite(v) && v >= 0) &&
    p.minMs <= p.maxMs &&
    p.slowMinMs <= p.slowMaxMs &&
    p.slowRate >= 0 &&
    p.slowRate <= 1;
  if (!ok) throw new Error('a latency profile needs 0 ≤ minMs ≤ maxMs, 0 ≤ slowMinMs ≤ slowMaxMs and 0 ≤ slowRate ≤ 1');
  return p;
}

/** The delays of one sandbox's answers, in the order it answers. */
export class LatencyPlan {
  readonly #profile: LatencyProfile | null;
  readonly #random: Random;

  constructor(latency: Latency, seed: string) {
    this.#random = new Random(`${seed}:latency`);
    if (latency === 'none') this.#profile = null;
    else if (latency === 'realistic') this.#profile = realisticLatency;
    else if (typeof latency === 'number') {
      if (!Number.isFinite(latency) || latency < 0) throw new Error('latency must be a number of milliseconds ≥ 0');
      this.#profile = { minMs: latency, maxMs: latency, slowRate: 0, slowMinMs: 0, slowMaxMs: 0 };
    } else this.#profile = checkProfile(latency);
  }

  /** Milliseconds the next answer waits. Every answer draws the same count of numbers, slow or not. */
  next(): number {
    const p = this.#profile;
    if (p === null) return 0;
    const slow = this.#random.next() < p.slowRate;
    const u = this.#random.next();
    // Squared: most answers near the low end, a tail towards the high one.
    return Math.round(slow ? p.slowMinMs + (p.slowMaxMs - p.slowMinMs) * u : p.minMs + (p.maxMs - p.minMs) * u * u);
  }
}
