import { z } from 'zod';
import { contract, isChannel, type Envelope, type Handlers, type IpcError } from '../shared/ipc';
import { QuaysideError } from './errors';

export type Logger = (message: string, error?: unknown) => void;

function failure(error: IpcError): Envelope<never> {
  return { ok: false, error };
}

/**
 * Runs one IPC call: the channel must exist, the argument must match its schema, and whatever
 * the handler throws becomes an error envelope. Electron's binding and the e2e test host both
 * call this, so the renderer meets the same behaviour in both. It never throws.
 */
export async function dispatch(
  handlers: Handlers,
  channel: unknown,
  arg: unknown,
  log: Logger = () => {},
): Promise<Envelope<unknown>> {
  if (!isChannel(channel)) {
    return failure({ code: 'unknown_channel', message: `There is no IPC channel named ${describe(channel)}.` });
  }
  const parsed = contract[channel].args.safeParse(arg);
  if (!parsed.success) {
    return failure({
      code: 'invalid_argument',
      message: `Invalid argument for ${channel}: ${z.prettifyError(parsed.error)}`,
    });
  }
  try {
    const handler = handlers[channel] as (arg: unknown) => unknown;
    const value = await handler(parsed.data);
    return { ok: true, value: value === undefined ? null : value };
  } catch (error) {
    if (error instanceof QuaysideError) return failure({ code: error.code, message: error.message });
    log(`${channel} failed`, error);
    return failure({
      code: 'internal',
      message: `Quayside could not complete ${channel}; the details are in the log.`,
    });
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 80));
  return `of type ${value === null ? 'null' : typeof value}`;
}
