/**
 * The renderer's side of the IPC round trip (core-loop.ts), in a process of its own as the
 * renderer is: started with the test host's URL, it asks `sync:status` 200 times every 10 ms
 * with the core idle (the anchor), starts a full sync, then asks it every 10 ms until the sync
 * ends, timing each answer, and prints one JSON line
 * `{ idle: number[], trips: number[], lastRun: string | null }`. Asked from the core's own process instead, each
 * round trip also waited for the core's loop on the asking side (sending, then reading the
 * answer), which the renderer never does.
 */
import { setTimeout as sleep } from 'node:timers/promises';

const hostUrl = process.argv[2];
if (!hostUrl) throw new Error('usage: ipc-asker.ts HOST_URL');

async function ipc(channel: string, arg?: unknown): Promise<{ ms: number; value: unknown }> {
  const started = performance.now();
  const response = await fetch(new URL('__host/ipc', hostUrl), {
    method: 'POST',
    body: JSON.stringify({ channel, arg }),
  });
  const envelope = (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
  const ms = performance.now() - started;
  if (!envelope.ok) throw new Error(`${channel}: ${envelope.error?.message}`);
  return { ms, value: envelope.value };
}

// One call before timing: the connection made and the handler warm, as in a running app.
await ipc('sync:status');
// The anchor: the same calls while no sync runs (the machine's and the transport's own round trip).
const idle: number[] = [];
for (let i = 0; i < 200; i++) {
  idle.push((await ipc('sync:status')).ms);
  await sleep(10);
}
await ipc('sync:start', { mode: 'full' });
const trips: number[] = [];
let status: { state: string; lastRun: { status: string } | null };
do {
  const answer = await ipc('sync:status');
  trips.push(answer.ms);
  status = answer.value as typeof status;
  await sleep(10);
} while (status.state === 'syncing');
process.stdout.write(`${JSON.stringify({ idle, trips, lastRun: status.lastRun?.status ?? null })}\n`);
