/**
 * The renderer's one boundary with core, faked: `window.api` (what the preload exposes) answers
 * from handlers a test registers per channel, typed by the IPC contract. A channel without a
 * handler fails the test's call with a sentence naming it, so a test never passes on a call it did
 * not expect to matter.
 */
import type { ArgOf, Bridge, Channel, Envelope, EventName, IpcError, PayloadOf, ResultOf } from '../../src/shared/ipc';

type Handler<C extends Channel> = (arg: ArgOf<C>) => ResultOf<C> | Promise<ResultOf<C>>;

/** Thrown by a handler to answer with an error envelope, as main does for refused input. */
export class Refusal extends Error {
  readonly error: IpcError;
  constructor(error: IpcError) {
    super(error.message);
    this.error = error;
  }
}

class FakeBridge implements Bridge {
  readonly calls: { channel: string; arg: unknown }[] = [];
  #handlers = new Map<string, (arg: unknown) => unknown>();
  #listeners = new Map<string, Set<(payload: unknown) => void>>();

  answer<C extends Channel>(channel: C, handler: Handler<C>): void {
    this.#handlers.set(channel, handler as (arg: unknown) => unknown);
  }

  /** The arguments of every call made on a channel, in order. */
  argsOf<C extends Channel>(channel: C): ArgOf<C>[] {
    return this.calls.filter((c) => c.channel === channel).map((c) => c.arg as ArgOf<C>);
  }

  emit<E extends EventName>(event: E, payload: PayloadOf<E>): void {
    for (const listener of this.#listeners.get(event) ?? []) listener(payload);
  }

  reset(): void {
    this.calls.length = 0;
    this.#handlers.clear();
    this.#listeners.clear();
  }

  async invoke(channel: string, arg?: unknown): Promise<Envelope<unknown>> {
    this.calls.push({ channel, arg });
    const handler = this.#handlers.get(channel);
    if (!handler) {
      return { ok: false, error: { code: 'internal', message: `The test gave no answer for ${channel}.` } };
    }
    try {
      return { ok: true, value: await handler(arg) };
    } catch (failure) {
      if (failure instanceof Refusal) return { ok: false, error: failure.error };
      throw failure;
    }
  }

  on(event: string, listener: (payload: unknown) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }
}

export const bridge = new FakeBridge();
