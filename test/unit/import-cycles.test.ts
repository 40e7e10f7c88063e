import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// import-x/no-cycle (eslint.config.js) skips type-only imports, yet a circle of types is still a
// circle a reader has to untangle (core.ts and handlers/context.ts imported each other's types).
// This walks every import, types included, with TypeScript's own import scanner.

const root = process.cwd();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|svelte)$/.test(name) ? [path] : [];
  });
}

function resolveRelative(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  return (
    [base, `${base}.ts`, join(base, 'index.ts')].find((path) => existsSync(path) && statSync(path).isFile()) ?? null
  );
}

function importsOf(file: string): string[] {
  let text = readFileSync(file, 'utf8');
  if (file.endsWith('.svelte')) {
    text = [...text.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]).join('\n');
  }
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((imported) => resolveRelative(file, imported.fileName))
    .filter((path): path is string => path !== null);
}

/** Every cycle found by a depth-first walk, as paths relative to the project. */
function cyclesUnder(dir: string): string[] {
  const files = sourceFiles(resolve(root, dir));
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') {
        const cycle = [...stack.slice(stack.indexOf(next)), next];
        cycles.push(cycle.map((path) => relative(root, path)).join(' -> '));
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return cycles;
}

describe('import cycles, type imports included', () => {
  it('finds a cycle made of type-only imports', () => {
    expect(cyclesUnder('test/fixtures/lint/type-cycle')).toEqual([
      'test/fixtures/lint/type-cycle/a.ts -> test/fixtures/lint/type-cycle/b.ts -> test/fixtures/lint/type-cycle/a.ts',
    ]);
  });

  it('finds none in src', () => {
    expect(cyclesUnder('src')).toEqual([]);
  });
});
