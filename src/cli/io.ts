import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface Output {
  write(text: string): unknown;
  /** A terminal (Node's streams say so); a pipe, a file or a test's buffer is not. */
  isTTY?: boolean;
}

export interface CommandIo {
  out: Output;
  err: Output;
  /** Ends long-running commands (tests use it in place of a signal). */
  signal?: AbortSignal;
}

/** A command line that does not make sense: exit code 2 with the usage text. */
export class UsageError extends Error {}

/** Node's `parseArgs`, its refusal (an unknown flag, a missing value) a usage error quoting its sentence. */
export function parseCommandLine<const T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * A command's progress, one line redrawn in place on a terminal. Where `err` is no terminal (a cron
 * job's log, a pipe) nothing is written: a line per redraw, or one long line of carriage returns,
 * would bury the command's answer. `clear` wipes the line before the answer, so no count of a
 * moment ago stands beside it (a sync refused at once otherwise left "page 0 of ~12" above
 * "Sync failed").
 */
export function progressLine(err: Output): { show(text: string): void; clear(): void } {
  let shown = false;
  return {
    show(text) {
      if (err.isTTY !== true) return;
      err.write(`\r\x1b[K${text}`);
      shown = true;
    },
    clear() {
      if (!shown) return;
      err.write('\r\x1b[K');
      shown = false;
    },
  };
}
