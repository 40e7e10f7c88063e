/**
 * Alerts end to end: syncs of the sandbox with its clock moved on between them,
 * then `npm run cli -- alerts --db PATH --json`. Each rule raises exactly what the store says it
 * should, each occurrence once; a rule turned off raises nothing.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index';
import { exitCodes } from '../../src/cli/exit-codes';
import { defaultNotificationSettings, type NotificationSettings } from '../../src/shared/alerts';
import { capture } from '../helpers/capture';
import { call, useSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';

const DAY = 86_400;
const DAY_MS = DAY * 1000;

async function cli(args: string[]) {
  const out = capture();
  const err = capture();
  const code = await runCli(args, { out: out.stream, err: err.stream });
  return { code, out: out.text(), err: err.text() };
}

interface CliAlert {
  rule: string;
  resource: string;
  number: string | null;
  detail: string;
  raised_at: string;
  run_id: number;
  record_id: string;
}

describe('alerts over syncs, and the CLI', () => {
  const sandbox = useSandbox({ seed: 'alerts', shipments: 80, start: Date.parse('2026-03-02T09:00:00Z'), tick: 0 });

  it('raises each rule’s alerts once, as the store’s data and changes say, and lists them with alerts --json', async () => {
    const box = sandbox.get();
    const sync = syncOf(box, { now: () => box.clock.now() });
    const first = await sync.engine.run({ mode: 'full' });
    expect(first.status).toBe('ok');
    const count = (sql: string, ...params: unknown[]) =>
      sync.db
        .prepare(sql)
        .pluck()
        .get(...params) as number;

    // First sync: only last free days within 2 days of the (sandbox's) now, for boxes not picked up.
    const now = box.clock.now();
    const dueSoon = (at: number) =>
      (
        sync.db
          .prepare(
            `SELECT id FROM containers WHERE lfd_deadline_at >= ? AND lfd_deadline_at <= ?
             AND pod_full_out_at IS NULL AND status NOT IN ('picked_up', 'empty_returned') ORDER BY id`,
          )
          .pluck()
          .all(new Date(at).toISOString(), new Date(at + 2 * DAY_MS).toISOString()) as string[]
      ).sort();
    const firstDue = dueSoon(now);
    expect(firstDue.length).toBeGreaterThan(0);
    const rulesOf = (runId: number) =>
      sync.db.prepare('SELECT rule, record_id FROM alerts WHERE run_id = ? ORDER BY rule, record_id').all(runId) as {
        rule: string;
        record_id: string;
      }[];
    expect(rulesOf(first.runId)).toEqual(firstDue.map((id) => ({ rule: 'lfd_soon', record_id: id })));

    const failedIds = () =>
      new Set(sync.db.prepare("SELECT id FROM tracking_requests WHERE status = 'failed'").pluck().all() as string[]);
    const failedAfterFirst = failedIds();
    // A tracking request that will fail (a container number with a wrong check digit).
    const created = await call(box, '/tracking_requests', {
      method: 'POST',
      body: {
        data: {
          type: 'tracking_request',
          attributes: { request_type: 'container', request_number: 'MSCU1234560', scac: 'MSCU' },
        },
      },
    });
    expect(created.status).toBe(201);
    const failingId = (created.body as { data: { id: string } }).data.id;

    box.advance(4 * DAY);
    const second = await sync.engine.run({ mode: 'incremental' });
    expect(second.status).toBe('ok');
    const raised = rulesOf(second.runId);
    const ofRule = (rule: string) =>
      raised
        .filter((a) => a.rule === rule)
        .map((a) => a.record_id)
        .sort();

    // Became available: exactly the recorded availability changes to "yes" of this run.
    const changed = (field: string, extra = '') =>
      (
        sync.db
          .prepare(`SELECT DISTINCT record_id FROM record_changes WHERE field = ? ${extra} ORDER BY record_id`)
          .pluck()
          .all(field) as string[]
      ).sort();
    expect(ofRule('available')).toEqual(changed('available', "AND new_value = 'true'"));
    expect(ofRule('available').length).toBeGreaterThan(0);
    // Holds: one alert per hold put on or released.
    expect(raised.filter((a) => a.rule === 'hold')).toHaveLength(
      count("SELECT count(*) FROM record_changes WHERE field IN ('hold', 'facility_hold')"),
    );
    // ETA slips: the ETA changes later by more than two days, and no other.
    const slips = (
      sync.db
        .prepare("SELECT record_id, old_value, new_value FROM record_changes WHERE field IN ('eta', 'destination_eta')")
        .all() as {
        record_id: string;
        old_value: string | null;
        new_value: string | null;
      }[]
    )
      .filter(
        (c) =>
          c.old_value &&
          c.new_value &&
          Date.parse(JSON.parse(c.new_value)) - Date.parse(JSON.parse(c.old_value)) > 2 * DAY_MS,
      )
      .map((c) => c.record_id)
      .sort();
    expect(ofRule('eta_slip')).toEqual(slips);
    // Every request that failed during the run (ours among them), and none that had failed before.
    const newlyFailed = [...failedIds()].filter((id) => !failedAfterFirst.has(id)).sort();
    expect(newlyFailed).toContain(failingId);
    expect(ofRule('tracking_failed')).toEqual(newlyFailed);
    // Last free days now within 2 days, minus those the first sync raised for the same day.
    const firstLfd = new Map(
      (
        sync.db.prepare('SELECT record_id, occurrence FROM alerts WHERE run_id = ?').all(first.runId) as {
          record_id: string;
          occurrence: string;
        }[]
      ).map((a) => [a.record_id, a.occurrence]),
    );
    const lfdOf = (id: string) =>
      `lfd:${sync.db.prepare('SELECT last_free_day FROM containers WHERE id = ?').pluck().get(id) as string}`;
    expect(ofRule('lfd_soon')).toEqual(dueSoon(box.clock.now()).filter((id) => firstLfd.get(id) !== lfdOf(id)));

    // A sync that sees nothing new raises nothing.
    const third = await sync.engine.run({ mode: 'incremental' });
    expect(third.status).toBe('ok');
    expect(rulesOf(third.runId)).toEqual([]);
    sync.close();

    // The CLI prints every alert, oldest first, in its contract's shape; --run picks one sync's.
    const all = await cli(['alerts', '--db', sync.dbPath, '--json']);
    expect(all.code).toBe(exitCodes.ok);
    const { alerts } = JSON.parse(all.out) as { alerts: CliAlert[] };
    expect(alerts).toHaveLength(firstDue.length + raised.length);
    for (const alert of alerts) {
      expect(Object.keys(alert).sort()).toEqual([
        'detail',
        'number',
        'raised_at',
        'record_id',
        'resource',
        'rule',
        'run_id',
      ]);
      expect(alert.detail.length).toBeGreaterThan(0);
    }
    expect(alerts.map((a) => a.raised_at)).toEqual([...alerts.map((a) => a.raised_at)].sort());
    // Within a sync, the most urgent kind first, as the notification lists them.
    const ranks = ['lfd_soon', 'available', 'hold', 'eta_slip', 'tracking_failed'];
    const secondRanks = alerts.filter((a) => a.run_id === second.runId).map((a) => ranks.indexOf(a.rule));
    expect(new Set(secondRanks).size).toBeGreaterThan(3);
    expect(secondRanks).toEqual([...secondRanks].sort((x, y) => x - y));
    const failed = alerts.find((a) => a.record_id === failingId);
    expect(failed).toMatchObject({ resource: 'tracking_request', number: 'MSCU1234560', record_id: failingId });
    expect(failed!.detail).toMatch(/^Tracking failed: invalid number$/);
    const slip = alerts.find((a) => a.rule === 'eta_slip');
    expect(slips.length).toBeGreaterThan(0);
    expect(slip!.detail).toMatch(/^ETA at the (port of discharge|destination) \d+ days? later: /);
    const onlySecond = await cli(['alerts', '--db', sync.dbPath, '--run', String(second.runId), '--json']);
    expect((JSON.parse(onlySecond.out) as { alerts: CliAlert[] }).alerts).toHaveLength(raised.length);
    // The text form is a table with a count; a bad --run is a usage error in one sentence.
    const text = await cli(['alerts', '--db', sync.dbPath]);
    expect(text.out).toContain(`${alerts.length} alerts.`);
    const bad = await cli(['alerts', '--db', sync.dbPath, '--run', 'latest']);
    expect(bad.code).toBe(exitCodes.usage);
    expect(bad.err).toContain("--run must be a sync's number");
  });

  describe('with boxes due over the coming week', () => {
    // A sandbox of its own, from its start, large enough that last free days fall on every day ahead.
    const days = useSandbox({ seed: 'alerts', shipments: 300, start: Date.parse('2026-03-02T09:00:00Z'), tick: 0 });

    it('raises nothing for a rule turned off, and honours the days chosen', async () => {
      const box = days.get();
      const off: NotificationSettings = {
        ...defaultNotificationSettings,
        lfdSoon: { on: true, days: 7 },
        available: { on: false },
        holds: { on: false },
        etaSlip: { on: false, days: 2 },
        trackingFailed: { on: false },
      };
      const sync = syncOf(box, { now: () => box.clock.now(), alertRules: () => off });
      expect((await sync.engine.run({ mode: 'full' })).status).toBe('ok');
      box.advance(3 * DAY);
      expect((await sync.engine.run({ mode: 'incremental' })).status).toBe('ok');
      const rules = sync.db.prepare('SELECT DISTINCT rule FROM alerts').pluck().all();
      expect(rules).toEqual(['lfd_soon']);
      // With 7 days, boxes due in 3 to 7 days are raised too: more than the 2-day window holds.
      const now = new Date(box.clock.now()).toISOString();
      const inTwo = new Date(box.clock.now() + 2 * DAY_MS).toISOString();
      const beyondTwo = sync.db
        .prepare(
          'SELECT count(*) FROM alerts a JOIN containers c ON c.id = a.record_id WHERE c.lfd_deadline_at > ? AND a.raised_at >= ?',
        )
        .pluck()
        .get(inTwo, now) as number;
      expect(beyondTwo).toBeGreaterThan(0);
      sync.close();
    });
  });
});
