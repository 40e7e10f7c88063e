import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layering rule is only worth something if it fires: lint real paths with an import of
// electron and check the rule reports it where it must, and only there.
// The first lint builds the TypeScript program for type-aware rules: long on a busy machine.
describe('layering lint rule', { timeout: 180_000 }, () => {
  const eslint = new ESLint({ cwd: process.cwd() });
  const code = "import { app } from 'electron';\nexport const name: string = app.name;\n";

  async function restrictedImportsIn(filePath: string): Promise<number> {
    const [result] = await eslint.lintText(code, { filePath });
    return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').length;
  }

  it.each(['src/core/core.ts', 'src/shared/ipc.ts', 'src/sandbox/index.ts', 'src/cli/index.ts'])(
    'forbids importing electron in %s',
    async (filePath) => {
      expect(await restrictedImportsIn(filePath)).toBe(1);
    },
  );

  it('allows electron in the main process glue', async () => {
    expect(await restrictedImportsIn('src/main/index.ts')).toBe(0);
  });
});
