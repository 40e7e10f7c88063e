import { ESLint } from 'eslint';
import { describe, expect, it, vi } from 'vitest';

// The boundary rules in eslint.config.js are only worth something if they fire. Each test lints
// code as if it were a real file of the project (the text replaces the file's content, its imports
// resolve from there) and checks the rule reports it, with its message, where it must, and only there.
const eslint = new ESLint({ cwd: process.cwd() });
// The first lint of each TypeScript project builds its program: long on a busy machine.
vi.setConfig({ testTimeout: 180_000 });

async function reports(ruleId: string, code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((message) => message.ruleId === ruleId).map((message) => message.message);
}

describe('src/core never imports src/sandbox', () => {
  const rule = 'import-x/no-restricted-paths';

  it.each([
    ['src/core/core.ts', "import { DEMO_API_KEY } from '../sandbox/index';\nexport const key = DEMO_API_KEY;\n"],
    ['src/core/session.ts', "import type { Sandbox } from '../sandbox/index';\nexport type Demo = Sandbox;\n"],
    ['src/core/sync/engine.ts', "import { startSandbox } from '../../sandbox';\nexport const start = startSandbox;\n"],
  ])('reports %s importing the sandbox, and says demo mode is injected', async (filePath, code) => {
    expect(await reports(rule, code, filePath)).toEqual([
      expect.stringMatching(/src\/core never imports the sandbox: demo mode gets its service injected/),
    ]);
  });

  it('lets core import its own demo-service interface, and main and the CLI import the sandbox', async () => {
    const core = "import type { DemoService } from './demo-service';\nexport type Demo = DemoService;\n";
    expect(await reports(rule, core, 'src/core/core.ts')).toEqual([]);
    const composer =
      "import { sandboxDemoService } from '../sandbox/demo-service';\nexport const demo = sandboxDemoService();\n";
    expect(await reports(rule, composer, 'src/main/index.ts')).toEqual([]);
    expect(await reports(rule, composer, 'src/cli/index.ts')).toEqual([]);
  });
});

describe('src/renderer imports only src/shared, itself and packages', () => {
  const rule = 'import-x/no-restricted-paths';
  const message = /The renderer imports only src\/shared, its own files and packages/;

  it.each(['core/core', 'main/security', 'sandbox/index', 'cli/exit-codes', 'preload/index'])(
    'reports a renderer module importing src/%s',
    async (target) => {
      const code = `import * as forbidden from '../../../${target}';\nexport const value = forbidden;\n`;
      expect(await reports(rule, code, 'src/renderer/src/lib/format.ts')).toEqual([expect.stringMatching(message)]);
    },
  );

  it('reports a component importing core', async () => {
    const code = `<script lang="ts">\n  import { QuaysideError } from '../../core/errors';\n  const name = QuaysideError.name;\n</script>\n\n<p>{name}</p>\n`;
    expect(await reports(rule, code, 'src/renderer/src/App.svelte')).toEqual([expect.stringMatching(message)]);
  });

  it('lets the renderer import src/shared, its own modules and packages', async () => {
    const code = [
      "import { z } from 'zod';",
      "import { contract } from '../../../shared/ipc';",
      "import { views } from './views';",
      'export const used = [z, contract, views];',
      '',
    ].join('\n');
    expect(await reports(rule, code, 'src/renderer/src/lib/format.ts')).toEqual([]);
  });
});

describe('only src/main and src/preload import electron', () => {
  const rule = '@typescript-eslint/no-restricted-imports';
  const code = "import { app } from 'electron';\nexport const name: string = app.name;\n";
  const message = /Only src\/main and src\/preload may import electron/;

  it.each([
    'src/core/core.ts',
    'src/shared/ipc.ts',
    'src/sandbox/index.ts',
    'src/cli/index.ts',
    'src/renderer/src/lib/format.ts',
    'scripts/make-icons.ts',
    'electron.vite.config.ts',
    'test/helpers/core.ts',
    'test/e2e/renderer/navigation.spec.ts',
  ])('reports electron imported in %s', async (filePath) => {
    expect(await reports(rule, code, filePath)).toEqual([expect.stringMatching(message)]);
  });

  it('reports a type-only import and a subpath too', async () => {
    const typeOnly = "import type { App } from 'electron';\nexport type Shown = App;\n";
    expect(await reports(rule, typeOnly, 'test/unit/updater.test.ts')).toEqual([expect.stringMatching(message)]);
    const subpath = "import { app } from 'electron/main';\nexport const name: string = app.name;\n";
    expect(await reports(rule, subpath, 'src/core/core.ts')).toEqual([expect.stringMatching(message)]);
  });

  it.each(['src/main/index.ts', 'src/preload/index.ts', 'test/e2e/electron/app.spec.ts'])(
    'allows electron in %s',
    async (filePath) => {
      expect(await reports(rule, code, filePath)).toEqual([]);
    },
  );
});

describe('no import cycles', () => {
  const rule = 'import-x/no-cycle';

  it('reports a module importing a module that imports it back', async () => {
    // test/fixtures/lint/cycle: a.ts and b.ts import each other (ignored by `npm run lint`).
    const linter = new ESLint({ cwd: process.cwd(), ignore: false });
    const [result] = await linter.lintFiles(['test/fixtures/lint/cycle/a.ts']);
    expect(result!.messages.filter((message) => message.ruleId === rule).map((m) => m.message)).toEqual([
      'Dependency cycle detected',
    ]);
  });

  it('reports a cycle through src: errors.ts importing core.ts, which imports errors.ts', async () => {
    const code = "import { createCore } from './core';\nexport const make = createCore;\n";
    expect(await reports(rule, code, 'src/core/errors.ts')).toEqual([expect.stringMatching(/Dependency cycle/)]);
  });

  it('passes a module whose imports do not lead back to it', async () => {
    const code = "import { QuaysideError } from './errors';\nexport const make = QuaysideError;\n";
    expect(await reports(rule, code, 'src/core/core-options.ts')).toEqual([]);
  });
});
