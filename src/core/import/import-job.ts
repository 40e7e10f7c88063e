/**
 * One import, from a table read to every row's result: the preview (each row checked against the
 * local copy), the carriers the file leaves out asked of the service (infer_number, its own
 * 200-a-minute bucket), then the creates (their own 100-a-minute bucket), a few at a time through
 * the key's limiter, which sets the pace. Progress goes out as events with the rows that changed;
 * Cancel stops what has not started (a create already on its way is seen to its answer). The
 * app's handlers and the CLI both drive it.
 */
import type { TrackingApiClient } from '../api/client';
import type { JsonApiDocument } from '../api/document';
import { QuaysideError } from '../errors';
import { postTrackingRequest } from '../handlers/create-request';
import { inferNumber } from '../handlers/service-actions';
import { trackingRequestsPath } from '../resources/tracking-requests';
import type { Db } from '../store/database';
import type { StoredResource } from '../store/resource';
import { writeResources } from '../store/writer';
import { normalizeTrackingNumber } from '../../shared/identifiers';
import {
  emptyImportCounts,
  type ImportMapping,
  type ImportPhase,
  type ImportProgress,
  type ImportProgressEvent,
  type ImportRow,
  type ImportState,
} from '../../shared/imports';
import type { CarrierSuggestion } from '../../shared/service-actions';
import { importLookups, type ImportLookups } from './lookups';
import { ACCOUNT_CLOSED, inferenceFailure, lowerFirst, sendFailure, type Stop, type StopCode } from './failures';
import { asRepeat, checkRow, draftRows, repeatsOf, type RowAnswers, type RowDraft } from './rows';

export interface ImportJobOptions {
  id: string;
  name: string;
  table: string[][];
  db: Db;
  /** The account's client; null without a key (nothing can be asked or sent). */
  client: TrackingApiClient | null;
  /** Why the service cannot be reached right now (one sentence), or null when it can. */
  offline?: () => string | null;
  onChange?: (event: ImportProgressEvent) => void;
  /** A tracking request was created and written to the local copy. */
  onCreated?: () => void;
  /** Requests in flight at once; the limiter sets the pace either way. */
  concurrency?: { infer?: number; send?: number };
  /** Changed rows are sent at most this often (ms; 0: at once). */
  flushEveryMs?: number;
}

/** Runs `work` over `items`, `limit` at a time, in order of start. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const typeOfAnswer = { container: 'container', bill_of_lading: 'bill_of_lading', booking: 'booking_number' } as const;

/**
 * Requests in flight at once. The limiter sets the pace; these only keep the network's latency
 * from setting it instead (the bench's 100 creates a 3-second window took 2.3x its bound with 3 in
 * flight, 1.2x with 10; 100 infer_number answers took 4.6 s with 8, 3.7 s with 16).
 */
const INFER_AT_ONCE = 16;
const SEND_AT_ONCE = 10;

export class ImportJob {
  readonly id: string;
  readonly name: string;
  readonly #o: ImportJobOptions;
  #mapping: ImportMapping | null = null;
  #lookups: ImportLookups | null = null;
  #drafts: RowDraft[] = [];
  #repeats = new Map<number, number>();
  readonly #answers = new Map<number, RowAnswers>();
  #rows: ImportRow[] = [];
  readonly #index = new Map<number, number>();
  #phase: ImportPhase = 'preview';
  #cancelled = false;
  #stopped: string | null = null;
  #stoppedBy: StopCode | null = null;
  #progress: ImportProgress | null = null;
  #controller: AbortController | null = null;
  #running: Promise<void> | null = null;
  readonly #changed = new Set<number>();
  #flushTimer: ReturnType<typeof setTimeout> | null = null;
  #version = 0;

  constructor(options: ImportJobOptions) {
    this.#o = options;
    this.id = options.id;
    this.name = options.name;
  }

  get running(): Promise<void> | null {
    return this.#running;
  }

  /** Checks every row under this mapping; rows without a carrier wait for `infer`. */
  preview(mapping: ImportMapping): ImportState {
    this.#refuseWhileRunning();
    this.#mapping = mapping;
    this.#lookups = importLookups(this.#o.db);
    this.#drafts = draftRows(this.#o.table, mapping);
    this.#repeats = repeatsOf(this.#drafts);
    this.#answers.clear();
    this.#index.clear();
    this.#drafts.forEach((draft, i) => this.#index.set(draft.row, i));
    this.#rows = this.#drafts.map((draft) => this.#check(draft));
    this.#phase = 'preview';
    this.#cancelled = false;
    this.#stopped = null;
    this.#progress = null;
    return this.state();
  }

