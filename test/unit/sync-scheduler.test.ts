import { describe, expect, it } from 'vitest';
import { nextAttemptSentence, SyncScheduler, type SchedulerTimers } from '../../src/core/sync/scheduler';
import type { SyncSummary } from '../../src/core/sync/types';

function fakeTimers(start = 0) {
  let now = start;
  const pending: { at: number; callback: () => void; id: number }[] = [];
  let nextId = 0;
  const timers: SchedulerTimers = {
    setTimeout: (callback, ms) => {
      const id = ++nextId;
      pending.push({ at: now + ms, callback, id });
      return id;
    },
    clearTimeout: (handle) => {
      const i = pending.findIndex((p) => p.id === handle);
      if (i >= 0) pending.splice(i, 1);
    },
  };
  return {
    timers,
    /** Moves time on, firing due timers and letting their promises settle. */
    async advance(ms: number) {
      const end = now + ms;
      for (;;) {
        pending.sort((a, b) => a.at - b.at);
        const due = pending[0];
        if (!due || due.at > end) break;
        pending.shift();
        now = due.at;
        due.callback();
        for (let i = 0; i < 10; i++) await Promise.resolve();
      }
      now = end;
    },
    pendingDelays: () => pending.map((p) => p.at - now),
    now: () => now,
  };
}

const summary = (status: SyncSummary['status']): SyncSummary => ({
  runId: 1,
  mode: 'incremental',
  status,
  requests: 1,
  rateLimited: 0,
  durationMs: 1,
  counts: {},
  error: status === 'failed' ? { code: 'network', message: 'offline' } : null,
});

describe('sync scheduler', () => {
  it('does not back off while another process holds the sync (busy): next try after one interval', async () => {
    const clock = fakeTimers();
    const busy: SyncSummary = { ...summary('failed'), requests: 0, error: { code: 'busy', message: 'held' } };
    let runs = 0;
    const scheduler = new SyncScheduler({
      run: () => (runs++, Promise.resolve(busy)),
      intervalMs: 1000,
      timers: clock.timers,
    });
    scheduler.start();
    await clock.advance(3000);
    expect(runs).toBe(3);
    expect(scheduler.nextDelayMs).toBe(1000);
    expect(clock.pendingDelays()).toEqual([1000]);
    scheduler.stop();
  });

  it('runs once per interval and stops when asked', async () => {
    const clock = fakeTimers();
    let runs = 0;
    const scheduler = new SyncScheduler({
      run: () => (runs++, Promise.resolve(summary('ok'))),
      intervalMs: 1000,
      timers: clock.timers,
    });
    scheduler.start();
    await clock.advance(999);
    expect(runs).toBe(0);
    await clock.advance(1);
    expect(runs).toBe(1);
    await clock.advance(3000);
    expect(runs).toBe(4);
    scheduler.stop();
    await clock.advance(10_000);
    expect(runs).toBe(4);
  });

  it('backs off after failures, up to a ceiling, and recovers after a success', async () => {
    const clock = fakeTimers();
    const results: SyncSummary['status'][] = ['failed', 'failed', 'failed', 'ok'];
    let runs = 0;
    const scheduler = new SyncScheduler({
      run: () => Promise.resolve(summary(results[runs++] ?? 'ok')),
      intervalMs: 1000,
      maxBackoffMs: 5000,
      timers: clock.timers,
    });
    scheduler.start(0);
    await clock.advance(0);
    expect(clock.pendingDelays()).toEqual([2000]);
    await clock.advance(2000);
    expect(clock.pendingDelays()).toEqual([4000]);
    await clock.advance(4000);
    expect(clock.pendingDelays()).toEqual([5000]);
    await clock.advance(5000);
    expect(runs).toBe(4);
    expect(clock.pendingDelays()).toEqual([1000]);
  });

  it('never starts a run while one is still going', async () => {
    const clock = fakeTimers();
    let active = 0;
    let maxActive = 0;
    let release: () => void = () => {};
    const scheduler = new SyncScheduler({
      run: () =>
        new Promise((resolve) => {
          active++;
          maxActive = Math.max(maxActive, active);
          release = () => {
            active--;
            resolve(summary('ok'));
          };
        }),
      intervalMs: 100,
      timers: clock.timers,
    });
    scheduler.start(0);
    await clock.advance(0);
    scheduler.setInterval(50);
    await clock.advance(1000);
    expect(maxActive).toBe(1);
    release();
    await clock.advance(0);
    await clock.advance(50);
    expect(maxActive).toBe(1);
  });
});

