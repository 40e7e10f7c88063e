/**
 * File names made from text that comes from outside (a customer's name as the service sends it):
 * one plain name every system accepts and no one misreads. No path separators or characters
 * Windows refuses, no controls, no bidi or other invisible marks that make a name read other
 * than it is, no leading dot (hidden) or trailing dot or space (Windows drops them), never a name
 * Windows reserves for a device (`CON`, `LPT1`…, whatever follows their first dot).
 *
 * Names are cut by bytes (UTF-8, as Linux and macOS count a name; a UTF-8 byte is never fewer
 * than a UTF-16 unit, as Windows counts) on whole characters: a letter with its marks, an emoji
 * sequence.
 */

export const utf8Length = (text: string): number => Buffer.byteLength(text, 'utf8');
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The longest start of `text` (whole characters: a letter and its marks, an emoji sequence) within `bytes`. */
export function cutToBytes(text: string, bytes: number): string {
  if (utf8Length(text) <= bytes) return text;
  let out = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const size = utf8Length(segment);
    if (used + size > bytes) break;
    out += segment;
    used += size;
  }
  return out;
}

// Marks that change how a name reads without being seen: bidi embeddings, overrides and
// isolates, the Arabic letter mark, zero-width space and no-break, the byte order mark. The
// zero-width joiner and non-joiner stay: emoji sequences and some scripts need them.
const INVISIBLE = /[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
// eslint-disable-next-line no-control-regex -- control characters are what is being replaced
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
/** Half of a UTF-16 pair without its other half: no file system can store it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Path separators and the characters Windows refuses in a name. */
const REFUSED = /[<>:"/\\|?*]/g;
/** Device names Windows reserves, alone or before a dot (`con.csv` is `CON` too). */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/** `text` as the stem of a file name (before its extension): '' when nothing usable is left. */
export function plainStem(text: string): string {
  return text
    .replace(LONE_SURROGATE, '')
    .normalize('NFC')
    .replace(INVISIBLE, '')
    .replace(CONTROLS, ' ')
    .replace(REFUSED, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[.\s]+|[.\s]+$/g, '');
}

const isReserved = (stem: string) => RESERVED.test(stem.split('.')[0]!.trimEnd());

/**
 * `stem` (already plain: `plainStem`), then `suffix` (such as " (2)") and `.ext`, at most
 * `maxBytes` in UTF-8: the stem is cut, never the suffix or the extension. A stem Windows
 * reserves gets a `_` before it.
 */
export function fileNameWithin(stem: string, suffix: string, ext: string, maxBytes: number): string {
  let cut = cutToBytes(isReserved(stem) ? `_${stem}` : stem, maxBytes - utf8Length(`${suffix}.${ext}`));
  cut = cut.replace(/[.\s]+$/, '');
  return `${cut}${suffix}.${ext}`;
}
