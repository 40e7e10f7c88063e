/**
 * The IPC contract: every channel the renderer may invoke and every event main may push.
 * Preload, main binding, core handlers, test host and renderer all derive their types from
 * this file; nothing else declares a channel. No node, electron or DOM imports here.
 */
import { z } from 'zod';
import type { AppInfo, Settings } from './types';
import { settingsPatchSchema } from './settings';

/** A channel: a schema for its argument and a phantom type for its result. */
function channel<Result>() {
  return <Args extends z.ZodType>(args: Args) => ({ args, result: undefined as unknown as Result });
}

/** An event pushed from main: a phantom type for its payload. */
function event<Payload>() {
  return { payload: undefined as unknown as Payload };
}

const noArgument = z.undefined();

export const contract = {
  'app:info': channel<AppInfo>()(noArgument),
  'settings:get': channel<Settings>()(noArgument),
  'settings:update': channel<Settings>()(settingsPatchSchema),
} as const;

export const events = {
  /** Something in the local database changed: refetch what you show. Carries no data. */
  'data:changed': event<{ resources: string[] }>(),
  'settings:changed': event<Settings>(),
} as const;

export type Channel = keyof typeof contract;
export type EventName = keyof typeof events;
export type ArgOf<C extends Channel> = z.input<(typeof contract)[C]['args']>;
export type ParsedArgOf<C extends Channel> = z.output<(typeof contract)[C]['args']>;
export type ResultOf<C extends Channel> = (typeof contract)[C]['result'];
export type PayloadOf<E extends EventName> = (typeof events)[E]['payload'];

/** What main implements: one function per channel, given the already-validated argument. */
export type Handlers = {
  [C in Channel]: (arg: ParsedArgOf<C>) => Promise<ResultOf<C>> | ResultOf<C>;
};

export const channelNames = Object.keys(contract) as Channel[];
export const eventNames = Object.keys(events) as EventName[];

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.hasOwn(contract, name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}

/** Codes a caller can act on. Messages are written for a forwarder to read. */
export const errorCodes = [
  'invalid_argument',
  'unknown_channel',
  'forbidden',
  'not_found',
  'needs_connection',
  'internal',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export interface IpcError {
  code: ErrorCode;
  message: string;
}

export type Envelope<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/**
 * What the preload exposes as `window.api` (and the e2e test host injects in its place):
 * envelopes, not thrown errors, because contextBridge keeps only an Error's message and stack.
 * The renderer wraps it with `createApi` from ./client to get typed calls that throw.
 */
export interface Bridge {
  invoke(channel: string, arg?: unknown): Promise<Envelope<unknown>>;
  on(event: string, listener: (payload: unknown) => void): () => void;
}
