import { z } from 'zod';
import { contract, isChannel, type Envelope, type Handlers, type IpcError } from '../shared/ipc';
import { QuaysideError } from './errors';
import { describeStoreError } from './store/store-errors';

/** A file-system failure (ENOSPC, EACCES, EROFS…) in words. */
function describeFsFailure(error: unknown): { message: string } | null {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (code === 'ENOSPC') return { message: 'The disk is full: nothing was saved. Free some space and try again.' };
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return { message: 'Quayside is not allowed to write there (read-only or protected). Nothing was saved.' };
  }
  return null;
}

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
    // Each refused field also gets its own sentence, so a form can show it beside the field.
    const byField = new Map<string, string>();
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (typeof field === 'string' && !byField.has(field)) byField.set(field, issue.message);
    }
    const fields = Object.fromEntries(byField);
    return failure({
      code: 'invalid_argument',
      message: `Invalid argument for ${channel}: ${z.prettifyError(parsed.error)}`,
      ...(Object.keys(fields).length > 0 ? { fields } : {}),
    });
  }
  try {
    const handler = handlers[channel] as (arg: unknown) => unknown;
    const value = await handler(parsed.data);
    return { ok: true, value: value === undefined ? null : value };
  } catch (error) {
    if (error instanceof QuaysideError) {
      return failure({
        code: error.code,
        message: error.message,
        ...(error.fields ? { fields: error.fields } : {}),
        ...(error.existing ? { existing: error.existing } : {}),
      });
    }
    const storage = describeStoreError(error) ?? describeFsFailure(error);
    if (storage) return failure({ code: 'storage', message: storage.message });
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