describe('a run the service asked to hold off', () => {
  const MINUTE = 60_000;
  // 09:00 UTC on 14 May 2026.
  const start = Date.UTC(2026, 4, 14, 9, 0);
  const refused = (retryAt: number): SyncSummary => ({
    ...summary('failed'),
    error: { code: 'rate_limited', message: 'Wait.', retryAt: new Date(retryAt).toISOString() },
  });

  it('is not tried again before the instant the service named, and the sentence says when it will be', async () => {
    const clock = fakeTimers(start);
    const retryAt = start + 24 * 60 * MINUTE;
    let runs = 0;
    const scheduler = new SyncScheduler({
      run: () => (runs++, Promise.resolve(runs === 1 ? refused(retryAt) : summary('ok'))),
      intervalMs: 15 * MINUTE,
      timers: clock.timers,
      now: clock.now,
    });
    scheduler.start(0);
    await clock.advance(0);
    expect(runs).toBe(1);
    // Not the backed-off half hour: the day the service asked for.
    expect(scheduler.nextRunAt).toBe(retryAt);
    expect(clock.pendingDelays()).toEqual([24 * 60 * MINUTE]);
    expect(nextAttemptSentence(retryAt, scheduler.nextRunAt!, clock.now())).toBe('Quayside will try again then.');
    await clock.advance(24 * 60 * MINUTE - 1);
    expect(runs).toBe(1);
    await clock.advance(1);
    expect(runs).toBe(2);
    expect(clock.pendingDelays()).toEqual([15 * MINUTE]);
    scheduler.stop();
  });

  it("says the schedule's own later time when its pause is longer than the service's", async () => {
    const clock = fakeTimers(start);
    // Five minutes asked, more than is waited out in place; the schedule's backoff is 30 minutes.
    const retryAt = start + 5 * MINUTE;
    const scheduler = new SyncScheduler({
      run: () => Promise.resolve(refused(retryAt)),
      intervalMs: 15 * MINUTE,
      timers: clock.timers,
      now: clock.now,
    });
    scheduler.start(0);
    await clock.advance(0);
    expect(scheduler.nextRunAt).toBe(start + 30 * MINUTE);
    expect(nextAttemptSentence(retryAt, scheduler.nextRunAt!, clock.now())).toBe(
      'Quayside will try again at 09:30 UTC.',
    );
    scheduler.stop();
  });

  it('moves a run already due sooner when a sync started by hand was refused', async () => {
    const clock = fakeTimers(start);
    let runs = 0;
    const scheduler = new SyncScheduler({
      run: () => (runs++, Promise.resolve(summary('ok'))),
      intervalMs: 15 * MINUTE,
      timers: clock.timers,
      now: clock.now,
    });
    scheduler.start();
    await clock.advance(5 * MINUTE);
    // 02:00 UTC the next day.
    const retryAt = start + 17 * 60 * MINUTE;
    scheduler.holdUntil(retryAt);
    expect(scheduler.nextRunAt).toBe(retryAt);
    expect(nextAttemptSentence(retryAt, scheduler.nextRunAt!, clock.now())).toBe('Quayside will try again then.');
    // A new interval does not bring it forward either.
    scheduler.setInterval(MINUTE);
    expect(scheduler.nextRunAt).toBe(retryAt);
    await clock.advance(retryAt - clock.now() - 1);
    expect(runs).toBe(0);
    await clock.advance(1);
    expect(runs).toBe(1);
    scheduler.stop();
  });

  it('names the day when the next try is not today', () => {
    const now = start;
    const retryAt = start + 5 * MINUTE;
    expect(nextAttemptSentence(retryAt, start + 17 * 60 * MINUTE, now)).toBe(
      'Quayside will try again at 02:00 UTC tomorrow.',
    );
  });
});
