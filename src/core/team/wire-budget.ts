/**
 * A `pg` client whose socket counts the bytes it actually reads, against a budget the caller
 * opens for each answer it waits for (`window`): past the budget the connection is cut, so no
 * row a server declares (hundreds of MB, or one that never ends) is buffered beyond it. The
 * client's parser keeps a whole message in memory before it hands it over, whatever length the
 * server wrote in its header; only the bytes read bound it. Over TLS the bytes counted are those
 * the TLS socket hands over, after the handshake (the plain socket's before it).
 */
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import pg from 'pg';
import { HubError } from './errors';

/** One page's answer at most: 500 records of the service's are a few MB. */
export const MAX_PAGE_BYTES = 64 * 1024 * 1024;
/** Everything before the first page (the handshake, the schema version, the meta row). */
export const MAX_OPENING_BYTES = 1024 * 1024;

export class WireBudget {
  #used = 0;
  #limit = MAX_OPENING_BYTES;
  #over: (limit: number) => string = (limit) => `sent more than ${mb(limit)} before its first page`;
  #current: Duplex | null = null;
  /** The refusal, once the connection was cut (the query meeting the cut fails its own way). */
  refused: HubError | null = null;

  constructor(private readonly where: string) {}

  /** A new budget of `limit` bytes for the next answer; `over` says what was too much. */
  window(limit: number, over: (limit: number) => string): void {
    this.#used = 0;
    this.#limit = limit;
    this.#over = over;
  }

  /**
   * Counts what `stream` reads from now on (the plain socket, then the TLS one over it), and
   * turns a message the client's parser cannot read (a row whose cells overrun it) into a
   * refusal: the parser throws from the socket's 'data' event, which nothing else would catch.
   */
  watch(stream: Duplex): void {
    this.#current = stream;
    const emit = stream.emit.bind(stream) as (event: string | symbol, ...args: unknown[]) => boolean;
    stream.emit = (event: string | symbol, ...args: unknown[]): boolean => {
      if (event !== 'data') return emit(event, ...args);
      if (this.refused) return false;
      if (stream !== this.#current) return emit(event, ...args);
      this.#used += (args[0] as Buffer).length;
      // The chunk past the budget is not handed over at all.
      if (this.#used > this.#limit)
        return this.#refuse(stream, `${this.#over(this.#limit)}, more than a team hub sends`);
      try {
        return emit(event, ...args);
      } catch {
        return this.#refuse(stream, 'sent a message the PostgreSQL protocol does not allow');
      }
    };
  }

  #refuse(stream: Duplex, what: string): false {
    this.refused = new HubError('failure', `PostgreSQL at ${this.where} ${what}; nothing of it was applied.`);
    stream.destroy();
    return false;
  }
}

export function mb(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

/** A client for `config` whose reads `budget` counts. */
export function budgetedClient(config: pg.ClientConfig, budget: WireBudget): pg.Client {
  const client = new pg.Client({
    ...config,
    stream: () => {
      const socket = new Socket();
      budget.watch(socket);
      return socket;
    },
  });
  // The TLS socket pg puts over the plain one once the server agreed to TLS.
  client.connection.on('sslconnect', () => budget.watch(client.connection.stream));
  return client;
}
