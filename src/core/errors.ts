import type { ErrorCode, ExistingTrackingRequest } from '../shared/ipc';

/** An error whose message is fit to show a forwarder, with a code the renderer can act on. */
export class QuaysideError extends Error {
  readonly code: ErrorCode;
  /** A message per form field, for `rejected` and `invalid_argument`. */
  fields?: Record<string, string>;
  /** For `already_tracked`: the tracking request that already exists. */
  existing?: ExistingTrackingRequest;
  constructor(
    code: ErrorCode,
    message: string,
    options?: { cause?: unknown; fields?: Record<string, string>; existing?: ExistingTrackingRequest },
  ) {
    super(message, options);
    this.name = 'QuaysideError';
    this.code = code;
    if (options?.fields) this.fields = options.fields;
    if (options?.existing) this.existing = options.existing;
  }
}
