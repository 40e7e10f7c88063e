import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

/** A fresh folder, removed when the test (or, made outside a test, the file's suite) ends. */
export function tempDir(prefix = 'quayside-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    onTestFinished(remove);
  } catch {
    afterAll(remove);
  }
  return dir;
}
