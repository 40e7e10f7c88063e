/**
 * Anchors: SQLite doing, on its own, the reads and writes a figure measures, in the same run on
 * the same machine. A figure divided by its anchor says what Quayside's own code adds, whatever
 * the machine; the raw figure mostly says how fast the machine is.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { devNull } from 'node:os';
import { openDatabase, type Db } from '../../src/core/store/database';
import type { StoredResource } from '../../src/core/store/resource';
import { descriptors } from '../../src/core/resources';

type Row = Record<string, unknown>;

/** One page's rows as the writer left them in the store: each row with its search body. */
interface PageRows {
  rows: { table: string; row: Row; search: { table: string; body: string } | null }[];
}

const tableOfType = new Map(descriptors.flatMap((d) => d.types.map((type) => [type, d] as const)));

/**
 * Reads back from `written` (a store the writer filled with these pages) the rows each page
 * produced, so SQLite can be timed writing exactly them with nothing else to do.
 */
export function pageRows(written: Db, pages: StoredResource[][]): PageRows[] {
  return pages.map((resources) => ({
    rows: resources.flatMap((resource) => {
      const d = tableOfType.get(resource.type);
      if (d === undefined) return [];
      const row = written.prepare(`SELECT rowid AS _rowid, * FROM ${d.table} WHERE id = ?`).get(resource.id) as
        Row | undefined;
      if (row === undefined) return [];
      const { _rowid: rowid, ...columns } = row;
      const table = d.search?.table;
      const body = table
        ? (written.prepare(`SELECT body FROM ${table} WHERE rowid = ?`).pluck().get(rowid) as string | undefined)
        : undefined;
      return [{ table: d.table, row: columns, search: table && body !== undefined ? { table, body } : null }];
    }),
  }));
}

/**
 * SQLite alone writing the same pages into a new store with the same schema, indexes and
 * search tables: one transaction per page, plain INSERTs of values already computed, each row
 * once (as the writer skips a reference row it already holds unchanged). Returns ms per page.
 */
export function sqliteAloneWrites(path: string, pages: PageRows[]): number[] {
  const db = openDatabase(path);
  db.pragma('foreign_keys = OFF');
  const inserts = new Map<string, (values: unknown[]) => number | bigint>();
  const insertFor = (table: string, names: string[]) => {
    let insert = inserts.get(table);
    if (!insert) {
      const statement = db.prepare(
        `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
      );
      insert = (values) => statement.run(values).lastInsertRowid;
      inserts.set(table, insert);
    }
    return insert;
  };
  const searchInserts = new Map<string, (rowid: number | bigint, body: string) => void>();
  const searchFor = (table: string) => {
    let insert = searchInserts.get(table);
    if (!insert) {
      const statement = db.prepare(`INSERT INTO ${table} (rowid, body) VALUES (?, ?)`);
      insert = (rowid, body) => void statement.run(rowid, body);
      searchInserts.set(table, insert);
    }
    return insert;
  };
  const seen = new Set<string>();
  const times: number[] = [];
  for (const page of pages) {
    const write = db.transaction(() => {
      for (const { table, row, search } of page.rows) {
        const key = `${table}:${String(row.id)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const rowid = insertFor(table, Object.keys(row))(Object.values(row));
        if (search) searchFor(search.table)(rowid, search.body);
      }
    });
    const started = performance.now();
    write();
    times.push(performance.now() - started);
  }
  db.close();
  return times;
}

/** SQLite alone stepping through every row of a query, reading each column, doing nothing with it. */
export function sqliteAloneReads(rows: Iterable<unknown>): { rows: number; seconds: number } {
  const started = performance.now();
  let count = 0;
  for (const row of rows) if (row !== undefined) count++;
  return { rows: count, seconds: (performance.now() - started) / 1000 };
}

/** How long SQLite's own shell took, or why it could not be asked. */
export type ShellRun = { seconds: number } | { unavailable: string };

/**
 * SQLite's own shell (`sqlite3 -csv`, Debian's package `sqlite3`) writing the rows of the same
 * statements on the same file as CSV to /dev/null: SQLite's own CSV output, the least a CSV
 * export of that query can cost, timed in wall time as the export is (process start included,
 * a few ms). Where the shell is missing or fails, says why instead of failing the bench.
 */
export function sqliteShellCsv(file: string, statements: { sql: string; params: unknown[] }[]): ShellRun {
  if (statements.some((statement) => statement.params.length > 0))
    return { unavailable: 'the query has parameters, which the shell is not given' };
  const out = openSync(devNull, 'w');
  try {
    const started = performance.now();
    const run = spawnSync('sqlite3', ['-readonly', '-csv', file, statements.map((s) => s.sql).join(';\n')], {
      stdio: ['ignore', out, 'pipe'],
      encoding: 'utf8',
    });
    const seconds = (performance.now() - started) / 1000;
    if (run.error !== undefined) {
      const code = (run.error as NodeJS.ErrnoException).code;
      return {
        unavailable: code === 'ENOENT' ? 'sqlite3 is not installed (apt-get install sqlite3)' : run.error.message,
      };
    }
    if (run.status !== 0) return { unavailable: `sqlite3 failed: ${run.stderr.split('\n')[0] ?? run.status}` };
    return { seconds };
  } finally {
    closeSync(out);
  }
}
