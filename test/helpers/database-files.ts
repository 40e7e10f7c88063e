import { execFileSync } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

export const runningAsRoot = process.getuid?.() === 0;

/**
 * Makes files and folders read-only for real, so the open code meets the condition itself.
 * Root ignores mode bits, so as root on Linux the paths are made immutable (`chattr +i`: open
 * for writing fails with EPERM, creating a file in the folder too); otherwise the write bits go.
 * Returns the undo; a folder from `hostileDir` undoes it before it is removed anyway.
 */
export function makeReadOnly(...paths: string[]): () => void {
  const modes = paths.map((path) => statSync(path).mode & 0o7777);
  if (runningAsRoot && process.platform === 'linux') execFileSync('chattr', ['+i', ...paths]);
  else for (const [i, path] of paths.entries()) chmodSync(path, modes[i]! & ~0o222);
  for (const path of paths) {
    let writable = true;
    try {
      accessSync(path, constants.W_OK);
    } catch {
      writable = false;
    }
    if (writable) throw new Error(`${path} could not be made read-only on this machine`);
  }
  let undone = false;
  const undo = () => {
    if (undone) return;
    undone = true;
    if (runningAsRoot && process.platform === 'linux') execFileSync('chattr', ['-i', ...paths]);
    else for (const [i, path] of paths.entries()) chmodSync(path, modes[i]!);
  };
  pending.push(undo);
  return undo;
}

const pending: (() => void)[] = [];

/** A fresh folder whose read-only marks are undone and which is removed when the test ends. */
export function hostileDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quayside-dbfiles-'));
  onTestFinished(() => {
    for (const undo of pending.splice(0)) undo();
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

export function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}
