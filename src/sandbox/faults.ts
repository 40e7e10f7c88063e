/** Injected failures: server errors, dropped connections, hangs and broken bodies. */
import { Random } from './random';

export const faultKinds = ['500', '502', '503', 'reset', 'timeout', 'malformed'] as const;
export type FaultKind = (typeof faultKinds)[number];
export type FaultRates = Partial<Record<FaultKind, number>>;

/** Parses "500=0.05,reset=0.01,malformed=2%" into rates between 0 and 1. */
export function parseFaults(spec: string): FaultRates {
  const rates: FaultRates = {};
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^([a-z0-9]+)\s*=\s*(\d+(?:\.\d+)?)(%?)$/.exec(part);
    if (!match || !(faultKinds as readonly string[]).includes(match[1]!)) {
      throw new Error(`fault "${part}" must be KIND=RATE with KIND one of ${faultKinds.join(', ')}`);
    }
    const rate = Number(match[2]) / (match[3] ? 100 : 1);
    if (rate > 1) throw new Error(`fault rate for ${match[1]} must be at most 1 (or 100%)`);
    rates[match[1] as FaultKind] = rate;
  }
  return rates;
}

export class FaultInjector {
  #rates: FaultRates;
  readonly #random: Random;
  readonly #queue: FaultKind[] = [];
  /**
   * Paths (after /v2, e.g. "/custom_fields") that fail every time, whatever else is asked; a key
   * may name the method too ("GET /custom_fields": the list fails, writes to the path are served).
   */
  readonly #failing = new Map<string, FaultKind>();

  constructor(rates: FaultRates, seed: string) {
    this.#rates = rates;
    this.#random = new Random(`${seed}:faults`);
  }

  setRates(rates: FaultRates): void {
    this.#rates = rates;
  }

  /** The next `count` requests fail this way, whatever the rates say. */
  enqueue(kind: FaultKind, count = 1): void {
    for (let i = 0; i < count; i++) this.#queue.push(kind);
  }

  /**
   * Every request for exactly this path (after /v2), or with a method first ("GET /custom_fields")
   * every such request, fails this way until told otherwise (`null`).
   */
  failPath(path: string, kind: FaultKind | null): void {
    if (kind === null) this.#failing.delete(path);
    else this.#failing.set(path, kind);
  }

  next(pathname?: string, method?: string): FaultKind | null {
    const path = pathname?.replace(/^\/v2/, '').replace(/\/$/, '');
    const failing =
      path === undefined
        ? undefined
        : ((method === undefined ? undefined : this.#failing.get(`${method} ${path}`)) ?? this.#failing.get(path));
    if (failing) return failing;
    const queued = this.#queue.shift();
    if (queued) return queued;
    let roll = this.#random.next();
    for (const kind of faultKinds) {
      const rate = this.#rates[kind] ?? 0;
      if (roll < rate) return kind;
      roll -= rate;
    }
    return null;
  }
}
