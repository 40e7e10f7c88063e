export interface Output {
  write(text: string): unknown;
}

export interface CommandIo {
  out: Output;
  err: Output;
  /** Ends long-running commands (tests use it in place of a signal). */
  signal?: AbortSignal;
}

/** A command line that does not make sense: exit code 2 with the usage text. */
export class UsageError extends Error {}
