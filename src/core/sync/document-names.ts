/**
 * What a document's file is kept as, and under which name. Both come from outside (the name from
 * the service, the bytes from storage), and the kept file is later handed to the computer's
 * viewer, which on Windows runs an `.exe` and on Linux a `.desktop` entry. So a file is kept
 * under a document type's extension only when the type is on the allow-list and the bytes carry
 * that type's signature (or, for text types, read as text and as no program); anything else is
 * kept as data under `.bin` and never opened, only shown in its folder.
 *
 * Names are cut by bytes (UTF-8, as Linux and macOS count a name; a UTF-8 byte is never fewer
 * than a UTF-16 unit, as Windows counts) on whole characters, the extension kept.
 */
import { createHash } from 'node:crypto';
import { basename, dirname, resolve } from 'node:path';
import { QuaysideError } from '../errors';
import { cutToBytes, utf8Length } from '../file-names';

type Family = 'pdf' | 'png' | 'jpeg' | 'gif' | 'tiff' | 'webp' | 'zip' | 'ole' | 'text';

/** The document types a kept file may be opened as: extension and the family its bytes must show. */
export const DOCUMENT_TYPES: Readonly<Record<string, Family>> = {
  pdf: 'pdf',
  png: 'png',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  gif: 'gif',
  tif: 'tiff',
  tiff: 'tiff',
  webp: 'webp',
  txt: 'text',
  csv: 'text',
  eml: 'text',
  xlsx: 'zip',
  docx: 'zip',
  pptx: 'zip',
  zip: 'zip',
  xls: 'ole',
  doc: 'ole',
  ppt: 'ole',
  msg: 'ole',
};

/** The extension a name without one gets when its bytes say what it is. */
const CANONICAL: Partial<Record<Family, string>> = {
  pdf: 'pdf',
  png: 'png',
  jpeg: 'jpg',
  gif: 'gif',
  tiff: 'tif',
  webp: 'webp',
};

const FAMILY_LABEL: Record<Family, string> = {
  pdf: 'a PDF',
  png: 'a PNG image',
  jpeg: 'a JPEG image',
  gif: 'a GIF image',
  tiff: 'a TIFF image',
  webp: 'a WebP image',
  zip: 'an Office or zip file',
  ole: 'an older Office or Outlook file',
  text: 'text',
};

/** Bytes of a file's start that `sniff` reads. */
export const HEAD_BYTES = 8192;
/** Longest kept name in UTF-8 bytes: under the 255 of most file systems, with room to spare. */
export const NAME_MAX_BYTES = 200;
/** The extension of files kept as data (no viewer is registered for it, and none is asked). */
export const DATA_EXTENSION = 'bin';

