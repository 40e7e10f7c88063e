/**
 * Bulk import of tracking requests over IPC: a file or pasted cells read and mapped
 * (`imports:read`), every row checked (`imports:preview`, which then asks the service for the
 * carriers the file leaves out), sent with progress events (`imports:send`, `imports:cancel`),
 * a carrier picked for an unsure row, and the results exported. Imports live in memory with the
 * account's session (a few at a time): a file imported again finds its sent rows already tracked.
 */
import { randomUUID } from 'node:crypto';
import type { Handlers } from '../../shared/ipc';
import { QuaysideError } from '../errors';
import { ImportJob } from '../import/import-job';
import { importLookups } from '../import/lookups';
import { ImportFileError, readImportFile, readPasted, type ReadTable } from '../import/read-table';
import { exportImportResults } from '../import/results-csv';
import { describeTable } from '../import/table';
import type { Session } from '../session';
import type { CoreContext } from './context';

type ImportHandlers = Pick<
  Handlers,
  | 'imports:read'
  | 'imports:preview'
  | 'imports:get'
  | 'imports:send'
  | 'imports:cancel'
  | 'imports:setCarrier'
  | 'imports:export'
>;

/** Imports kept per session; the oldest that is not running goes when there are more. */
const KEPT = 5;
const DATA_CHANGED_EVERY_MS = 1500;

export function importHandlers(ctx: CoreContext): ImportHandlers {
  const bySession = new WeakMap<Session, Map<string, ImportJob>>();
  const jobsOf = (session: Session) => {
    let jobs = bySession.get(session);
    if (!jobs) bySession.set(session, (jobs = new Map<string, ImportJob>()));
    return jobs;
  };
  const jobOf = async (id: string) => {
    const job = jobsOf(await ctx.session()).get(id);
    if (!job) {
      throw new QuaysideError(
        'not_found',
        'This import is no longer open (the app restarted or the account changed): choose the file again.',
      );
    }
    return job;
  };

  // Created requests are in the local copy at once: the lists refetch, at most every 1.5 s.
  let lastChanged = 0;
  let trailing: ReturnType<typeof setTimeout> | null = null;
  const dataChanged = () => {
    const wait = lastChanged + DATA_CHANGED_EVERY_MS - Date.now();
    if (wait <= 0) {
      lastChanged = Date.now();
      ctx.events.emit('data:changed');
    } else if (trailing === null) {
      trailing = setTimeout(() => {
        trailing = null;
        lastChanged = Date.now();
        ctx.events.emit('data:changed');
      }, wait);
      trailing.unref?.();
    }
  };

  // An import sends only under the account it was started in: when that account's session
  // closes (a switch, local data deleted; each ends with data:changed), what waits is stopped.
  const open = new Map<ImportJob, Session>();
  ctx.events.subscribe((event) => {
    if (event !== 'data:changed') return;
    for (const [job, session] of open) {
      if (session.db.open) continue;
      job.accountClosed();
      open.delete(job);
    }
  });

  const keep = (session: Session, job: ImportJob) => {
    const jobs = jobsOf(session);
    jobs.set(job.id, job);
    open.set(job, session);
    for (const [id, old] of jobs) {
      if (jobs.size <= KEPT) break;
      if (!old.running) {
        jobs.delete(id);
        open.delete(old);
      }
    }
  };

  const run = (work: Promise<void>) => {
    work.catch((error: unknown) => ctx.log('import run failed', error));
  };

  return {
    'imports:read': async (input) => {
      const session = await ctx.session();
      let read: ReadTable;
      let name: string;
      try {
        if ('text' in input) {
          name = 'Pasted cells';
          read = readPasted(input.text);
        } else {
          name = input.name;
          read = await readImportFile(name, Buffer.from(input.base64, 'base64'));
        }
      } catch (error) {
        if (error instanceof ImportFileError) throw new QuaysideError('invalid_argument', error.message);
        throw error;
      }
      const id = randomUUID();
      const table = describeTable(id, name, read, importLookups(session.db));
      keep(
        session,
        new ImportJob({
          id,
          name,
          table: read.rows,
          db: session.db,
          client: session.client,
          offline: () => (session.online ? null : 'There is no connection to the Tracking API right now.'),
          onChange: (event) => ctx.events.emit('imports:progress', event),
          onCreated: dataChanged,
        }),
      );
      return table;
    },
    'imports:preview': async ({ id, mapping }) => {
      const job = await jobOf(id);
      job.preview(mapping);
      if (job.waitingForInference > 0) run(job.infer());
      return job.state();
    },
    'imports:get': async ({ id }) => (await jobOf(id)).state(),
    'imports:send': async ({ id, rows }) => {
      const job = await jobOf(id);
      run(job.send(rows));
      return job.state();
    },
    'imports:cancel': async ({ id }) => (await jobOf(id)).cancel(),
    'imports:setCarrier': async ({ id, row, scac }) => (await jobOf(id)).setCarrier(row, scac),
    'imports:export': async ({ id }) => {
      const job = await jobOf(id);
      const base =
        job.name
          .replace(/\.[^.]*$/, '')
          .replace(/[^A-Za-z0-9._-]+/g, '-')
          .slice(0, 60) || 'import';
      const suggested = `quayside-${base}-results-${new Date().toISOString().slice(0, 10)}.csv`;
      const path = (await ctx.options.chooseExportPath?.(suggested)) ?? null;
      if (!path) return { path: null, rows: 0, cancelled: true };
      const result = await exportImportResults(path, job.state().rows);
      return { path: result.path, rows: result.rows, cancelled: false };
    },
  };
}
