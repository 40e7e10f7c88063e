import type { ErrorCode } from '../shared/ipc';

/** An error whose message is fit to show a forwarder, with a code the renderer can act on. */
export class QuaysideError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'QuaysideError';
    this.code = code;
  }
}
