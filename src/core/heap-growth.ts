/**
 * How far V8 lets the heaps of the process hosting the core grow past what they hold alive.
 *
 * V8 sizes a process's heaps from the machine's memory: on a laptop with 16 GB it lets the young
 * generation grow to 64 MB semi-spaces whenever enough objects survive its scavenges (in a long
 * sync they always do, a page at a time), and lets the old generation reach up to four times its
 * live objects before collecting. Through a 10k sync the core's thread then held over 130 MB of
 * young generation and the sync pages' worker 70 MB of old, nearly all of it garbage; the process
 * peaked near 480 MB for some 40 MB of live objects.
 *
 * Electron's main process takes no V8 option from the command line (`js-flags` reaches its
 * renderers only) and a heap's maximum sizes are fixed when it is set up, but these two options
 * are read each time V8 decides to grow a heap, so the core sets them when it starts, for
 * whatever process hosts it (the app's main process, the CLI, the test host) and every worker
 * thread in it: the young generation keeps its first size (scavenges stay short and frequent),
 * and a full collection runs once the old generation has grown by a third over what it kept.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWTH_OPTIONS = ['--semi-space-growth-factor=1', '--heap-growing-percent=30'] as const;

let bounded = false;

/** Sets `HEAP_GROWTH_OPTIONS` for this process, once. */
export function boundHeapGrowth(): void {
  if (bounded) return;
  bounded = true;
  for (const option of HEAP_GROWTH_OPTIONS) setFlagsFromString(option);
}
