import { IpcCallError } from '../../../shared/client';

/** A sentence for the forwarder from whatever went wrong. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

export function fieldErrorsOf(error: unknown): Readonly<Record<string, string>> {
  return error instanceof IpcCallError ? error.fields : {};
}

/** Calls that need the service fail with these codes when it cannot be reached or refuses the key. */
export function isConnectionProblem(error: unknown): boolean {
  return error instanceof IpcCallError && (error.code === 'needs_connection' || error.code === 'key_refused');
}
