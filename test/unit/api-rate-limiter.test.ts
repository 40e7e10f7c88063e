import { createHash } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  forgetRateLimiter,
  listRateLimiterIds,
  MAX_PAUSE_MS,
  RateLimiter,
  rateLimiterFor,
  type Priority,
} from '../../src/core/api/rate-limiter';

/** A clock and timers that only move when the test says so. */
class FakeClock {
  now = 0;
  #timers = new Map<number, { at: number; callback: () => void }>();
  #nextId = 1;

  readonly options = {
    now: () => this.now,
    setTimer: (callback: () => void, ms: number) => {
      const id = this.#nextId++;
      this.#timers.set(id, { at: this.now + ms, callback });
      return id;
    },
    clearTimer: (handle: unknown) => void this.#timers.delete(handle as number),
  };

  /** Fires every timer due up to `time`, in order, letting promises settle after each. */
  async advanceTo(time: number): Promise<void> {
    await flush(); // lets work started before this call register its timers at the current time
    for (;;) {
      let due: [number, { at: number; callback: () => void }] | undefined;
      for (const entry of this.#timers) if (entry[1].at <= time && (!due || entry[1].at < due[1].at)) due = entry;
      if (!due) break;
      this.#timers.delete(due[0]);
      this.now = Math.max(this.now, due[1].at);
      due[1].callback();
      await flush();
    }
    this.now = Math.max(this.now, time);
    await flush();
  }
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A small deterministic generator, so a failing schedule can be replayed. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Outcome {
  priority: Priority;
  arrivedSeq: number;
  grantedAt?: number;
  grantedSeq?: number;
  endedAt?: number;
}

describe('RateLimiter', () => {
  it('never starts more than the limit in any rolling window over a long random schedule', async () => {
    for (const seed of [1, 2, 3]) {
      const random = createRandom(seed);
      const clock = new FakeClock();
      const limit = 5;
      const windowMs = 1000;
      const limiter = new RateLimiter({ limit, windowMs, ...clock.options });
      let seq = 0;
      const outcomes: Outcome[] = [];
      const pending: Promise<unknown>[] = [];
      let time = 0;
      for (let i = 0; i < 400; i++) {
        // Bursts and lulls: demand well above the limit at times, below it at others.
        time += random() < 0.2 ? Math.floor(random() * 1500) : Math.floor(random() * 60);
        await clock.advanceTo(time);
        const outcome: Outcome = { priority: random() < 0.3 ? 'user' : 'background', arrivedSeq: seq++ };
        outcomes.push(outcome);
        const granted = () => {
          outcome.grantedAt = clock.now;
          outcome.grantedSeq = seq++;
        };
        if (random() < 0.5) {
          pending.push(limiter.acquire(outcome.priority).then(granted));
        } else {
          const duration = Math.floor(random() * 400);
          const task = () => {
            granted();
            return new Promise<void>((resolve) => clock.options.setTimer(resolve, duration));
          };
          pending.push(limiter.runInSlot(outcome.priority, task).then(() => (outcome.endedAt = clock.now)));
        }
      }
      await clock.advanceTo(time + 10_000_000);
      await Promise.all(pending);

      const grants = outcomes.map((o) => o.grantedAt!).sort((a, b) => a - b);
      expect(grants).toHaveLength(400);
      let busiest = 0;
      for (const start of grants) {
        const inWindow = grants.filter((t) => t >= start && t < start + windowMs).length;
        expect(inWindow).toBeLessThanOrEqual(limit);
        busiest = Math.max(busiest, inWindow);
      }
      expect(busiest).toBe(limit); // the schedule did push against the limit

      // A held slot counts until its task ends and a window after.
      for (const o of outcomes) {
        const holding = outcomes.filter(
          (p) => p.grantedSeq! < o.grantedSeq! && (p.endedAt ?? p.grantedAt!) + windowMs > o.grantedAt!,
        ).length;
        expect(holding).toBeLessThan(limit);
      }

      // No background request starts while a user request that arrived earlier is still waiting.
      for (const b of outcomes.filter((o) => o.priority === 'background')) {
        const overtaken = outcomes.filter(
          (u) => u.priority === 'user' && u.arrivedSeq < b.grantedSeq! && u.grantedSeq! > b.grantedSeq!,
        );
        expect(overtaken).toEqual([]);
      }
    }
  });

  it('serves queued user requests before background ones, first come first served within each', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ limit: 1, windowMs: 1000, ...clock.options });
    const order: string[] = [];
    await limiter.acquire('background');
    const waits = [
      limiter.acquire('background').then(() => order.push('b1')),
      limiter.acquire('background').then(() => order.push('b2')),
      limiter.acquire('user').then(() => order.push('u1')),
      limiter.acquire('user').then(() => order.push('u2')),
    ];
    expect(limiter.snapshot().queued).toEqual({ user: 2, background: 2 });
    await clock.advanceTo(999);
    expect(order).toEqual([]);
    await clock.advanceTo(4000);
    await Promise.all(waits);
    expect(order).toEqual(['u1', 'u2', 'b1', 'b2']);
  });

