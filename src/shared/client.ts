import type { ArgOf, Bridge, Channel, ErrorCode, EventName, ExistingTrackingRequest, PayloadOf, ResultOf } from './ipc';

/** An IPC call that main answered with an error; `code` says what kind. */
export class IpcCallError extends Error {
  readonly code: ErrorCode;
  readonly channel: string;
  /** For refused input: a message per field, to show next to the field it concerns. */
  readonly fields: Readonly<Record<string, string>>;
  /** For `already_tracked`: the tracking request that already exists. */
  readonly existing: ExistingTrackingRequest | null;
  constructor(
    code: ErrorCode,
    message: string,
    channel: string,
    fields: Record<string, string> = {},
    existing: ExistingTrackingRequest | null = null,
  ) {
    super(message);
    this.name = 'IpcCallError';
    this.code = code;
    this.channel = channel;
    this.fields = fields;
    this.existing = existing;
  }
}

type ArgList<C extends Channel> = undefined extends ArgOf<C> ? [arg?: ArgOf<C>] : [arg: ArgOf<C>];

export interface Api {
  invoke<C extends Channel>(channel: C, ...arg: ArgList<C>): Promise<ResultOf<C>>;
  on<E extends EventName>(event: E, listener: (payload: PayloadOf<E>) => void): () => void;
}

/** Typed calls over a bridge: a resolved value, or a thrown IpcCallError carrying main's code. */
export function createApi(bridge: Bridge): Api {
  return {
    async invoke<C extends Channel>(channel: C, ...arg: ArgList<C>): Promise<ResultOf<C>> {
      const envelope = await bridge.invoke(channel, arg[0]);
      // Main answered this channel through the same contract: the value is its result type.
      if (envelope.ok) return envelope.value as ResultOf<C>;
      const { code, message, fields, existing } = envelope.error;
      throw new IpcCallError(code, message, channel, fields, existing ?? null);
    },
    on(event, listener) {
      return bridge.on(event, listener as (payload: unknown) => void);
    },
  };
}
