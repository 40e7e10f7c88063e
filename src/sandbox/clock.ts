/**
 * Simulated time. It starts at the real time (or a given instant), runs `tick` simulated
 * seconds per real second, and can be pushed forward by tests. Rate limiting uses real time,
 * never this clock.
 */
export class SimClock {
  readonly #startReal: number;
  readonly #startSim: number;
  readonly #tick: number;
  #offset = 0;
  readonly #realNow: () => number;

  constructor(options: { start?: number; tick?: number; realNow?: () => number } = {}) {
    this.#realNow = options.realNow ?? Date.now;
    this.#startReal = this.#realNow();
    this.#startSim = options.start ?? this.#startReal;
    this.#tick = options.tick ?? 1;
  }

  /** Simulated now, in epoch milliseconds. */
  now(): number {
    return this.#startSim + (this.#realNow() - this.#startReal) * this.#tick + this.#offset;
  }

  /** Moves simulated time forward by a number of seconds. */
  advance(seconds: number): void {
    if (!(seconds >= 0)) throw new Error('time only moves forward');
    this.#offset += seconds * 1000;
  }
}
