/**
 * The app's log: plain text lines in `<dir>/quayside.log`, rotated by size (quayside.log.1 …
 * .N), every line scrubbed of API keys before it reaches the disk. It stays on this computer;
 * "Copy diagnostics" in Settings is the only way any of it leaves, and only by the user's hand.
 */
import { appendFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describeError, type Redactor } from './redact';

export interface FileLogOptions {
  dir: string;
  redactor: Redactor;
  /** Rotate when the file would pass this size. */
  maxBytes?: number;
  /** Rotated files kept beside the current one. */
  keep?: number;
  /** Also echo each line here (main passes the console). */
  echo?: (line: string) => void;
  now?: () => Date;
}

export interface FileLog {
  readonly path: string;
  write(level: 'info' | 'error', message: string, error?: unknown): void;
  /** The most recent error lines, newest last (for diagnostics). */
  recentErrors(): string[];
}

const RECENT = 30;

export function createFileLog(options: FileLogOptions): FileLog {
  const { dir, redactor, maxBytes = 1_000_000, keep = 3, echo, now = () => new Date() } = options;
  const path = join(dir, 'quayside.log');
  const recent: string[] = [];
  let broken = false;

  const rotate = () => {
    rmSync(`${path}.${keep}`, { force: true });
    for (let i = keep - 1; i >= 1; i--) {
      if (existsSync(`${path}.${i}`)) renameSync(`${path}.${i}`, `${path}.${i + 1}`);
    }
    renameSync(path, `${path}.1`);
  };

  return {
    path,
    write(level, message, error) {
      const detail = describeError(error);
      const line = redactor.scrub(
        `${now().toISOString()} ${level.toUpperCase()} ${message}${detail ? ` | ${detail.replaceAll('\n', '\n    ')}` : ''}`,
      );
      echo?.(line);
      if (level === 'error') {
        recent.push(line);
        if (recent.length > RECENT) recent.shift();
      }
      if (broken) return;
      try {
        mkdirSync(dir, { recursive: true });
        const size = existsSync(path) ? statSync(path).size : 0;
        if (size > 0 && size + line.length + 1 > maxBytes) rotate();
        appendFileSync(path, `${line}\n`, { mode: 0o600 });
      } catch {
        // A full or read-only disk must not take the app down with its log; it stops writing.
        broken = true;
      }
    },
    recentErrors: () => [...recent],
  };
}
