/**
 * The client's side of the service's rate limits: one bucket per limit the service keeps for a key
 * (`shared/rate-buckets.ts`: overall, creating tracking requests, inferring numbers, refreshing
 * containers), each at most `limit` request starts in any rolling window, user actions served
 * before background sync within it. A request waits, and a 429 pauses, in its own bucket only, so
 * a bulk import never holds up the sync nor the reverse. Staying under the limits ourselves is
 * what keeps the service from answering 429.
 */
import { createHash } from 'node:crypto';
import { liveRateLimits, rateBuckets, type RateBucket, type SpecialRateBucket } from '../../shared/rate-buckets';

export type Priority = 'user' | 'background';

/** The longest pause one 429 can put on the bucket: user actions never wait longer for a slot. */
export const MAX_PAUSE_MS = 120_000;

export interface BucketOptions {
  limit?: number;
  windowMs?: number;
  now?: () => number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** Defaults to MAX_PAUSE_MS. */
  maxPauseMs?: number;
}

export interface RateLimiterOptions extends BucketOptions {
  /** The buckets counted apart from the overall one (`limit`, `windowMs`); default: the live service's. */
  buckets?: Partial<Record<SpecialRateBucket, { limit: number; windowMs: number }>>;
}

export interface RateLimiterSnapshot {
  limit: number;
  windowMs: number;
  /** Slots taken in the window ending now, including requests still in flight. */
  usedInWindow: number;
  /** Requests that could start now (0 while paused). */
  available: number;
  queued: { user: number; background: number };
  pausedUntil: number | null;
  /** Earliest instant a request could start; a lower bound while every slot is in flight. */
  nextSlotAt: number;
}

interface Slot {
  /** When its request ended; null while in flight. */
  endedAt: number | null;
}

interface Waiter {
  hold: boolean;
  resolve: (slot: Slot) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/** One bucket: its own rolling window, queues, pause and timer. */
export class RateLimitBucket {
  readonly limit: number;
  readonly windowMs: number;
  readonly #now: () => number;
  readonly #setTimer: (callback: () => void, ms: number) => unknown;
  readonly #clearTimer: (handle: unknown) => void;
  readonly #maxPauseMs: number;
  #slots: Slot[] = [];
  readonly #queues: Record<Priority, Waiter[]> = { user: [], background: [] };
  #pausedUntil = -Infinity;
  #timer: unknown = null;

  constructor(options: BucketOptions = {}) {
    this.limit = options.limit ?? 100;
    this.windowMs = options.windowMs ?? 60_000;
    if (!Number.isInteger(this.limit) || this.limit < 1 || !(this.windowMs > 0)) {
      throw new Error('A rate limit needs a whole number of requests ≥ 1 and a window > 0 ms');
    }
    this.#now = options.now ?? Date.now;
    this.#setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
    this.#clearTimer = options.clearTimer ?? ((handle) => clearTimeout(handle as NodeJS.Timeout));
    this.#maxPauseMs = options.maxPauseMs ?? MAX_PAUSE_MS;
  }

  /** Resolves when a request may start; its slot counts from now for one window. */
  async acquire(priority: Priority, signal?: AbortSignal): Promise<void> {
    await this.#take(priority, signal, false);
  }

  /**
   * Runs `task` in a slot that counts until the service has answered and one window after. The
   * service counts a request when it arrives, anywhere between our start and its answer; holding
   * the slot until the answer keeps a slow request from letting the next window start early on
   * our side. The task calls `answered()` when the response headers are in (the body and its
   * parsing need not hold the slot); if it never does, the slot ends when the task settles.
   */
  async runInSlot<T>(priority: Priority, task: (answered: () => void) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const slot = await this.#take(priority, signal, true);
    const answered = () => {
      if (slot.endedAt !== null) return;
      slot.endedAt = this.#now();
      this.#pump();
    };
    try {
      return await task(answered);
    } finally {
      answered();
    }
  }

  /**
   * After a 429 nothing starts until the service's Retry-After has passed, up to `maxPauseMs`:
   * a longer wait is the caller's to give up on, not the whole bucket's to sit out.
   */
  pauseFor(ms: number): void {
    const pause = Number.isNaN(ms) ? this.#maxPauseMs : Math.min(this.#maxPauseMs, Math.max(0, ms));
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#now() + pause);
    this.#pump();
  }

