/**
 * Periodic background sync: one run every interval, never two at once, and after failures a
 * growing pause (up to an hour) so an offline laptop or a refused key does not spin. A run the
 * service asked to hold off (a Retry-After too long to wait out in place) is not tried before
 * the instant it named.
 */
import { describeInstant } from '../api/errors';
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
  /** After a run, once the next one is scheduled: when it will start (ms since the epoch). */
  onNextRun?: (at: number) => void;
  timers?: SchedulerTimers;
  now?: () => number;
}

/**
 * What follows the sentence of a sync the service asked to hold off until `retryAt`: when the
 * schedule really tries again, `nextRunAt`, which is later than the service's instant when the
 * schedule's own pause (the interval, backed off after failures) is longer.
 */
export function nextAttemptSentence(retryAt: number, nextRunAt: number, now: number): string {
  const next = describeInstant(new Date(nextRunAt), new Date(now));
  return next === describeInstant(new Date(retryAt), new Date(now))
    ? 'Quayside will try again then.'
    : `Quayside will try again at ${next}.`;
}

export class SyncScheduler {
  readonly #o: SyncSchedulerOptions;
  readonly #timers: SchedulerTimers;
  #intervalMs: number;
  #handle: unknown = null;
  /** When the pending run starts (ms since the epoch), while one is pending. */
  #dueAt: number | null = null;
  /** No run before this instant (ms since the epoch): the service asked to wait until then. */
  #notBefore = 0;
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
    this.#dueAt = null;
  }

  get running(): boolean {
    return !this.#stopped;
  }

  /** A new interval applies from the next run on. */
  setInterval(ms: number): void {
    this.#intervalMs = ms;
    if (!this.#stopped && !this.#running) this.#schedule(ms);
  }

  /**
   * No run before `at` (ms since the epoch), whoever started the run the service refused: a run
   * due sooner is moved to `at`; one running now schedules its successor no sooner.
   */
  holdUntil(at: number): void {
    this.#notBefore = Math.max(this.#notBefore, at);
    if (this.#handle !== null && this.#dueAt !== null && this.#dueAt < at) this.#schedule(at - this.#now());
  }

  /** When the next run will start (ms since the epoch), or null when none is scheduled (stopped, or running). */
  get nextRunAt(): number | null {
    return this.#dueAt;
  }

  /** How long after a run ends the next one starts: the interval, backed off after failures, held as asked. */
  get nextDelayMs(): number {
    const backoff =
      this.#failures === 0
        ? this.#intervalMs
        : Math.min(this.#o.maxBackoffMs ?? 3_600_000, this.#intervalMs * 2 ** this.#failures);
    return Math.max(backoff, this.#notBefore - this.#now());
  }

  #now(): number {
    return this.#o.now?.() ?? Date.now();
  }

  #schedule(ms: number): void {
    if (this.#handle !== null) this.#timers.clearTimeout(this.#handle);
    const delay = Math.max(ms, this.#notBefore - this.#now());
    this.#dueAt = this.#now() + delay;
    this.#handle = this.#timers.setTimeout(() => {
      this.#handle = null;
      this.#dueAt = null;
      void this.#tick();
    }, delay);
  }

  async #tick(): Promise<void> {
    if (this.#stopped || this.#running) return;
    this.#running = true;
    try {
      const summary = await this.#o.run();
      if (summary.error?.retryAt) this.holdUntil(Date.parse(summary.error.retryAt));
      // Busy is another process syncing this database (the app beside a cron job): nothing went
      // wrong, so the schedule neither backs off nor forgets earlier failures.
      if (summary.error?.code !== 'busy') this.#failures = summary.status === 'failed' ? this.#failures + 1 : 0;
      this.#o.onResult?.(summary);
    } catch (error) {
      this.#failures++;
      this.#o.onError?.(error);
    } finally {
      this.#running = false;
      if (!this.#stopped) {
        this.#schedule(this.nextDelayMs);
        this.#o.onNextRun?.(this.#dueAt!);
      }
    }
  }
}
