import type { Db } from './database';

/**
 * Prepares a group of statements once per database and hands back the same group after that
 * (as the writer does): a query that runs per row, per page or per open view pays for its SQL
 * parse once. The cache is weak, so a closed database's statements go with it.
 *
 * A group may hold reads only: a read-only copy (`openDatabase` on a file it cannot write)
 * refuses a writing statement as it is prepared, so each writing statement gets its own `perDb`
 * and is prepared only when something writes.
 */
export function perDb<T>(prepare: (db: Db) => T): (db: Db) => T {
  const cache = new WeakMap<Db, T>();
  return (db) => {
    let statements = cache.get(db);
    if (statements === undefined) {
      statements = prepare(db);
      cache.set(db, statements);
    }
    return statements;
  };
}
