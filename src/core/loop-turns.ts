/**
 * Turns of the event loop for the core's background work, so no task holds the loop that serves
 * IPC for long. A long job (a page
 * parsed and written in slices, search merges, a CSV export) lets the loop go between two steps by
 * awaiting `nextTurn()`. Node's own `setImmediate` would let every waiting job run its next step
 * in the same check phase: four walks each writing a 10 ms slice held the loop for 40 ms or more
 * before a timer or an IPC request got its turn. Here the steps take turns: one waiting step is
 * resumed per turn of the loop, in the order they asked, so the loop holds at most one step of
 * background work between two looks at its timers and sockets, however many jobs are running.
 */
import { setImmediate } from 'node:timers';

const waiting: Array<() => void> = [];
let scheduled = false;

function resumeOne(): void {
  const next = waiting.shift();
  // Queued from inside the check phase, the next resume runs on the loop's next turn.
  if (waiting.length > 0) setImmediate(resumeOne);
  else scheduled = false;
  next?.();
}

/** Resolves on a later turn of the event loop, after the steps that asked before it. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(resumeOne);
    }
  });
}
