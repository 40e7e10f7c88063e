/**
 * The stages a forwarder thinks in ("Not picked up yet", "At sea", …) on a store synced from the
 * sandbox: each lists exactly the boxes at one of its statuses, read from the same store; a stage
 * beside ticked statuses lists the boxes that are both; the CLI's `--stage` exports what the
 * stage lists, and an unknown stage, or one given to a list without it, exits 2 with one sentence.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index';
import { exitCodes } from '../../src/cli/exit-codes';
import { openDatabase } from '../../src/core/store/database';
import { countContainers, listContainers } from '../../src/core/store/queries/containers';
import { DEMO_API_KEY } from '../../src/sandbox/index';
import { statusGroupMembers, statusGroups, type ContainerStatus, type StatusGroup } from '../../src/shared/status';
import { containerFiltersSchema, type ContainerFilters } from '../../src/shared/views';
import { capture } from '../helpers/capture';
import { useSandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp-dir';

async function cli(args: string[], env: Record<string, string> = {}) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const out = capture();
  const err = capture();
  try {
    const code = await runCli(args, { out: out.stream, err: err.stream });
    return { code, out: out.text(), err: err.text() };
  } finally {
    process.env = saved;
  }
}

const dbPath = join(tempDir(), 'stages.sqlite');
/** Every box the store lists, with the status its row shows. */
let boxes: { id: string; number: string | null; status: ContainerStatus }[] = [];

/** Every row the list gives for `filters`, page after page. */
function rowsOf(filters: ContainerFilters): { id: string; number: string | null; status: ContainerStatus }[] {
  const db = openDatabase(dbPath);
  try {
    const rows: { id: string; number: string | null; status: ContainerStatus }[] = [];
    let after: string | undefined;
    do {
      const page = listContainers(db, filters, { limit: 500, after });
      rows.push(...page.rows.map((r) => ({ id: r.id, number: r.number, status: r.status })));
      after = page.next ?? undefined;
    } while (after !== undefined);
    return rows;
  } finally {
    db.close();
  }
}

/** The ids of every box the list gives for `filters`. */
const listed = (filters: ContainerFilters): string[] =>
  rowsOf(filters)
    .map((r) => r.id)
    .sort();

const count = (filters: ContainerFilters): number => {
  const db = openDatabase(dbPath);
  try {
    return countContainers(db, filters);
  } finally {
    db.close();
  }
};

const idsAt = (statuses: readonly ContainerStatus[]) =>
  boxes
    .filter((b) => statuses.includes(b.status))
    .map((b) => b.id)
    .sort();

describe('status stages', () => {
  const sandbox = useSandbox({ seed: 'stages', shipments: 150 });

  beforeAll(async () => {
    const run = await cli(['sync', '--db', dbPath, '--base-url', sandbox.get().url, '--json'], {
      T49_API_TOKEN: DEMO_API_KEY,
    });
    expect(run.err).toBe('');
    expect(run.code).toBe(exitCodes.ok);
    boxes = rowsOf({});
    expect(boxes.length).toBe(count({}));
  }, 60_000);

  it.each(statusGroups)('%s lists exactly the boxes at its statuses', (group) => {
    const expected = idsAt(statusGroupMembers[group]);
    expect(expected.length, 'the sandbox has boxes at this stage').toBeGreaterThan(0);
    expect(expected.length, 'and boxes at other stages').toBeLessThan(boxes.length);
    expect(listed({ statusGroups: [group] })).toEqual(expected);
    expect(count({ statusGroups: [group] })).toBe(expected.length);
  });

  it('"Not picked up yet" is every box arrived and not yet out: on rail too, none at sea or picked up', () => {
    expect(
      boxes.some((b) => b.status === 'on_rail'),
      'the sandbox has boxes on rail',
    ).toBe(true);
    const waiting = new Set(listed({ statusGroups: ['not_picked_up'] }));
    for (const box of boxes) {
      const out = box.status === 'picked_up' || box.status === 'empty_returned';
      const toArrive = box.status === 'booked' || box.status === 'in_transit';
      expect(waiting.has(box.id), `${box.number ?? box.id} at ${box.status}`).toBe(!out && !toArrive);
    }
  });

  it('two stages list the boxes of either; a stage beside ticked statuses lists the boxes that are both', () => {
    const twoStages: StatusGroup[] = ['at_sea', 'returned'];
    expect(listed({ statusGroups: twoStages })).toEqual(
      idsAt([...statusGroupMembers.at_sea, ...statusGroupMembers.returned]),
    );
    const both = listed({ statusGroups: ['not_picked_up'], statuses: ['available', 'picked_up'] });
    expect(both).toEqual(idsAt(['available']));
    expect(both.length).toBeGreaterThan(0);
  });

  it('a saved stage is kept by name; an unknown one is refused', () => {
    expect(containerFiltersSchema.parse({ statusGroups: ['not_picked_up'] })).toEqual({
      statusGroups: ['not_picked_up'],
    });
    expect(containerFiltersSchema.safeParse({ statusGroups: ['waiting'] }).success).toBe(false);
  });

  it('export --stage writes the boxes the stage lists', async () => {
    const file = join(tempDir(), 'waiting.csv');
    const run = await cli([
      'export',
      'containers',
      '--db',
      dbPath,
      '--out',
      file,
      '--columns',
      'number',
      '--stage',
      'not-picked-up',
      '--stage',
      'returned',
    ]);
    expect(run.err).toBe('');
    expect(run.code).toBe(exitCodes.ok);
    const rows = parse<Record<string, string>>(readFileSync(file, 'utf8'), { bom: true, columns: true });
    const numbers = rows.map((row) => Object.values(row)[0]!).sort();
    const expected = boxes
      .filter((b) => [...statusGroupMembers.not_picked_up, 'empty_returned'].includes(b.status))
      .map((b) => b.number ?? '')
      .sort();
    expect(numbers).toEqual(expected);
  });

  it('an unknown stage, or a stage for a list without one, exits 2 with one sentence and writes nothing', async () => {
    const file = join(tempDir(), 'never.csv');
    const unknown = await cli(['export', 'containers', '--db', dbPath, '--out', file, '--stage', 'at_sea']);
    expect(unknown.code).toBe(exitCodes.usage);
    expect(unknown.out).toBe('');
    expect(unknown.err.split('\n')[0]).toBe(
      '--stage must be one of not-picked-up, at-sea, at-port, picked-up, returned; "at_sea" is not one.',
    );
    const shipments = await cli(['export', 'shipments', '--db', dbPath, '--out', file, '--stage', 'at-sea']);
    expect(shipments.code).toBe(exitCodes.usage);
    expect(shipments.err).toContain('shipments exports do not filter by stage');
    expect(() => readFileSync(file)).toThrow();
  });
});
