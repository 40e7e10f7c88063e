/**
 * What a laptop takes from a hub's answers before anything is applied (`puller.ts`): a page's
 * rows as records, tombstones and the hub's latest sync run, each record's JSON checked as the
 * API sync checks the service's resources (its nesting, its shape, `api/document.ts`) and as
 * naming the type and id of its row; the seqs as whole numbers that only grow, from after the
 * copy's last one; no more rows than asked. Any row that is none of these refuses its page whole
 * with one sentence, so a broken or hostile hub never leaves half a page, a record the writer
 * cannot read, or a seq that would skip or repeat rows.
 */
import { resourceOf } from '../api/document';
import { rawTypes } from '../store/queries/raw';
import type { StoredResource } from '../store/resource';
import { HubError, quoted } from './errors';

/** A record's JSON larger than this (counted as read) is no record of the service's. */
const MAX_BODY_CHARS = 16 * 1024 * 1024;
/** A seq: a bigint of PostgreSQL's, never negative. */
const SEQ = /^(0|[1-9][0-9]{0,18})$/;
const MAX_SEQ = 2n ** 63n - 1n;
const storedTypes = new Set<string>(rawTypes);

export interface PublishedRow {
  seq: string;
  kind: string;
  type: string;
  id: string;
  body: string | null;
}

export interface HubRun {
  id: number;
  status: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface PulledPage {
  records: StoredResource[];
  tombstones: { type: string; id: string }[];
  hubRun: HubRun | null;
  /** The page's last seq. */
  last: bigint;
}

/** A seq of the hub's as a bigint, or null when the text is none. */
export function seqOf(value: unknown): bigint | null {
  if (typeof value !== 'string' || !SEQ.test(value)) return null;
  const seq = BigInt(value);
  return seq <= MAX_SEQ ? seq : null;
}

/**
 * The rows of a page asked for after `after`, at most `pageRows` of them; a HubError naming
 * `where` (the address without its password) refuses the page.
 */
export function readPage(rows: readonly PublishedRow[], where: string, after: bigint, pageRows: number): PulledPage {
  const refuse = (what: string) =>
    new HubError('failure', `PostgreSQL at ${where} sent ${what}; nothing of its page was applied.`);
  if (rows.length > pageRows) throw refuse(`${rows.length} rows for a page of at most ${pageRows}`);
  const out: PulledPage = { records: [], tombstones: [], hubRun: null, last: after };
  for (const row of rows) {
    const seq = seqOf(row.seq);
    if (seq === null) throw refuse(`a row with a seq that is no whole number (${quoted(row.seq)})`);
    if (seq <= out.last) throw refuse(`seq ${seq} after seq ${out.last} (a hub's seqs only grow)`);
    out.last = seq;
    const bad = (what: string) => refuse(`a row (seq ${seq}) that ${what}`);
    if (typeof row.body === 'string' && row.body.length > MAX_BODY_CHARS) throw bad('is larger than any record');
    if (row.kind === 'record') {
      // A type this build keeps no records of is left out, as a direct sync leaves it out.
      if (!storedTypes.has(row.type)) continue;
      if (row.body === null) {
        out.tombstones.push({ type: row.type, id: String(row.id) });
        continue;
      }
      const record = typeof row.body === 'string' ? resourceOf(row.body) : null;
      if (!record || record.type !== row.type || record.id !== row.id) {
        throw bad(`is not the ${quoted(row.type)} record ${quoted(row.id)} it names`);
      }
      out.records.push(record);
    } else if (row.kind === 'sync_run' && typeof row.body === 'string') {
      const run = hubRunOf(row.id, row.body);
      if (run && (!out.hubRun || run.id > out.hubRun.id)) out.hubRun = run;
    }
    // 'change': the laptop records its own history as it applies records (`puller.ts`).
  }
  return out;
}

/** The hub's sync run as `HubSource` keeps it, its texts short (a status, two instants), or null. */
function hubRunOf(idText: unknown, body: string): HubRun | null {
  const id = Number(idText);
  if (!Number.isSafeInteger(id)) return null;
  let run: unknown;
  try {
    run = JSON.parse(body) as unknown;
  } catch {
    return null;
  }
  if (typeof run !== 'object' || run === null) return null;
  const r = run as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v.length <= 64 ? v : null);
  return { id, status: text(r.status) ?? 'unknown', startedAt: text(r.started_at), finishedAt: text(r.finished_at) };
}
