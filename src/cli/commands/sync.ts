import { parseArgs } from 'node:util';
import { openSync } from '../../core/sync/open-sync';
import type { SyncSummary } from '../../core/sync/types';
import { parseRateLimit } from '../../sandbox/rate-limit';
import { exitCodeFor, exitCodes } from '../exit-codes';
import { UsageError, type CommandIo } from '../io';

export const syncUsage = `sync --db PATH [--base-url URL] [--rate-limit N/SECONDS] [--full] [--json]
                      Sync the account into the database at PATH (created if missing). The key comes
                      from T49_API_TOKEN. Base URL default https://api.terminal49.com/v2.`;

export const DEFAULT_BASE_URL = 'https://api.terminal49.com/v2';

/** The one-line JSON summary scripts read. */
export function summaryJson(summary: SyncSummary): string {
  return JSON.stringify({
    status: summary.status,
    mode: summary.mode,
    requests: summary.requests,
    rate_limited: summary.rateLimited,
    duration_ms: summary.durationMs,
    counts: summary.counts,
    error: summary.error,
  });
}

export function summaryText(summary: SyncSummary): string {
  const counts = Object.entries(summary.counts)
    .map(([type, n]) => `${n} ${type.replaceAll('_', ' ')}`)
    .join(', ');
  const head =
    summary.status === 'ok'
      ? `${summary.mode === 'full' ? 'Full' : 'Incremental'} sync done in ${(summary.durationMs / 1000).toFixed(1)} s`
      : `Sync ${summary.status}: ${summary.error?.message ?? ''}`;
  return `${head}\n${summary.requests} requests (${summary.rateLimited} rate-limited). Written: ${counts || 'nothing'}.\n`;
}

export async function runSync(args: string[], io: CommandIo): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args,
      strict: true,
      options: {
        db: { type: 'string' },
        'base-url': { type: 'string' },
        'rate-limit': { type: 'string' },
        full: { type: 'boolean' },
        json: { type: 'boolean' },
      },
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (!values.db) throw new UsageError('sync needs --db PATH');
  let rateLimit;
  try {
    rateLimit = values['rate-limit'] ? parseRateLimit(values['rate-limit']) : undefined;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const apiKey = process.env.T49_API_TOKEN?.trim();
  if (!apiKey) {
    io.err.write('No API key: set T49_API_TOKEN to your Tracking API key.\n');
    return exitCodes.auth;
  }
  const baseUrl = values['base-url'] ?? DEFAULT_BASE_URL;
  try {
    new URL(baseUrl);
  } catch {
    throw new UsageError(`--base-url "${baseUrl}" is not a URL`);
  }
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  io.signal?.addEventListener('abort', stop);
  const sync = openSync({
    dbPath: values.db,
    baseUrl,
    apiKey,
    rateLimit,
    onProgress: values.json
      ? undefined
      : (p) =>
          io.err.write(
            `\r${p.step}: page ${p.pagesDone} of ~${p.pagesTotal}, ${p.requests} requests, ETA ${p.etaSeconds ?? '?'} s   `,
          ),
  });
  try {
    const summary = await sync.engine.run({ mode: values.full ? 'full' : 'auto', signal: controller.signal });
    if (!values.json) io.err.write('\n');
    io.out.write(values.json ? `${summaryJson(summary)}\n` : summaryText(summary));
    return summary.status === 'ok' ? exitCodes.ok : exitCodeFor(summary.error?.code ?? 'failure');
  } finally {
    process.off('SIGINT', stop);
    sync.close();
  }
}
