/**
 * `quayside export` with days counted from today: `--lfd-within 5` lists the boxes whose last
 * free day is today to 5 days on, `--overdue` alone the overdue ones (and with `--lfd-within`,
 * both), `--eta-within` and `--late` the same for the ETA. The old `--overdue true|false` still
 * works; a bad count or a flag the list has no date for exits 2 with one sentence.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index';
import { exitCodes } from '../../src/cli/exit-codes';
import { openDatabase } from '../../src/core/store/database';
import { writeResources } from '../../src/core/store/writer';
import { addDays } from '../../src/shared/date-filters';
import { capture } from '../helpers/capture';
import { containerResource, shipmentResource } from '../helpers/resources';
import { tempDir } from '../helpers/temp-dir';

// Days around today (the CLI's clock, in the zone the tests run in: UTC). Each box is at least a
// day from an edge of "5 days", so a run across midnight lists the same boxes.
const today = new Date().toISOString().slice(0, 10);
const lfds: Record<string, string> = {
  DUE_IN_2: addDays(today, 2),
  DUE_IN_3: addDays(today, 3),
  DUE_IN_9: addDays(today, 9),
  OVERDUE_3: addDays(today, -3),
};
const HOUR = 3_600_000;
const at = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();
const etas: Record<string, { pod_eta_at: string; pod_ata_at: string | null }> = {
  ARRIVING_IN_2: { pod_eta_at: at(48), pod_ata_at: null },
  ARRIVING_IN_9: { pod_eta_at: at(9 * 24), pod_ata_at: null },
  LATE_2: { pod_eta_at: at(-48), pod_ata_at: null },
  ARRIVED_2: { pod_eta_at: at(-50), pod_ata_at: at(-48) },
};

const dbPath = join(tempDir(), 'date-flags.sqlite');
const db = openDatabase(dbPath);
writeResources(
  db,
  [
    shipmentResource(
      { bill_of_lading_number: 'BOXES', pod_eta_at: at(-24 * 20), pod_ata_at: at(-24 * 20) },
      { id: 's-boxes', containers: Object.keys(lfds) },
    ),
    ...Object.entries(lfds).map(([number, lfd]) =>
      containerResource(
        's-boxes',
        { number, current_status: 'available', available_for_pickup: true, pickup_lfd: lfd, pod_timezone: 'UTC' },
        number,
      ),
    ),
    ...Object.entries(etas).map(([bl, dates]) =>
      shipmentResource({ bill_of_lading_number: bl, ...dates }, { id: `s-${bl}` }),
    ),
  ],
  { syncedAt: at(-1) },
);
db.close();

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = capture();
  const err = capture();
  const code = await runCli(args, { out: out.stream, err: err.stream });
  return { code, out: out.text(), err: err.text() };
}

/** The numbers (container or BL) an export of `list` with `flags` writes. */
async function exported(list: 'containers' | 'shipments', flags: string[]): Promise<string[]> {
  const file = join(tempDir(), `${list}.csv`);
  const run = await cli(['export', list, '--db', dbPath, '--out', file, '--columns', 'number', ...flags]);
  expect(run.err).toBe('');
  expect(run.code).toBe(exitCodes.ok);
  const rows = parse<Record<string, string>>(readFileSync(file, 'utf8'), { bom: true, columns: true });
  return rows.map((row) => Object.values(row)[0]!).sort();
}

describe('export with days counted from today', () => {
  it('lists the boxes due within the days given, the overdue ones, or both', async () => {
    expect(await exported('containers', ['--lfd-within', '5'])).toEqual(['DUE_IN_2', 'DUE_IN_3']);
    expect(await exported('containers', ['--overdue'])).toEqual(['OVERDUE_3']);
    expect(await exported('containers', ['--lfd-within', '5', '--overdue'])).toEqual([
      'DUE_IN_2',
      'DUE_IN_3',
      'OVERDUE_3',
    ]);
    expect(await exported('containers', ['--overdue', '--lfd-within', '10'])).toEqual([
      'DUE_IN_2',
      'DUE_IN_3',
      'DUE_IN_9',
      'OVERDUE_3',
    ]);
  });

  it('still takes --overdue true and false as before', async () => {
    expect(await exported('containers', ['--overdue', 'true'])).toEqual(['OVERDUE_3']);
    expect(await exported('containers', ['--overdue', 'false'])).toEqual(['DUE_IN_2', 'DUE_IN_3', 'DUE_IN_9']);
    expect(await exported('containers', ['--overdue=false', '--lfd-within', '5'])).toEqual(['DUE_IN_2', 'DUE_IN_3']);
  });

  it('lists shipments arriving within the days given, and those late', async () => {
    expect(await exported('shipments', ['--eta-within', '5'])).toEqual(['ARRIVING_IN_2']);
    expect(await exported('shipments', ['--late'])).toEqual(['LATE_2']);
    expect(await exported('shipments', ['--eta-within', '5', '--late'])).toEqual(['ARRIVING_IN_2', 'LATE_2']);
  });

  it('refuses a count that is not whole days, and a date the list does not have, in one sentence with exit 2', async () => {
    const out = join(tempDir(), 'refused.csv');
    for (const [args, sentence] of [
      [
        ['containers', '--lfd-within', 'five'],
        /^--lfd-within takes a whole number of days from 1 to 366, such as 5; "five" is not one\.\n$/,
      ],
      [['containers', '--lfd-within', '0'], /^--lfd-within takes a whole number of days .*"0" is not one\.\n$/],
      [['containers', '--lfd-within', '2.5'], /^--lfd-within takes .*"2\.5" is not one\.\n$/],
      [['shipments', '--eta-within', '400'], /^--eta-within takes .*"400" is not one\.\n$/],
      [['shipments', '--lfd-within', '5'], /^shipments exports do not filter by last free day\n$/],
      [['tracking-requests', '--late'], /^tracking-requests exports do not filter by ETA\n$/],
    ] as const) {
      const run = await cli(['export', ...args, '--db', dbPath, '--out', out]);
      expect(run.code, args.join(' ')).toBe(exitCodes.usage);
      expect(run.err.split('\n')[0]! + '\n', args.join(' ')).toMatch(sentence);
    }
  });
});
