/**
 * The core's thread blocks on shared memory for a few milliseconds (an export's snapshots, write
 * turns): where its engine refuses `Atomics.wait` (a TypeError, as on a browser's main thread) it
 * must still wait, by reading the value, and never fail the export or the write.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { forgetMayBlock, waitWhile } from '../../src/core/workers/block';

const refuses = () => {
  throw new TypeError('Atomics.wait cannot be called in this context');
};

afterEach(() => forgetMayBlock());

describe('waiting on shared memory', () => {
  it('does not wait for a value that already changed', () => {
    const array = new Int32Array(new SharedArrayBuffer(4));
    let asked = 0;
    expect(
      waitWhile(array, 0, 1, 10_000, () => {
        asked++;
        return 'ok';
      }),
    ).toBe('not-equal');
    expect(asked).toBe(0);
  });

  it('spins until its time is up where the thread may not block, and remembers not to ask again', () => {
    const array = new Int32Array(new SharedArrayBuffer(4));
    let asked = 0;
    const counting = (...args: Parameters<typeof refuses>) => {
      asked++;
      return refuses(...args);
    };
    expect(waitWhile(array, 0, 0, 5, counting)).toBe('timed-out');
    expect(waitWhile(array, 0, 0, 5, counting)).toBe('timed-out');
    expect(asked).toBe(1);
  });

  it('blocks in Atomics.wait where it may (Node), and says when the time was up', () => {
    const array = new Int32Array(new SharedArrayBuffer(4));
    expect(waitWhile(array, 0, 0, 5)).toBe('timed-out');
  });

  it('lets any other error through', () => {
    const array = new Int32Array(new SharedArrayBuffer(4));
    expect(() =>
      waitWhile(array, 0, 0, 5, () => {
        throw new RangeError('out of range');
      }),
    ).toThrow(RangeError);
  });
});