  snapshot(now = this.#now()): RateLimiterSnapshot {
    const used = this.#countUsed(now);
    const paused = now < this.#pausedUntil;
    return {
      limit: this.limit,
      windowMs: this.windowMs,
      usedInWindow: used,
      available: paused ? 0 : Math.max(0, this.limit - used),
      queued: { user: this.#queues.user.length, background: this.#queues.background.length },
      pausedUntil: paused ? this.#pausedUntil : null,
      nextSlotAt: Math.max(this.#pausedUntil, this.#nextFreeAt(now) ?? now + this.windowMs),
    };
  }

  #take(priority: Priority, signal: AbortSignal | undefined, hold: boolean): Promise<Slot> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const now = this.#now();
    if (this.#queued() === 0 && this.#canStart(now)) return Promise.resolve(this.#grant(hold, now));
    return new Promise<Slot>((resolve, reject) => {
      const waiter: Waiter = { hold, resolve, reject, signal, onAbort: undefined };
      if (signal) {
        waiter.onAbort = () => {
          const queue = this.#queues[priority];
          const at = queue.indexOf(waiter);
          if (at >= 0) queue.splice(at, 1);
          reject(signal.reason as Error);
          this.#pump();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.#queues[priority].push(waiter);
      this.#pump();
    });
  }

  #grant(hold: boolean, now: number): Slot {
    const slot: Slot = { endedAt: hold ? null : now };
    this.#slots.push(slot);
    return slot;
  }

  /** Grants what can start now, user first, then sets one timer for the next possible start. */
  #pump(): void {
    const now = this.#now();
    this.#prune(now);
    while (this.#queued() > 0 && this.#canStart(now)) {
      const waiter = (this.#queues.user.length > 0 ? this.#queues.user : this.#queues.background).shift()!;
      if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.resolve(this.#grant(waiter.hold, now));
    }
    if (this.#timer !== null) {
      this.#clearTimer(this.#timer);
      this.#timer = null;
    }
    if (this.#queued() === 0) return;
    // With every slot in flight there is no instant to wait for: the end of a task pumps again.
    const freeAt = this.#nextFreeAt(now);
    if (freeAt === null) return;
    const wakeAt = Math.max(freeAt, this.#pausedUntil);
    this.#timer = this.#setTimer(
      () => {
        this.#timer = null;
        this.#pump();
      },
      Math.max(1, wakeAt - now),
    );
  }

  #canStart(now: number): boolean {
    return now >= this.#pausedUntil && this.#countUsed(now) < this.limit;
  }

  #queued(): number {
    return this.#queues.user.length + this.#queues.background.length;
  }

  #isUsed(slot: Slot, now: number): boolean {
    return slot.endedAt === null || now < slot.endedAt + this.windowMs;
  }

  // Counted and searched in place, not through copies: under a high limit the slots of a window
  // run to thousands, looked at on every grant.
  #countUsed(now: number): number {
    let used = 0;
    for (const slot of this.#slots) if (this.#isUsed(slot, now)) used++;
    return used;
  }

  #prune(now: number): void {
    if (this.#slots.every((slot) => this.#isUsed(slot, now))) return;
    this.#slots = this.#slots.filter((slot) => this.#isUsed(slot, now));
  }

  /** When the next slot frees up; null when every slot is held by a request in flight. */
  #nextFreeAt(now: number): number | null {
    if (this.#countUsed(now) < this.limit) return now;
    let earliest: number | null = null;
    for (const slot of this.#slots) {
      if (slot.endedAt === null || !this.#isUsed(slot, now)) continue;
      const freeAt = slot.endedAt + this.windowMs;
      if (earliest === null || freeAt < earliest) earliest = freeAt;
    }
    return earliest;
  }
}

/**
 * All the buckets of one API key. Used as itself it is the overall bucket (what most requests
 * count in); `bucket(name)` is the one a request of that kind takes its slot from.
 */
export class RateLimiter extends RateLimitBucket {
  readonly #others: Record<SpecialRateBucket, RateLimitBucket>;

  constructor(options: RateLimiterOptions = {}) {
    const { buckets = {}, ...overall } = options;
    super(overall);
    const make = (name: SpecialRateBucket) =>
      new RateLimitBucket({
        ...overall,
        limit: buckets[name]?.limit ?? liveRateLimits[name].limit,
        windowMs: buckets[name]?.windowMs ?? liveRateLimits[name].windowSeconds * 1000,
      });
    const special = rateBuckets.filter((name): name is SpecialRateBucket => name !== 'overall');
    this.#others = Object.fromEntries(special.map((name) => [name, make(name)])) as Record<
      SpecialRateBucket,
      RateLimitBucket
    >;
  }

  bucket(name: RateBucket): RateLimitBucket {
    return name === 'overall' ? this : this.#others[name];
  }

  /** Every bucket's snapshot, overall first. */
  snapshots(now?: number): Record<RateBucket, RateLimiterSnapshot> {
    return Object.fromEntries(rateBuckets.map((name) => [name, this.bucket(name).snapshot(now)])) as Record<
      RateBucket,
      RateLimiterSnapshot
    >;
  }
}

// Keyed by a digest so that the registry, a heap dump or a debugger never shows the key.
const registry = new Map<string, RateLimiter>();

function digestKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** The one limiter for this API key in this process; options only apply when it is created. */
export function rateLimiterFor(apiKey: string, options: RateLimiterOptions = {}): RateLimiter {
  const id = digestKey(apiKey);
  let limiter = registry.get(id);
  if (!limiter) {
    limiter = new RateLimiter(options);
    registry.set(id, limiter);
  }
  return limiter;
}

/** Drops the limiter of a key that is no longer used (a profile removed, a key replaced). */
export function forgetRateLimiter(apiKey: string): boolean {
  return registry.delete(digestKey(apiKey));
}

/** The registry's ids (SHA-256 hex of each key), for diagnostics. */
export function listRateLimiterIds(): string[] {
  return [...registry.keys()];
}
