import type { EventName, PayloadOf } from '../shared/ipc';

export type EventListener = <E extends EventName>(event: E, payload: PayloadOf<E>) => void;

/** An event's payload as emit's arguments: none for an event that carries no data. */
type PayloadArgs<E extends EventName> = PayloadOf<E> extends void ? [] : [payload: PayloadOf<E>];

/** Events main pushes to every window; one listener set, typed by the contract. */
export class CoreEvents {
  readonly #listeners = new Set<EventListener>();

  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit<E extends EventName>(event: E, ...[payload]: PayloadArgs<E>): void {
    for (const listener of this.#listeners) listener(event, payload as PayloadOf<E>);
  }
}
