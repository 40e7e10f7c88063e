/**
 * Blocking this thread on shared memory, as the core's thread does for a few milliseconds at most
 * (the export's snapshots, write turns with the page worker). `Atomics.wait` blocks where the
 * thread may block (Node's main thread and workers); a thread whose engine refuses (a browser's
 * main thread; whether Electron's main process is one depends on how it made its isolate, and
 * Quayside does not bet on it) gets a TypeError, so there the wait spins instead, reading the
 * value until it changes or the time is up: the waits here are a slice of the other thread's
 * work, a few milliseconds.
 */

type Wait = (typedArray: Int32Array, index: number, value: number, timeout?: number) => string;

/** Whether this thread may block in `Atomics.wait`: unknown until the first wait. */
let mayBlock: boolean | null = null;

/**
 * Waits while `array[index]` holds `value`, at most `ms`: returns 'not-equal' at once when it does
 * not, 'ok' when woken (or, spinning, when the value changed), 'timed-out' when the time is up.
 */
export function waitWhile(
  array: Int32Array,
  index: number,
  value: number,
  ms: number,
  wait: Wait = Atomics.wait,
): string {
  if (Atomics.load(array, index) !== value) return 'not-equal';
  if (mayBlock !== false) {
    try {
      const result = wait(array, index, value, ms);
      mayBlock = true;
      return result;
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      mayBlock = false;
    }
  }
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    if (Atomics.load(array, index) !== value) return 'ok';
  }
  return 'timed-out';
}

/** For tests: forget what was learnt of this thread. */
export function forgetMayBlock(): void {
  mayBlock = null;
}
