/**
 * `sync --hub URL --db PATH`: a laptop's pull from a team hub (`core/team/puller.ts`), as the
 * app's team hub account pulls: no API key, no request to the service. The password comes from
 * the URL, else QUAYSIDE_HUB_PASSWORD; it is never printed (messages name the address without it).
 */
import type { PullSummary } from '../../core/team/puller';
import { laptopHubAddress, pullFromHub } from '../../core/team/puller';
import { HubError } from '../../core/team/errors';
import { openDatabase } from '../../core/store/database';
import { exitCodes } from '../exit-codes';
import { progressLine, UsageError, type CommandIo } from '../io';

/** SQLite's page cache of a CLI pull, in MB, as a CLI sync's. */
const CLI_PULL_CACHE_MB = 8;

export interface HubPullValues {
  hub: string;
  db?: string;
  json?: boolean;
  /** Options of an API sync, refused beside --hub. */
  others: string[];
}

export async function runHubPull(values: HubPullValues, io: CommandIo): Promise<number> {
  if (values.others.length > 0) {
    throw new UsageError(`sync --hub pulls from the hub alone; it takes no ${values.others.join(', ')}`);
  }
  if (!values.db) throw new UsageError('sync --hub needs --db PATH');
  let address;
  try {
    address = laptopHubAddress(values.hub, process.env.QUAYSIDE_HUB_PASSWORD || undefined);
  } catch (error) {
    if (!(error instanceof HubError)) throw error;
    io.err.write(`${error.message}\n`);
    return exitCodes.usage;
  }
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  io.signal?.addEventListener('abort', stop);
  const progress = progressLine(io.err);
  const db = openDatabase(values.db, { cacheMb: CLI_PULL_CACHE_MB });
  try {
    const summary = await pullFromHub({
      db,
      dbPath: values.db,
      address,
      signal: controller.signal,
      onProgress: values.json
        ? undefined
        : (p) => progress.show(`Pulling from the hub: page ${p.pages}, sequence ${p.lastSeq} of ~${p.targetSeq}`),
    });
    progress.clear();
    if (values.json) io.out.write(`${pullJson(summary)}\n`);
    else if (summary.status === 'ok') io.out.write(pullText(summary));
    else io.err.write(`${summary.error?.message ?? 'The pull failed.'}\n`);
    return exitCodeOf(summary);
  } finally {
    progress.clear();
    process.off('SIGINT', stop);
    db.close();
  }
}

function exitCodeOf(summary: PullSummary): number {
  if (summary.status === 'ok') return exitCodes.ok;
  switch (summary.error?.kind) {
    case 'usage':
      return exitCodes.usage;
    case 'auth':
      return exitCodes.auth;
    case 'network':
      return exitCodes.network;
    case 'busy':
      return exitCodes.busy;
    case 'cancelled':
      return exitCodes.cancelled;
    default:
      return exitCodes.failure;
  }
}

function pullText(s: PullSummary): string {
  const counts = Object.entries(s.counts)
    .map(([type, n]) => `${n} ${type.replaceAll('_', ' ')}`)
    .join(', ');
  const behind =
    s.hubBehind === 'replica'
      ? `The hub's copy ends before this one (sequence ${s.fromSeq}): a replica catching up; nothing was pulled.\n`
      : s.hubBehind === 'restored'
        ? 'The hub ends before this copy (restored from a backup?): everything was pulled again.\n'
        : '';
  return (
    `Pulled from ${s.hub} in ${(s.durationMs / 1000).toFixed(1)} s: ${s.pages} pages, up to sequence ${s.lastSeq}.\n` +
    `Written: ${counts || 'nothing'}; ${s.deletions} deleted.${s.alerts > 0 ? ` ${s.alerts} new alerts.` : ''}\n${behind}`
  );
}

function pullJson(s: PullSummary): string {
  return JSON.stringify({
    status: s.status,
    hub: s.hub,
    pages: s.pages,
    counts: s.counts,
    deletions: s.deletions,
    from_seq: s.fromSeq,
    last_seq: s.lastSeq,
    hub_behind: s.hubBehind,
    alerts: s.alerts,
    duration_ms: s.durationMs,
    error: s.error,
  });
}
