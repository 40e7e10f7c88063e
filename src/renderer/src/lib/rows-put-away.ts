/**
 * A long list keeps only the pages of rows near where its table was (lib/list-reads.svelte.ts,
 * `KEPT_PAGES`): a row read before and put away since is `undefined` in the table's rows.
 */

/**
 * The row put away nearest the screen (rows `first` to `last`) within `reach` rows of it, so it is
 * read again before it scrolls in: on or below the screen first, then above it. Null when every
 * row there is read (rows past `rows.length` are not read yet, not put away).
 */
export function rowPutAway(rows: readonly unknown[], first: number, last: number, reach: number): number | null {
  const end = Math.min(rows.length, last + reach);
  for (let i = first; i < end; i++) if (rows[i] === undefined) return i;
  for (let i = Math.min(first, rows.length) - 1; i >= Math.max(0, first - reach); i--) {
    if (rows[i] === undefined) return i;
  }
  return null;
}