  /** Rows waiting for the service to name their carrier (or type). */
  get waitingForInference(): number {
    return this.#rows.filter((r) => r.status === 'inferring').length;
  }

  /** Asks the service for each waiting row's carrier; resolves when every one is answered or the run stops. */
  infer(): Promise<void> {
    this.#refuseWhileRunning();
    const rows = this.#rows.filter((r) => r.status === 'inferring').map((r) => r.row);
    return this.#run('inferring', rows.length, async (signal) => {
      const client = this.#o.client;
      const offline = this.#o.offline?.() ?? null;
      if (!client || offline) {
        const why = (client ? offline : null) ?? 'There is no API key.';
        for (const row of rows) {
          this.#answer(row, {
            inferenceProblem: `The carrier could not be asked: ${lowerFirst(why)} Add its SCAC to the file, or preview again when online.`,
          });
        }
        return;
      }
      let failures = 0;
      await pool(rows, this.#o.concurrency?.infer ?? INFER_AT_ONCE, async (row) => {
        if (signal.aborted) return;
        const draft = this.#draft(row);
        try {
          const answer = await inferNumber(client, normalizeTrackingNumber(draft.number), {
            priority: 'background',
            signal,
          });
          failures = 0;
          this.#answer(row, this.#readAnswer(draft, answer));
        } catch (error) {
          if (signal.aborted) return;
          const { message, stop } = inferenceFailure(error, ++failures);
          this.#answer(row, { inferenceProblem: message });
          if (stop) this.#stop(stop);
        }
        this.#step();
      });
      // Not asked (cancelled or stopped): said on the row, which a new preview asks again.
      const why = this.#stopped ?? 'the import was cancelled';
      for (const row of rows) {
        if (this.#rowOf(row).status === 'inferring') {
          this.#answer(row, {
            inferenceProblem: `The carrier was not asked: ${lowerFirst(why)} Preview again to ask.`,
          });
        }
      }
    });
  }

  /** Sends the ready rows, or these rows (failed ones again); resolves when every one has its result. */
  send(rowNumbers?: number[]): Promise<void> {
    this.#refuseWhileRunning();
    const client = this.#o.client;
    if (!client) throw new QuaysideError('key_refused', 'There is no API key to send with: add one in Settings.');
    const offline = this.#o.offline?.() ?? null;
    if (offline) throw new QuaysideError('needs_connection', offline);
    const wanted = rowNumbers ? new Set(rowNumbers) : null;
    const rows = this.#rows
      .filter((r) =>
        wanted ? wanted.has(r.row) && (r.status === 'ready' || r.status === 'failed') : r.status === 'ready',
      )
      .map((r) => r.row);
    for (const row of rows) this.#set(row, { status: 'ready', message: null });
    return this.#run('sending', rows.length, async (signal) => {
      let failures = 0;
      await pool(rows, this.#o.concurrency?.send ?? SEND_AT_ONCE, async (row) => {
        // The account was switched (its database closed): nothing more goes out under its key.
        if (!this.#o.db.open) this.#stop(ACCOUNT_CLOSED);
        if (signal.aborted) return;
        const r = this.#rowOf(row);
        this.#set(row, { status: 'sending', message: null });
        try {
          const doc = await postTrackingRequest(
            client,
            this.#o.db,
            {
              requestType: r.requestType!,
              number: r.number,
              scac: r.carrier!,
              refNumbers: r.refNumbers,
              tags: r.tags,
              customerId: r.customerId,
            },
            // Below the form's own requests, which share the bucket.
            { priority: 'background', stopWaiting: signal },
          );
          failures = 0;
          const { id, unkept } = this.#keep(doc);
          this.#set(row, { status: 'created', message: unkept, trackingRequestId: id });
          this.#o.onCreated?.();
        } catch (error) {
          if (signal.aborted && error === signal.reason) {
            this.#set(row, { status: 'ready', message: 'Not sent: the import was cancelled.' });
            return;
          }
          if (error instanceof QuaysideError && error.code === 'already_tracked') {
            failures = 0;
            this.#set(row, {
              status: 'already_tracked',
              message: error.message,
              trackingRequestId: error.existing?.id ?? null,
              shipmentId: error.existing?.shipmentId ?? null,
            });
          } else {
            const { message, stop } = sendFailure(error, ++failures);
            this.#set(row, { status: 'failed', message });
            if (stop) this.#stop(stop);
          }
        }
        this.#step();
      });
      for (const row of rows) {
        const status = this.#rowOf(row).status;
        if (status !== 'ready') continue;
        if (this.#stopped) this.#set(row, { status: 'failed', message: `Not sent: ${lowerFirst(this.#stopped)}` });
        else this.#set(row, { message: 'Not sent: the import was cancelled.' });
      }
    });
  }

  /** Stops what has not started; requests on their way are seen to their answer. */
  cancel(): ImportState {
    if (this.#controller && !this.#controller.signal.aborted) {
      this.#cancelled = true;
      this.#controller.abort(new QuaysideError('busy', 'The import was cancelled.'));
    }
    return this.state();
  }

  /** The account was switched: what waits is not sent under its key any more. */
  accountClosed(): void {
    if (this.#controller && !this.#controller.signal.aborted) this.#stop(ACCOUNT_CLOSED);
  }

  /** The carrier the forwarder picked for a row the service was unsure about (or any row not yet sent). */
  setCarrier(row: number, scac: string): ImportState {
    this.#refuseWhileRunning();
    const current = this.#rows[this.#index.get(row) ?? -1];
    if (!current) throw new QuaysideError('not_found', `Row ${row} is not a data row of this import.`);
    if (current.status === 'created' || current.status === 'sending') {
      throw new QuaysideError('invalid_argument', `Row ${row} has been sent; its carrier cannot change now.`);
    }
    this.#answers.set(row, { ...this.#answers.get(row), pickedCarrier: scac.toUpperCase() });
    this.#recheck(row);
    this.#flush();
    return this.state();
  }

  state(): ImportState {
    return {
      id: this.id,
      version: this.#version,
      name: this.name,
      phase: this.#phase,
      cancelled: this.#cancelled,
      stopped: this.#stopped,
      rows: this.#rows,
      counts: this.#counts(),
      progress: this.#progress,
    };
  }

  async #run(phase: ImportPhase, total: number, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    this.#controller = new AbortController();
    const signal = this.#controller.signal;
    this.#phase = phase;
    this.#cancelled = false;
    this.#stopped = null;
    this.#stoppedBy = null;
    this.#progress = { done: 0, total, etaSeconds: null };
    this.#estimate();
    this.#flush();
    // Started on the next microtask, so `running` is set before any of the work can end.
    const running = Promise.resolve()
      .then(() => work(signal))
      .finally(() => {
        this.#phase = phase === 'sending' ? 'done' : 'preview';
        this.#controller = null;
        this.#running = null;
        if (this.#progress) this.#progress = { ...this.#progress, etaSeconds: null };
        this.#flush();
      });
    this.#running = running;
    return running;
  }

  #refuseWhileRunning(): void {
    if (this.#running) {
      throw new QuaysideError('busy', 'This import is still running: wait for it, or cancel it first.');
    }
  }

  /** What stopped the last run early: the key refused, the connection lost, a long wait asked. */
  get stoppedBy(): StopCode | null {
    return this.#stoppedBy;
  }

  #stop({ reason, code }: Stop): void {
    if (this.#stopped) return;
    this.#stopped = reason;
    this.#stoppedBy = code;
    this.#controller?.abort(new QuaysideError('busy', reason));
  }

  #draft(row: number): RowDraft {
    return this.#drafts[this.#index.get(row)!]!;
  }

  #rowOf(row: number): ImportRow {
    return this.#rows[this.#index.get(row)!]!;
  }

  #check(draft: RowDraft): ImportRow {
    const row = checkRow(draft, this.#lookups!, this.#answers.get(draft.row), this.#mapping!.numberType);
    if (!this.#mapping!.fields.includes('number')) {
      return {
        ...row,
        status: 'validation',
        field: 'number',
        message: 'No column holds the numbers to track: name one Number, BL, Booking or Container.',
      };
    }
    const earlier = this.#repeats.get(draft.row);
    return earlier === undefined ? row : asRepeat(row, earlier);
  }

  #recheck(row: number): void {
    this.#rows[this.#index.get(row)!] = this.#check(this.#draft(row));
    this.#touch(row);
  }

  #answer(row: number, answers: RowAnswers): void {
    this.#answers.set(row, { ...this.#answers.get(row), ...answers });
    this.#recheck(row);
  }

  #set(row: number, change: Partial<ImportRow>): void {
    const i = this.#index.get(row)!;
    this.#rows[i] = { ...this.#rows[i]!, ...change };
    this.#touch(row);
  }

  /** What the service said, as answers to the row's open questions. */
  #readAnswer(draft: RowDraft, answer: CarrierSuggestion | null): RowAnswers {
    const inferredType = answer?.numberType ? typeOfAnswer[answer.numberType] : null;
    if (draft.carrier !== '') return { inferredType, inferredCarrier: null };
    if (answer?.decision === 'auto_select' && answer.selected) {
      return { inferredType, inferredCarrier: answer.selected.scac };
    }
    // Only lines that can track this number: a guess the service cannot act on is no choice.
    const type = this.#rowOf(draft.row).requestType ?? inferredType;
    const candidates = (answer?.candidates ?? []).filter((c) => {
      const line = this.#lookups!.carrier(c.scac);
      return line !== null && (type === null ? Object.values(line.tracks).some(Boolean) : line.tracks[type]);
    });
    if (candidates.length > 0) {
      const names = candidates.map((c) => `${c.name} (${c.scac})`);
      return {
        inferredType,
        inferredCarrier: null,
        candidates,
        inferenceProblem: `The Tracking API is not sure of the carrier: ${names.slice(0, -1).join(', ')}${names.length > 1 ? ' or ' : ''}${names.at(-1)}. Pick one, or add its SCAC to the file.`,
      };
    }
    return { inferredType, inferredCarrier: null };
  }

  /** Writes the created request to the local copy (when the account is still open); its id. */
  /**
   * Writes the created request to the local copy; its id, and why it could not be kept here (a
   * read-only or full disk, the account switched): it was created all the same, a sync brings it.
   */
  #keep(doc: JsonApiDocument | null): { id: string | null; unkept: string | null } {
    const id = doc && !Array.isArray(doc.data) && doc.data ? doc.data.id : null;
    if (!doc) return { id, unkept: null };
    const later = 'the next sync brings it.';
    if (!this.#o.db.open) return { id, unkept: `Created; the account was switched before it was saved here: ${later}` };
    try {
      const resources = [doc.data, ...doc.included].flat().filter(Boolean) as StoredResource[];
      writeResources(this.#o.db, resources, { syncedAt: new Date().toISOString() });
      return { id, unkept: null };
    } catch (error) {
      return { id, unkept: `Created; it could not be saved here (${(error as Error).message}), ${later}` };
    }
  }

  #step(): void {
    if (!this.#progress) return;
    this.#progress = { ...this.#progress, done: this.#progress.done + 1 };
    this.#estimate();
  }

  /** Seconds until the last row starts at the limit: whole windows of the bucket the phase uses. */
  #estimate(): void {
    const client = this.#o.client;
    if (!this.#progress || !client) return;
    const path = this.#phase === 'inferring' ? `${trackingRequestsPath}/infer_number` : trackingRequestsPath;
    const bucket = client.bucketSnapshot('POST', path);
    const left = this.#progress.total - this.#progress.done;
    const waves = Math.ceil(Math.max(0, left - bucket.available) / bucket.limit);
    const untilNext = Math.max(0, bucket.nextSlotAt - Date.now()) / 1000;
    const etaSeconds =
      left === 0 ? 0 : Math.round(waves === 0 ? 0 : untilNext + (waves - 1) * (bucket.windowMs / 1000));
    this.#progress = { ...this.#progress, etaSeconds };
  }

  #counts(): Record<ImportRow['status'], number> {
    const counts = emptyImportCounts();
    for (const row of this.#rows) counts[row.status]++;
    return counts;
  }

  #touch(row: number): void {
    this.#changed.add(row);
    const every = this.#o.flushEveryMs ?? 250;
    if (every === 0) this.#flush();
    else if (this.#flushTimer === null) {
      this.#flushTimer = setTimeout(() => this.#flush(), every);
      this.#flushTimer.unref?.();
    }
  }

  #flush(): void {
    if (this.#flushTimer !== null) clearTimeout(this.#flushTimer);
    this.#flushTimer = null;
    const rows = [...this.#changed].sort((a, b) => a - b).map((row) => this.#rowOf(row));
    this.#changed.clear();
    this.#version++;
    this.#o.onChange?.({
      id: this.id,
      version: this.#version,
      phase: this.#phase,
      cancelled: this.#cancelled,
      stopped: this.#stopped,
      progress: this.#progress,
      counts: this.#counts(),
      rows,
    });
  }
}
