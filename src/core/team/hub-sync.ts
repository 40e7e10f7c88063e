/**
 * A team hub account's sync in the app: each run is a pull (`pullFromHub`) in place of the API
 * walk, answering as the engine does (a `SyncSummary`, progress events), so the session's
 * schedule, status and alerts treat both alike. It sends no API request. A hub that cannot be
 * reached fails the run with one sentence saying so; the copy on this computer stays as it was
 * and every view keeps reading it. The address is read again at each run (its CA file with it).
 */
import type { NotificationSettings } from '../../shared/alerts';
import type { Db } from '../store/database';
import type { SyncMode, SyncProgress, SyncSummary } from '../sync/types';
import type { HubAddress } from './address';
import { hubErrorOf } from './errors';
import { hubSourceOf, pullFromHub, type PullProgress, type PullSummary } from './puller';

export interface HubSyncOptions {
  db: Db;
  dbPath: string;
  /** The hub's address, parsed at each run; throws a HubError for one that cannot be used. */
  address: () => HubAddress;
  onProgress?: (progress: SyncProgress) => void;
  alertRules?: () => NotificationSettings | undefined;
  changeRetentionDays?: () => number | undefined;
  now?: () => number;
  /** Rows per page (tests); default the puller's. */
  pageRows?: number;
}

/** The sentence of a hub that cannot be reached: what the user sees and that nothing is lost. */
export function unreachableMessage(hub: string): string {
  // The address last: the sidebar shows a sentence's start, the whole of it on hover.
  return `The team hub cannot be reached: you are seeing the copy on this computer, as of the last pull; the next sync tries again (${hub}).`;
}

export class HubSync {
  readonly #o: HubSyncOptions;
  #running: Promise<SyncSummary> | null = null;

  constructor(options: HubSyncOptions) {
    this.#o = options;
  }

  /** One pull; a run asked for while one goes joins it. `mode` is the API walk's: a pull reads what is new either way. */
  run(options: { mode?: SyncMode; signal?: AbortSignal } = {}): Promise<SyncSummary> {
    this.#running ??= this.#pull(options.signal).finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  async #pull(signal: AbortSignal | undefined): Promise<SyncSummary> {
    const started = Date.now();
    const mode = (hubSourceOf(this.#o.db)?.lastSeq ?? '0') === '0' ? 'full' : 'incremental';
    let address: HubAddress;
    try {
      address = this.#o.address();
    } catch (error) {
      const failure = hubErrorOf(error, 'the team hub');
      return failed(mode, started, failure.kind, failure.message);
    }
    const pageRows = this.#o.pageRows;
    const summary = await pullFromHub({
      db: this.#o.db,
      dbPath: this.#o.dbPath,
      address,
      signal,
      alertRules: this.#o.alertRules,
      changeRetentionDays: this.#o.changeRetentionDays,
      now: this.#o.now,
      ...(pageRows ? { pageRows } : {}),
      // The session shows a run's progress without its id (the log's row is named by the summary).
      onProgress: (progress) => this.#o.onProgress?.({ runId: 0, ...progressInfo(mode, progress, pageRows ?? 500) }),
    });
    return summaryOf(mode, summary);
  }
}

function progressInfo(mode: SyncSummary['mode'], p: PullProgress, pageRows: number): Omit<SyncProgress, 'runId'> {
  // Seqs are not dense, so the pages left are at most the seqs left over a page's rows: an estimate.
  const left = BigInt(p.targetSeq) - BigInt(p.lastSeq);
  const pagesLeft = left > 0n ? Number((left + BigInt(pageRows) - 1n) / BigInt(pageRows)) : 0;
  return {
    mode,
    step: 'Pulling from the team hub',
    pagesDone: p.pages,
    pagesTotal: p.pages + pagesLeft,
    requests: 0,
    rateLimited: 0,
    etaSeconds: null,
  };
}

function failed(mode: SyncSummary['mode'], started: number, code: string, message: string): SyncSummary {
  return {
    runId: 0,
    mode,
    status: 'failed',
    requests: 0,
    rateLimited: 0,
    durationMs: Date.now() - started,
    counts: {},
    error: { code, message },
  };
}

function summaryOf(mode: SyncSummary['mode'], pull: PullSummary): SyncSummary {
  const notices: string[] = [];
  if (pull.hubBehind === 'replica') {
    notices.push('The team hub is a replica behind this copy: nothing new was pulled until it catches up.');
  } else if (pull.hubBehind === 'restored') {
    notices.push('The team hub was restored from a backup: this copy was pulled again from its start.');
  }
  // The puller's own sentence (which names the network's reason) goes to the log.
  if (pull.error?.kind === 'network') notices.push(pull.error.message);
  const error = pull.error && {
    code: pull.error.kind === 'network' ? 'hub_unreachable' : pull.error.kind,
    message: pull.error.kind === 'network' ? unreachableMessage(pull.hub) : pull.error.message,
  };
  return {
    runId: pull.runId,
    mode,
    status: pull.status,
    requests: 0,
    rateLimited: 0,
    durationMs: pull.durationMs,
    counts: pull.deletions > 0 ? { ...pull.counts, deleted: pull.deletions } : { ...pull.counts },
    error,
    ...(notices.length > 0 ? { notices } : {}),
  };
}