  it('removes an aborted waiter and rejects with the signal reason', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ limit: 1, windowMs: 1000, ...clock.options });
    await limiter.acquire('user');
    const controller = new AbortController();
    const aborted = limiter.acquire('background', controller.signal);
    const later = limiter.acquire('background');
    expect(limiter.snapshot().queued.background).toBe(2);
    const reason = new Error('sync cancelled');
    controller.abort(reason);
    await expect(aborted).rejects.toBe(reason);
    expect(limiter.snapshot().queued.background).toBe(1);
    await clock.advanceTo(1000);
    await expect(later).resolves.toBeUndefined();

    const already = AbortSignal.abort();
    await expect(limiter.acquire('user', already)).rejects.toMatchObject({ name: 'AbortError' });
    expect(limiter.snapshot().queued).toEqual({ user: 0, background: 0 });
  });

  it('grants nothing while paused after a 429', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ limit: 10, windowMs: 1000, ...clock.options });
    limiter.pauseFor(5000);
    expect(limiter.snapshot()).toMatchObject({ pausedUntil: 5000, available: 0, nextSlotAt: 5000 });
    let granted = false;
    const wait = limiter.acquire('user').then(() => (granted = true));
    await clock.advanceTo(4999);
    expect(granted).toBe(false);
    await clock.advanceTo(5000);
    await wait;
    expect(granted).toBe(true);
    expect(limiter.snapshot()).toMatchObject({ pausedUntil: null, usedInWindow: 1, available: 9 });
  });

  it('never pauses longer than the cap, whatever a 429 asked, so a user action waits at most that', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ limit: 10, windowMs: 1000, ...clock.options });
    limiter.pauseFor(86_400_000);
    expect(limiter.snapshot().pausedUntil).toBe(MAX_PAUSE_MS);
    let granted = false;
    const wait = limiter.acquire('user').then(() => (granted = true));
    await clock.advanceTo(MAX_PAUSE_MS - 1);
    expect(granted).toBe(false);
    await clock.advanceTo(MAX_PAUSE_MS);
    await wait;
    expect(granted).toBe(true);
    // A pause of no number (a garbled header turned into NaN) is the cap, not forever.
    limiter.pauseFor(Number.NaN);
    expect(limiter.snapshot().pausedUntil).toBe(2 * MAX_PAUSE_MS);
    await clock.advanceTo(2 * MAX_PAUSE_MS);
    await limiter.acquire('user');
    expect(limiter.snapshot()).toMatchObject({ pausedUntil: null, usedInWindow: 1 });
  });

  it('reports use, queue and the next free slot for progress estimates', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ limit: 2, windowMs: 1000, ...clock.options });
    expect(limiter.snapshot()).toEqual({
      limit: 2,
      windowMs: 1000,
      usedInWindow: 0,
      available: 2,
      queued: { user: 0, background: 0 },
      pausedUntil: null,
      nextSlotAt: 0,
    });
    await limiter.acquire('user');
    await clock.advanceTo(300);
    await limiter.acquire('user');
    void limiter.acquire('background');
    expect(limiter.snapshot()).toMatchObject({ usedInWindow: 2, available: 0, nextSlotAt: 1000 });
    expect(limiter.snapshot(1000)).toMatchObject({ usedInWindow: 1 });
    await clock.advanceTo(1000);
    expect(limiter.snapshot()).toMatchObject({ usedInWindow: 2, queued: { user: 0, background: 0 } });
  });

  it('holds a slot for as long as its request runs', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ limit: 1, windowMs: 1000, ...clock.options });
    const slow = limiter.runInSlot(
      'user',
      () => new Promise<string>((resolve) => clock.options.setTimer(() => resolve('done'), 3000)),
    );
    let grantedAt: number | null = null;
    const next = limiter.acquire('user').then(() => (grantedAt = clock.now));
    await clock.advanceTo(2000);
    expect(grantedAt).toBeNull();
    expect(limiter.snapshot().usedInWindow).toBe(1);
    await clock.advanceTo(10_000);
    await expect(slow).resolves.toBe('done');
    await next;
    expect(grantedAt).toBe(4000);
  });

  it('refuses a nonsensical limit', () => {
    expect(() => new RateLimiter({ limit: 0 })).toThrow();
    expect(() => new RateLimiter({ windowMs: 0 })).toThrow();
  });
});

describe('rateLimiterFor', () => {
  it('keeps one limiter per key, created with the first options, without keeping the key', () => {
    const key = 'registry-test-key-0123456789';
    const limiter = rateLimiterFor(key, { limit: 7, windowMs: 5000 });
    expect(rateLimiterFor(key)).toBe(limiter);
    expect(rateLimiterFor(key, { limit: 50 }).limit).toBe(7);
    expect(rateLimiterFor('another-key-abcdef')).not.toBe(limiter);

    const ids = listRateLimiterIds();
    expect(ids).toContain(createHash('sha256').update(key).digest('hex'));
    expect(ids.join('\n')).not.toContain(key);
    expect(inspect(limiter, { showHidden: true, depth: Infinity })).not.toContain(key);

    expect(forgetRateLimiter(key)).toBe(true);
    expect(rateLimiterFor(key)).not.toBe(limiter);
    expect(rateLimiterFor(key).limit).toBe(100);
  });
});
