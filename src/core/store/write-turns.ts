/**
 * Turns at the write lock between the core's connection and the sync pages' worker's, so no
 * write of the core's holds its event loop long. Under WAL two connections take turns at SQLite's write lock, and one that finds it
 * taken waits in SQLite's busy handler, which sleeps and tries again (1, 2, 5, 10, 15, 20, 25…
 * ms). The worker writes its pages in slices of ~5 ms back to back, each taking the lock again a
 * few microseconds after letting it go, so the core's polls kept missing the gaps: a one-row
 * `writeState` between two pages waited up to 334 ms on a busy machine, its loop stopped all that
 * time (every IPC request behind it). Here the lock is handed over on request instead:
 *
 * - the core says it wants to write (a shared counter), then waits until the worker is not inside
 *   a write (`Atomics.wait`, or a spin where the thread may not block: `workers/block.ts`; one
 *   slice at most, a few ms), then writes;
 * - the worker, before each write of its own, waits while the core wants to write.
 *
 * So a core's write waits at most for the slice already running, and the worker never starves
 * the core. The gate wraps the connection itself (`gateWrites`, when it is opened), so every
 * write goes through it: its statements that write (`run`, `get`, `all` of a statement that is
 * not read-only), `exec` and transactions, whatever module prepared them. Reads never wait: WAL
 * readers need no lock. Until the two connections share turns (`shareWriteTurns`) a write only
 * costs one check. SQLite's busy handler stays as the backstop for any other writer (another
 * process on the same file) and for a wait that outlives `CORE_WAIT_MS`.
 */
import { waitWhile } from '../workers/block';
import type Database from 'better-sqlite3';

/** A connection (database.ts's `Db`, named here without importing it: database.ts imports this). */
type Db = Database.Database;

/** Writes of the core waiting for their turn or running. */
const CORE_WANTS = 0;
/** 1 while the worker is inside a write. */
const WORKER_WRITES = 1;

/** The longest the core waits for the worker's write to end before SQLite's busy handler takes over. */
const CORE_WAIT_MS = 2_000;
/** The longest the worker waits at a time for the core's writes, before looking again. */
const WORKER_WAIT_MS = 1_000;

export type WriteRole = 'core' | 'worker';

/** Memory both threads see: made by the core, handed to the worker in its `workerData`. */
export type WriteTurns = Int32Array;

export function newWriteTurns(): WriteTurns {
  return new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
}

interface Gate {
  role: WriteRole;
  turns: WriteTurns | null;
  /** Inside a write already let through (a transaction's statements): pass. */
  depth: number;
}

const gates = new WeakMap<Db, Gate>();

function coreEnters(turns: WriteTurns): void {
  Atomics.add(turns, CORE_WANTS, 1);
  const deadline = performance.now() + CORE_WAIT_MS;
  while (Atomics.load(turns, WORKER_WRITES) === 1) {
    const left = deadline - performance.now();
    if (left <= 0) return;
    waitWhile(turns, WORKER_WRITES, 1, left);
  }
}

function coreLeaves(turns: WriteTurns): void {
  if (Atomics.sub(turns, CORE_WANTS, 1) === 1) Atomics.notify(turns, CORE_WANTS);
}

function workerEnters(turns: WriteTurns): void {
  for (;;) {
    let wants: number;
    while ((wants = Atomics.load(turns, CORE_WANTS)) > 0) waitWhile(turns, CORE_WANTS, wants, WORKER_WAIT_MS);
    Atomics.store(turns, WORKER_WRITES, 1);
    // The core may have asked between the look and the mark: it then waits for this mark, so
    // the worker steps back and lets it write first.
    if (Atomics.load(turns, CORE_WANTS) === 0) return;
    workerLeaves(turns);
  }
}

function workerLeaves(turns: WriteTurns): void {
  Atomics.store(turns, WORKER_WRITES, 0);
  Atomics.notify(turns, WORKER_WRITES);
}

/** Runs one write through the gate: the whole of it inside one turn. */
function through<T>(db: Db, gate: Gate, write: () => T): T {
  const turns = gate.turns;
  // A write inside a transaction already open holds (or will wait in SQLite for) the lock of that
  // transaction: asking again could only wait for a worker that waits for this very lock.
  if (turns === null || gate.depth > 0 || db.inTransaction) return write();
  if (gate.role === 'core') coreEnters(turns);
  else workerEnters(turns);
  gate.depth++;
  try {
    return write();
  } finally {
    gate.depth--;
    if (gate.role === 'core') coreLeaves(turns);
    else workerLeaves(turns);
  }
}

type AnyFunction = (...args: never[]) => unknown;

function gated<F extends AnyFunction>(db: Db, gate: Gate, f: F): F {
  return ((...args: Parameters<F>) => through(db, gate, () => f(...args))) as F;
}

/**
 * Puts `db` behind a write gate in `role`: from then on its writes take turns with the other
 * role's connection once the two share turns. Done when a connection is opened, before any
 * statement is prepared on it, so none escapes.
 */
export function gateWrites(db: Db, role: WriteRole): void {
  if (gates.has(db)) return;
  const gate: Gate = { role, turns: null, depth: 0 };
  gates.set(db, gate);
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    const statement = prepare(source);
    if (!statement.readonly) {
      statement.run = gated(db, gate, statement.run.bind(statement));
      statement.get = gated(db, gate, statement.get.bind(statement));
      statement.all = gated(db, gate, statement.all.bind(statement));
    }
    return statement;
  }) as Db['prepare'];
  db.exec = gated(db, gate, db.exec.bind(db));
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: AnyFunction) => {
    const t = transaction(fn);
    const as = (mode: 'default' | 'deferred' | 'immediate' | 'exclusive') =>
      gated(db, gate, (...args: Parameters<typeof t>) => t[mode](...args));
    return Object.assign(gated(db, gate, t), {
      default: as('default'),
      deferred: as('deferred'),
      immediate: as('immediate'),
      exclusive: as('exclusive'),
      database: db,
    });
  }) as Db['transaction'];
}

/**
 * Makes `db`'s gate take turns through `turns` (null: no more, as when its worker stops). A
 * connection never gated is left alone.
 */
export function shareWriteTurns(db: Db, turns: WriteTurns | null): void {
  const gate = gates.get(db);
  if (gate) gate.turns = turns;
}

/**
 * Clears the worker's mark, for a worker that stopped (or was stopped) inside a write: the core
 * would otherwise wait `CORE_WAIT_MS` at each write for a worker that is gone.
 */
export function releaseWorkerTurn(turns: WriteTurns): void {
  workerLeaves(turns);
}
