import { describe, expect, it } from 'vitest';
import { nextTurn } from '../../src/core/loop-turns';

describe('turns of the event loop for background steps', () => {
  it('lets the loop look at its other work between any two steps, however many jobs are stepping', async () => {
    const trace: string[] = [];
    // The loop's other work (a timer, an IPC request): one mark per turn of the loop.
    let running = true;
    const mark = () => {
      trace.push('|');
      if (running) setImmediate(mark);
    };
    setImmediate(mark);
    const job = async (name: string) => {
      for (let step = 1; step <= 4; step++) {
        await nextTurn();
        trace.push(`${name}${step}`);
      }
    };
    await Promise.all([job('a'), job('b'), job('c')]);
    running = false;

    const steps = trace.filter((t) => t !== '|');
    expect(steps).toHaveLength(12);
    // In the order they asked: a, b, c take turns.
    expect(steps.slice(0, 6)).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'c2']);
    // Never two steps in one turn.
    const runs = trace
      .join(' ')
      .split('|')
      .map((turn) => turn.trim().split(' ').filter(Boolean).length);
    expect(Math.max(...runs)).toBe(1);
  });
});
