/**
 * Periodic background sync: one run every interval, never two at once, and after failures a
 * growing pause (up to an hour) so an offline laptop or a refused key does not spin.
 */
import type { SyncSummary } from './types';

export interface SchedulerTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface SyncSchedulerOptions {
  run: () => Promise<SyncSummary>;
  intervalMs: number;
  maxBackoffMs?: number;
  onResult?: (summary: SyncSummary) => void;
  onError?: (error: unknown) => void;
  timers?: SchedulerTimers;
}

export class SyncScheduler {
  readonly #o: SyncSchedulerOptions;
  readonly #timers: SchedulerTimers;
  #intervalMs: number;
  #handle: unknown = null;
  #running = false;
  #failures = 0;
  #stopped = true;

  constructor(options: SyncSchedulerOptions) {
    this.#o = options;
    this.#intervalMs = options.intervalMs;
    this.#timers = options.timers ?? {
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
    };
  }

  /** Starts the schedule; the first run is `firstInMs` from now (default: one interval). */
  start(firstInMs = this.#intervalMs): void {
    this.#stopped = false;
    this.#schedule(firstInMs);
  }

  stop(): void {
    this.#stopped = true;
    if (this.#handle !== null) this.#timers.clearTimeout(this.#handle);
    this.#handle = null;
  }

  get running(): boolean {
    return !this.#stopped;
  }

  /** A new interval applies from the next run on. */
  setInterval(ms: number): void {
    this.#intervalMs = ms;
    if (!this.#stopped && !this.#running) this.#schedule(ms);
  }

  /** When the next run is due, for "next sync in N minutes". */
  get nextDelayMs(): number {
    if (this.#failures === 0) return this.#intervalMs;
    return Math.min(this.#o.maxBackoffMs ?? 3_600_000, this.#intervalMs * 2 ** this.#failures);
  }

  #schedule(ms: number): void {
    if (this.#handle !== null) this.#timers.clearTimeout(this.#handle);
    this.#handle = this.#timers.setTimeout(() => {
      this.#handle = null;
      void this.#tick();
    }, ms);
  }

  async #tick(): Promise<void> {
    if (this.#stopped || this.#running) return;
    this.#running = true;
    try {
      const summary = await this.#o.run();
      // Busy is another process syncing this database (the app beside a cron job): nothing went
      // wrong, so the schedule neither backs off nor forgets earlier failures.
      if (summary.error?.code !== 'busy') this.#failures = summary.status === 'failed' ? this.#failures + 1 : 0;
      this.#o.onResult?.(summary);
    } catch (error) {
      this.#failures++;
      this.#o.onError?.(error);
    } finally {
      this.#running = false;
      if (!this.#stopped) this.#schedule(this.nextDelayMs);
    }
  }
}