const startsWith = (head: Uint8Array, bytes: readonly number[], at = 0) =>
  head.length >= at + bytes.length && bytes.every((b, i) => head[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
const textStarts = (head: Uint8Array, text: string) => startsWith(head, ascii(text));

/** Programs and launchers by their first bytes: a Windows or Linux or macOS binary, a script, a shortcut. */
function isProgram(head: Uint8Array): boolean {
  if (startsWith(head, [0x4d, 0x5a])) return true; // MZ: Windows .exe, .dll, .scr
  if (startsWith(head, [0x7f, 0x45, 0x4c, 0x46])) return true; // ELF
  if (startsWith(head, [0xca, 0xfe, 0xba, 0xbe]) || startsWith(head, [0xcf, 0xfa, 0xed, 0xfe])) return true;
  if (startsWith(head, [0xfe, 0xed, 0xfa, 0xce]) || startsWith(head, [0xfe, 0xed, 0xfa, 0xcf])) return true;
  if (startsWith(head, [0xce, 0xfa, 0xed, 0xfe])) return true; // Mach-O
  if (startsWith(head, [0x4c, 0x00, 0x00, 0x00])) return true; // Windows shortcut (.lnk)
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head.subarray(0, 256)).replace(/^\uFEFF/, '');
  const start = text.trimStart().toLowerCase();
  return (
    text.startsWith('#!') ||
    start.startsWith('[desktop entry]') ||
    start.startsWith('[internetshortcut]') ||
    start.startsWith('@echo') ||
    (start.startsWith('<?xml') && start.includes('<plist'))
  );
}

/** The family the bytes show, 'program' for anything that would run, or null for unknown binary. */
export function sniff(head: Uint8Array): Family | 'program' | null {
  if (isProgram(head)) return 'program';
  // A PDF's header may come after a little junk (readers look in the first kilobyte).
  const pdfAt = Buffer.from(head.subarray(0, 1024)).indexOf('%PDF-');
  if (pdfAt >= 0) return 'pdf';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (textStarts(head, 'GIF87a') || textStarts(head, 'GIF89a')) return 'gif';
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (textStarts(head, 'RIFF') && startsWith(head, ascii('WEBP'), 8)) return 'webp';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return 'zip';
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  return head.includes(0) ? null : 'text';
}

/** The lower-case extension of a name (after its last dot), or '' when it has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

/** What a file is kept as: a document type's extension, or data with the sentence saying why. */
export type KeptAs = { ext: string } | { data: string };

/** Decides what a file named `name` (by the service) whose first bytes are `head` is kept as. */
export function keptAs(name: string | null, head: Uint8Array): KeptAs {
  const ext = extensionOf(name ?? '');
  const family = sniff(head);
  if (family === 'program') return { data: 'its contents are a program, not a document' };
  const expected = DOCUMENT_TYPES[ext];
  if (expected !== undefined) {
    if (family === expected) return { ext };
    return { data: `it is named .${ext} but its contents are not ${FAMILY_LABEL[expected]}` };
  }
  if (ext === '' && family !== null) {
    const canonical = CANONICAL[family];
    if (canonical) return { ext: canonical };
  }
  return {
    data: ext === '' ? 'its name gives no document type' : `.${ext} files are not among the document types it opens`,
  };
}

/** The sentence shown beside a file kept as data. */
export function dataSentence(why: string): string {
  return `Quayside keeps this file but will not open it: ${why}. Use Show in folder to look at it yourself.`;
}

/** The service's name as a plain name: no path parts, controls, bidi or reserved characters. */
function cleanName(fileName: string | null): string {
  return (
    (fileName ?? '')
      .split(/[\\/]/)
      .pop()!
      .normalize('NFC')
      // eslint-disable-next-line no-control-regex -- control characters are what is being removed
      .replace(/[\u0000-\u001f\u007f-\u009f<>:"|?*\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/g, '_')
      .replace(/^[.\s]+|[.\s]+$/g, '')
  );
}

/**
 * The name a document's file is kept under: the document's id (or its hash when the id is not
 * plain), the service's name cleaned, and the extension `kept` decided (`.bin` for data), at most
 * NAME_MAX_BYTES in UTF-8. Always one plain name inside the folder (the id first: never a name
 * Windows reserves, never a leading dot).
 */
export function safeFileName(id: string, fileName: string | null, kept: KeptAs): string {
  const idPart = /^[A-Za-z0-9-]{1,64}$/.test(id) ? id : createHash('sha256').update(id).digest('hex').slice(0, 32);
  let stem = cleanName(fileName);
  let ext: string;
  if ('ext' in kept) {
    ext = kept.ext;
    // The name's own extension is the one kept (or it had none): it is not written twice.
    if (extensionOf(stem) === ext) stem = stem.slice(0, stem.length - ext.length - 1);
  } else {
    ext = DATA_EXTENSION;
  }
  const room = NAME_MAX_BYTES - utf8Length(`${idPart}-.${ext}`);
  stem = cutToBytes(stem, room).replace(/[.\s]+$/, '');
  if (stem === '') stem = 'document';
  return `${idPart}-${stem}.${ext}`;
}

/** The full path of a kept name, refused unless it is directly inside the folder. */
export function insideFolder(dir: string, name: string): string {
  const folder = resolve(dir);
  const full = resolve(folder, name);
  if (dirname(full) !== folder || basename(full) !== name) {
    throw new QuaysideError('internal', 'A document file name would leave the documents folder.');
  }
  return full;
}
