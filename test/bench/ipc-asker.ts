/**
 * The renderer's side of the IPC round trip (core-loop.ts), in a process of its own as the
 * renderer is, talking to the core over a message channel as the renderer does (Electron's IPC is
 * message passing over a pipe: here Node's IPC channel to the bench, which hands each message to
 * the core's `dispatch`, as `ipcMain.handle` does). It asks `sync:status` 200 times every 10 ms
 * with the core idle (the anchor), starts a full sync, then asks it every 10 ms until the sync
 * ends, timing each answer, and sends back `{ kind: 'result', idle, trips, lastRun }`.
 * Asked from the core's own process instead, each round trip also waited for the core's loop on
 * the asking side, which the renderer never does. Asked over the test host's HTTP (as the e2e
 * suites do), the transport alone took 4.6 ms at p95 with the core idle on this machine, against
 * about 1 ms over the channel: the figure then measured fetch and HTTP parsing, not the core.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export type AskerMessage =
  | { kind: 'ask'; id: number; channel: string; arg?: unknown }
  | { kind: 'result'; idle: number[]; trips: number[]; lastRun: string | null };
export type AskerAnswer = { id: number; envelope: { ok: boolean; value?: unknown; error?: { message: string } } };

if (!process.send) throw new Error('ipc-asker.ts runs as a child with an IPC channel (fork)');
const send = process.send.bind(process);

const waiting = new Map<number, (answer: AskerAnswer) => void>();
process.on('message', (answer: AskerAnswer) => {
  waiting.get(answer.id)?.(answer);
  waiting.delete(answer.id);
});
let next = 0;

async function ipc(channel: string, arg?: unknown): Promise<{ ms: number; value: unknown }> {
  const id = ++next;
  const started = performance.now();
  const answered = new Promise<AskerAnswer>((done) => waiting.set(id, done));
  send({ kind: 'ask', id, channel, arg } satisfies AskerMessage);
  const { envelope } = await answered;
  const ms = performance.now() - started;
  if (!envelope.ok) throw new Error(`${channel}: ${envelope.error?.message}`);
  return { ms, value: envelope.value };
}

// One call before timing: the channel open and the handler warm, as in a running app.
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
send({ kind: 'result', idle, trips, lastRun: status.lastRun?.status ?? null } satisfies AskerMessage, () =>
  process.disconnect(),
);
