/**
 * Where the sync's WAL checkpoints run: a worker thread of their own in the app (its loop serves
 * the window), the sync's own connection in the CLI, which spares that thread's V8 heap.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index';
import { exitCodes } from '../../src/cli/exit-codes';
import { checkpointThreadStarted } from '../../src/core/store/checkpointer';
import { openDatabase } from '../../src/core/store/database';
import { maintainStoreInSteps } from '../../src/core/store/maintenance';
import { capture } from '../helpers/capture';
import { useSandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp-dir';

const KEY = 'checkpoint-here-KEY-1a2b3c4d5e6f';

/** A database with a few MB in its WAL, not yet in its file. */
function withWal(file: string) {
  const db = openDatabase(file);
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE filler (text TEXT)');
  const insert = db.prepare('INSERT INTO filler VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < 2000; i++) insert.run('x'.repeat(1000) + i);
  })();
  return db;
}

describe('WAL checkpoints', { timeout: 120_000 }, () => {
  const sandbox = useSandbox({ seed: 'checkpoint-here', shipments: 60, apiKeys: [KEY] });
  afterAll(() => {
    delete process.env.T49_API_TOKEN;
  });

  it('a CLI sync checkpoints on its own connection and never starts the checkpoint thread', async () => {
    process.env.T49_API_TOKEN = KEY;
    const db = join(tempDir(), 'cli.sqlite');
    const out = capture();
    expect(
      await runCli(['sync', '--db', db, '--base-url', sandbox.get().url, '--json'], {
        out: out.stream,
        err: capture().stream,
      }),
    ).toBe(exitCodes.ok);
    expect(JSON.parse(out.text().trim().split('\n').at(-1)!)).toMatchObject({ status: 'ok' });
    expect(checkpointThreadStarted()).toBe(false);
  });

  it('checkpointHere copies the WAL into the file on the same connection; else the thread does', async () => {
    const here = join(tempDir(), 'here.sqlite');
    const db = withWal(here);
    const before = statSync(here).size;
    await maintainStoreInSteps(db, { checkpoint: true, checkpointHere: true });
    expect(statSync(here).size).toBeGreaterThan(before + 1_000_000);
    expect(checkpointThreadStarted()).toBe(false);
    db.close();

    const aside = join(tempDir(), 'aside.sqlite');
    const other = withWal(aside);
    const start = statSync(aside).size;
    await maintainStoreInSteps(other, { checkpoint: true });
    expect(statSync(aside).size).toBeGreaterThan(start + 1_000_000);
    expect(checkpointThreadStarted()).toBe(true);
    other.close();
  });
});
