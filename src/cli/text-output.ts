/**
 * What the CLI's listing commands (changes, alerts) write to a terminal or a pipe: text from the
 * service made safe for a terminal line, aligned tables, and output in chunks that stops quietly
 * when the reader goes away.
 */
import { removeUnsafeCharacters } from '../core/export/csv';
import type { Output } from './io';

/**
 * Text from the service as a terminal line shows it: no control characters (an escape sequence in a
 * vessel's name must not drive the terminal), no bidi overrides, line breaks as spaces.
 */
export function plain(text: string): string {
  return removeUnsafeCharacters(text).replace(/[\n\t]+/g, ' ');
}

function textRow(cells: string[], widths: number[]): string {
  return cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ');
}

/**
 * Output written in chunks of about 64 KB (a long history is neither one string in memory nor
 * one write per change). A reader that goes away (`changes --json | head`) ends the output quietly
 * instead of with a crash: its error is caught and what is left is not written.
 */
export function chunked(out: Output): { write(text: string): void; end(): void; readonly gone: boolean } {
  let buffer = '';
  let gone = false;
  const stream = out as Output & { on?: (event: 'error', listener: (error: Error) => void) => unknown };
  if (typeof stream.on === 'function') stream.on('error', () => (gone = true));
  const flush = () => {
    if (!gone && buffer !== '') out.write(buffer);
    buffer = '';
  };
  return {
    write(text) {
      buffer += text;
      if (buffer.length >= 65_536) flush();
    },
    end: flush,
    get gone() {
      return gone;
    },
  };
}

/** Rows under a head, each column as wide as its widest cell (the last one left ragged). */
export function writeTable(out: { write(text: string): void }, head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => rows.reduce((most, r) => Math.max(most, r[i]!.length), h.length));
  for (const row of [head, ...rows]) out.write(`${textRow(row, widths)}\n`);
}
