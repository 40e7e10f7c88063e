import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// No source file over 500 lines, but the sandbox's data (tables of carriers and
// terminals). A file that grows past it is split where its parts are independent (DataTable's
// cell styles went to data-table-cells.css).

const root = process.cwd();
const MAX_LINES = 500;
const EXEMPT = join('src', 'sandbox', 'data');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return relative(root, path) === EXEMPT ? [] : sourceFiles(path);
    return /\.(ts|svelte|css|js|mjs)$/.test(name) ? [path] : [];
  });
}

describe('source files', () => {
  it(`are at most ${MAX_LINES} lines each (the sandbox's data tables aside)`, () => {
    const files = sourceFiles(join(root, 'src'));
    // The walk found the code (a wrong root would pass with nothing to check).
    expect(files.length).toBeGreaterThan(100);
    const long = files
      .map((file) => ({ file: relative(root, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
