import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Writes a whole file or nothing: to a sibling temp file, flushed, then renamed over the
 * target. A full disk or a crash leaves the previous contents in place. The folder is created
 * when it is missing (a fresh machine: the first profile or setting creates the data folder).
 */
export function writeFileAtomic(file: string, contents: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  try {
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeSync(fd, contents);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
