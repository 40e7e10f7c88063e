/**
 * What the team hub pull tests share: the CLI run in-process with its output captured, a copy's
 * records as `raw` prints them, and what a user compares two copies by (counts, records, list rows).
 */
import { runCli } from '../../src/cli/index';
import type { Db } from '../../src/core/store/database';
import { listQueries } from '../../src/core/store/queries/list-view';
import { rawTypes, readRaw, storedRecordIds } from '../../src/core/store/queries/raw';
import { countResources } from '../../src/core/store/sync-state';
import { DEMO_API_KEY } from '../../src/sandbox/index';
import { capture } from './capture';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** The CLI in this process; `env` set for the run only (the demo key for `hub`). */
export async function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const all = { T49_API_TOKEN: DEMO_API_KEY, ...env };
  const saved = Object.fromEntries(Object.keys(all).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(all)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  const out = capture();
  const err = capture();
  try {
    const code = await runCli(args, { out: out.stream, err: err.stream });
    return { code, out: out.text(), err: err.text() };
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** Every record the store keeps, as `raw` prints it, by type/id. */
export function storedRecords(db: Db): Map<string, string> {
  const records = new Map<string, string>();
  for (const type of rawTypes) {
    for (const id of storedRecordIds(db, type)) {
      const raw = readRaw(db, type, id);
      if (raw.found === 'record') records.set(`${type}/${id}`, raw.raw);
    }
  }
  return records;
}

/**
 * The rows of the shipments and containers lists as the app shows them, judged at one instant, by
 * id: rows whose sort keys tie are listed in the order the copy stored them, which two copies
 * written in different orders need not share.
 */
export function listRows(db: Db, now: string): unknown {
  const byId = <R extends { id: string }>(rows: R[]) => [...rows].sort((a, b) => a.id.localeCompare(b.id));
  return {
    shipments: byId(listQueries.shipments.page(db, {}, { limit: 1000, now, zone: 'UTC' }).rows),
    containers: byId(listQueries.containers.page(db, {}, { limit: 1000, now, zone: 'UTC' }).rows),
  };
}

/** What a user compares two copies of an account by. */
export function copyOf(db: Db, now: string) {
  return { counts: countResources(db), records: storedRecords(db), lists: listRows(db, now) };
}
