/**
 * The app's log: plain text lines in `<dir>/quayside.log`, rotated by size (quayside.log.1 …
 * .N), every line scrubbed of API keys before it reaches the disk. It stays on this computer;
 * "Copy diagnostics" in Settings is the only way any of it leaves, and only by the user's hand.
 */
import { appendFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describeError, type Redactor } from './redact';

export interface FileLogOptions {
  /** The log file's folder; without one, lines are only echoed and kept for diagnostics. */
  dir?: string;
  redactor: Redactor;
  /** Rotate when the file would pass this size. */
  maxBytes?: number;
  /** Rotated files kept beside the current one. */
  keep?: number;
  /** Also echo each message here, scrubbed, without time or level (main passes the console). */
  echo?: (line: string) => void;
  now?: () => Date;
}

export interface FileLog {
  readonly path: string | null;
  write(level: 'info' | 'error', message: string, error?: unknown): void;
  /** The most recent error lines, newest last (for diagnostics). */
  recentErrors(): string[];
}

const RECENT = 30;

export function createFileLog(options: FileLogOptions): FileLog {
  const { dir, redactor, maxBytes = 1_000_000, keep = 3, echo, now = () => new Date() } = options;
  const path = dir === undefined ? null : join(dir, 'quayside.log');
  const recent: string[] = [];
  let broken = false;

  const rotate = (path: string) => {
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
      const body = redactor.scrub(`${message}${detail ? ` | ${detail}` : ''}`);
      // The echo (main's console) stamps its own time; the file's lines carry theirs.
      echo?.(body);
      const line = `${now().toISOString()} ${level.toUpperCase()} ${body.replaceAll('\n', '\n    ')}`;
      if (level === 'error') {
        recent.push(line);
        if (recent.length > RECENT) recent.shift();
      }
      if (broken || dir === undefined || path === null) return;
      try {
        mkdirSync(dir, { recursive: true });
        const size = existsSync(path) ? statSync(path).size : 0;
        if (size > 0 && size + line.length + 1 > maxBytes) rotate(path);
        appendFileSync(path, `${line}\n`, { mode: 0o600 });
      } catch {
        // A full or read-only disk must not take the app down with its log; it stops writing.
        broken = true;
      }
    },
    recentErrors: () => [...recent],
  };
}
