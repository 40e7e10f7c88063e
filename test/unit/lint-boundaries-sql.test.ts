import { ESLint, type Linter } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The SQL boundary is only worth something if it fires: lint code that runs SQL at real paths
// (the text replaces the file's content in the TypeScript program, so the rule sees real types)
// and check it is reported outside the store, and only there.
// The first lint builds the TypeScript program for type-aware rules: long on a busy machine.
describe('SQL stays in src/core/store (lint rule)', { timeout: 180_000 }, () => {
  const rule = 'quayside-store/no-sql-outside-store';
  const eslint = new ESLint({ cwd: resolve(import.meta.dirname, '../..') });

  async function lint(code: string, filePath: string): Promise<Linter.LintMessage[]> {
    const [result] = await eslint.lintText(code, { filePath });
    // A parse failure would also mean no type information: fail on it rather than pass quietly.
    expect(result!.messages.filter((m) => m.fatal)).toEqual([]);
    return result!.messages.filter((m) => m.ruleId === rule);
  }

  /** Code that runs SQL, importing the store's `Db` from `store` (relative to where it is linted). */
  const violatingFrom = (store: string) => `import Database from 'better-sqlite3';
import type { Db } from '${store}/database';

export function damage(db: Db, maybe?: Db): number {
  db.pragma('foreign_keys = OFF');
  db.exec('DELETE FROM webhooks');
  const inOne = db.transaction(() => maybe?.prepare('SELECT 1').get());
  inOne();
  const scratch = new Database(':memory:');
  return (db.prepare('SELECT count(*) AS n FROM shipments').get() as { n: number }).n + scratch.memory.toString().length;
}
`;
  const violating = violatingFrom('../store');

  it('reports a better-sqlite3 import and every prepare, exec, pragma and transaction on a database in a handler', async () => {
    const messages = await lint(violating, 'src/core/handlers/data.ts');
    expect(messages.map((m) => [m.line, m.message])).toEqual([
      [
        1,
        "Only src/core/store imports better-sqlite3. Hold the database as the store's `Db` (import type { Db } from '…/store/database') and call its queries.",
      ],
      ...[
        [5, 'pragma'],
        [6, 'exec'],
        [7, 'transaction'],
        [7, 'prepare'],
        [10, 'prepare'],
      ].map(([line, method]) => [
        line,
        `SQL runs only in src/core/store: db.${method}() belongs in a named query in src/core/store/queries/<domain>.ts; call that query here.`,
      ]),
    ]);
  });

  it('reports the same in the CLI and in main, and a type-only import of better-sqlite3 too', async () => {
    expect(await lint(violatingFrom('../../core/store'), 'src/cli/commands/status.ts')).toHaveLength(6);
    expect(await lint(violatingFrom('../core/store'), 'src/main/index.ts')).toHaveLength(6);
    const typeOnly = `import type Database from 'better-sqlite3';\nexport type Handle = Database.Database;\n`;
    expect((await lint(typeOnly, 'src/core/details/details.ts')).map((m) => m.line)).toEqual([1]);
  });

  it('lets the store, the simulator and tests run SQL', async () => {
    expect(await lint(violatingFrom('..'), 'src/core/store/queries/counts.ts')).toEqual([]);
    expect(await lint(violatingFrom('../core/store'), 'src/sandbox/server.ts')).toEqual([]);
    expect(await lint(violatingFrom('../../src/core/store'), 'test/integration/store.test.ts')).toEqual([]);
  });

  it('does not mistake RegExp exec or a child process exec for SQL, and lets code call store queries', async () => {
    const compliant = `import { exec } from 'node:child_process';
import type { Db } from '../store/database';
import { countSynced } from '../store/queries/counts';

const CONTAINER = /^[A-Z]{4}\\d{7}$/;
const tools = { exec: (text: string) => text.length, prepare: () => 0 };

export function shipmentsIf(db: Db, text: string): number {
  const match = CONTAINER.exec(text);
  exec('true');
  return match ? countSynced(db, 'shipments') + tools.exec(text) + tools.prepare() : 0;
}
`;
    expect(await lint(compliant, 'src/core/handlers/data.ts')).toEqual([]);
  });
});
