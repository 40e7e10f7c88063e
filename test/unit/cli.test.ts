import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { capture } from '../helpers/capture';
import { exitCodeFor } from '../../src/cli/exit-codes';
import { exitCodes, runCli } from '../../src/cli/index';
import { nodeTooOld } from '../../src/cli/node-guard';
import { tempDir } from '../helpers/temp-dir';

describe('cli', () => {
  it('prints usage for --help and exits 0', async () => {
    const out = capture();
    expect(await runCli(['--help'], { out: out.stream })).toBe(exitCodes.ok);
    expect(out.text()).toContain('Usage: npm run cli -- <command>');
  });

  it('exits with the usage code for an unknown command or option', async () => {
    const err = capture();
    expect(await runCli(['frobnicate'], { out: capture().stream, err: err.stream })).toBe(exitCodes.usage);
    expect(err.text()).toContain('Unknown command "frobnicate"');
    expect(await runCli(['info', '--bogus'], { out: capture().stream, err: capture().stream })).toBe(exitCodes.usage);
  });

  it('reports the data folder from QUAYSIDE_DATA_DIR as JSON', async () => {
    const dir = tempDir();
    const previous = process.env.QUAYSIDE_DATA_DIR;
    process.env.QUAYSIDE_DATA_DIR = dir;
    try {
      const out = capture();
      expect(await runCli(['info', '--json'], { out: out.stream })).toBe(exitCodes.ok);
      expect(JSON.parse(out.text())).toMatchObject({ name: 'Quayside', dataDir: dir, demo: true });
    } finally {
      if (previous === undefined) delete process.env.QUAYSIDE_DATA_DIR;
      else process.env.QUAYSIDE_DATA_DIR = previous;
    }
  });
});

describe('cli exit codes', () => {
  it('has its own code for "another sync of this database is running", listed in the usage text', async () => {
    expect(exitCodes.busy).toBe(7);
    expect(exitCodeFor('busy')).toBe(7);
    expect(new Set(Object.values(exitCodes)).size).toBe(Object.keys(exitCodes).length);
    const out = capture();
    await runCli(['help'], { out: out.stream });
    expect(out.text().replace(/\s+/g, ' ')).toContain('7 busy (another sync of the same database is running)');
  });
});

describe('Node version guard', () => {
  it('accepts Node 22.14 and newer, refuses older ones', () => {
    for (const old of ['20.20.2', 'v22.13.1', '18.0.0', '22.9.0']) expect(nodeTooOld(old)).toBe(true);
    for (const ok of ['22.14.0', 'v22.14.0', '22.20.1', '24.21.0', '25.0.0']) expect(nodeTooOld(ok)).toBe(false);
  });

  it('runs first at every npm entry point: each entry statically imports only Node built-ins and the guard', () => {
    const root = resolve(import.meta.dirname, '../..');
    const scripts = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    // bench builds before its entry runs, so it checks first.
    expect(scripts.bench).toMatch(/^tsx src\/cli\/node-guard\.ts && /);
    for (const name of ['cli', 'start', 'dev', 'bench', 'icons']) {
      const entries = [...scripts[name]!.matchAll(/tsx (?:--\S+ )*(\S+\.ts)/g)].map((m) => m[1]!);
      expect(entries.length, name).toBeGreaterThan(0);
      for (const entry of entries) {
        const source = ts.createSourceFile(entry, readFileSync(join(root, entry), 'utf8'), ts.ScriptTarget.Latest);
        const valueImports = source.statements
          .filter(ts.isImportDeclaration)
          .filter((d) => !d.importClause?.isTypeOnly)
          .map((d) => (d.moduleSpecifier as ts.StringLiteral).text);
        for (const specifier of valueImports) {
          expect(specifier.startsWith('node:') || /(^|\/)node-guard$/.test(specifier), `${entry}: ${specifier}`).toBe(
            true,
          );
        }
        expect(source.text, entry).toMatch(/requireSupportedNode\(\)/);
      }
    }
  });
});
