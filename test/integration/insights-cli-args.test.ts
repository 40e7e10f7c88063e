/**
 * `insights` refuses bad arguments with exit 2 and one sentence naming what is wrong (a day that
 * is not one, an unknown --by, the first day after the last, a zone Intl does not know), before
 * it opens anything: the database named is left as it was, and `help` lists the command.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodes } from '../../src/cli/exit-codes';
import { runCli } from '../../src/cli/index';
import { openDatabase } from '../../src/core/store/database';
import { capture } from '../helpers/capture';
import { tempDir } from '../helpers/temp-dir';

async function cli(args: string[]) {
  const out = capture();
  const err = capture();
  const code = await runCli(args, { out: out.stream, err: err.stream });
  return { code, out: out.text(), err: err.text() };
}

describe('insights arguments', () => {
  const db = join(tempDir(), 'insights.sqlite');
  openDatabase(db).close();
  const before = readFileSync(db);

  it.each([
    [['--from', '2026-02-30'], '--from must be a day such as 2026-05-01; "2026-02-30" is not one.'],
    [['--to', 'yesterday'], '--to must be a day such as 2026-05-01; "yesterday" is not one.'],
    [['--by', 'port'], '--by takes carrier, lane, carrier-lane, terminal; "port" is none of them.'],
    [
      ['--from', '2026-05-02', '--to', '2026-05-01'],
      '--from 2026-05-02 is after --to 2026-05-01: give the first day first.',
    ],
    [['--zone', 'Mars/Olympus'], '--zone must be a time zone such as Europe/Amsterdam; "Mars/Olympus" is not one.'],
    [['--min', '0'], '--min takes a whole number from 1 to 1000; "0" is not one.'],
    [['--customer', ' '], '--customer takes a customer’s name, 1 to 200 characters.'],
  ])('refuses %j in one sentence', async (args, sentence) => {
    const result = await cli(['insights', '--db', db, ...args]);
    expect(result.code).toBe(exitCodes.usage);
    expect(result.out).toBe('');
    expect(result.err.split('\n')[0]).toBe(sentence);
    expect(readFileSync(db)).toEqual(before);
  });

  it('needs --db, refuses an unknown flag, and creates no file for a bad argument', async () => {
    const missing = await cli(['insights', '--json']);
    expect(missing.code).toBe(exitCodes.usage);
    expect(missing.err.split('\n')[0]).toBe('insights needs --db PATH.');
    const unknown = await cli(['insights', '--db', db, '--carrier', 'MAEU']);
    expect(unknown.code).toBe(exitCodes.usage);
    expect(unknown.err).toMatch(/^Unknown option '--carrier'/);
    const elsewhere = join(tempDir(), 'none.sqlite');
    expect((await cli(['insights', '--db', elsewhere, '--by', 'ship'])).code).toBe(exitCodes.usage);
    expect(existsSync(elsewhere)).toBe(false);
  });

  it('answers an empty database with no groups, and is listed in help', async () => {
    const empty = await cli(['insights', '--db', db, '--json', '--zone', 'UTC']);
    expect(empty.code).toBe(exitCodes.ok);
    expect(JSON.parse(empty.out)).toMatchObject({ by: 'carrier', zone: 'UTC', groups: [] });
    const text = await cli(['insights', '--db', db, '--by', 'terminal']);
    expect(text.out).toBe('No shipments arrived in that range.\n');
    expect((await cli(['help'])).out).toContain('insights --db PATH [--from DAY] [--to DAY] [--customer NAME]');
  });
});
