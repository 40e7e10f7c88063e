import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '../../src/core/api/errors';
import { toActionError } from '../../src/core/handlers/api-errors';

describe('an action the service rate-limits', () => {
  it('says the wait the service named, not always "a minute"', () => {
    expect(toActionError(new RateLimitedError(30_000)).message).toBe(
      'The Tracking API asks to slow down; try again in 30 seconds. Nothing was changed.',
    );
    expect(toActionError(new RateLimitedError(null)).message).toBe(
      'The Tracking API asks to slow down; try again in a minute. Nothing was changed.',
    );
    const at = new Date(Date.now() + 86_400_000);
    const day = toActionError(new RateLimitedError(86_400_000, { retryAt: at }));
    expect(day.message).toMatch(
      /^The Tracking API asks to slow down; try again after \d\d:\d\d UTC tomorrow\. Nothing/,
    );
    expect(day).toMatchObject({ code: 'rate_limited' });
  });
});
