/**
 * What a chosen file is when it is not text: told from its first bytes (a signature, or bytes no
 * CSV holds), so a program, an image or a PDF is named once instead of read as rows of noise.
 */

/** Signatures of files a forwarder may pick by mistake, with what to call them. */
const signatures: { bytes: (number | null)[]; kind: string }[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], kind: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], kind: 'a JPEG image' },
  { bytes: [...'GIF8'].map((c) => c.charCodeAt(0)), kind: 'a GIF image' },
  { bytes: [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50], kind: 'a WebP image' },
  { bytes: [0x49, 0x49, 0x2a, 0x00], kind: 'a TIFF image' },
  { bytes: [0x4d, 0x4d, 0x00, 0x2a], kind: 'a TIFF image' },
  { bytes: [...'%PDF-'].map((c) => c.charCodeAt(0)), kind: 'a PDF document' },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], kind: 'a program (ELF)' },
  { bytes: [0xcf, 0xfa, 0xed, 0xfe], kind: 'a program (Mach-O)' },
  { bytes: [0xce, 0xfa, 0xed, 0xfe], kind: 'a program (Mach-O)' },
  { bytes: [0xca, 0xfe, 0xba, 0xbe], kind: 'a program (Mach-O)' },
  { bytes: [0x1f, 0x8b, 0x08], kind: 'a gzip archive' },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], kind: 'a 7-Zip archive' },
  { bytes: [...'Rar!'].map((c) => c.charCodeAt(0)), kind: 'a RAR archive' },
  { bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], kind: 'an xz archive' },
  { bytes: [0x28, 0xb5, 0x2f, 0xfd], kind: 'a Zstandard archive' },
  { bytes: [...'SQLite format 3\0'].map((c) => c.charCodeAt(0)), kind: 'an SQLite database' },
];

/** How much of the start is looked at for bytes no text holds. */
const LOOKED_AT = 8192;

/**
 * What the file looks like when it is not text a CSV could be (null when it could be): a known
 * signature, a Windows program ("MZ" and the PE header it points to), or NUL and other control
 * bytes that no text in UTF-8 or Windows-1252 holds. UTF-16 text (with or without its byte-order
 * mark) is text.
 */
export function binaryKind(bytes: Uint8Array): string | null {
  for (const { bytes: signature, kind } of signatures) {
    if (signature.every((b, i) => b === null || bytes[i] === b)) return kind;
  }
  if (bytes[0] === 0x4d && bytes[1] === 0x5a && bytes.length >= 0x40) {
    const pe = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0x3c, true);
    if (pe + 4 <= bytes.length && bytes[pe] === 0x50 && bytes[pe + 1] === 0x45 && !bytes[pe + 2] && !bytes[pe + 3]) {
      return 'a Windows program';
    }
  }
  if (utf16Order(bytes) !== null) return null;
  const start = bytes.subarray(0, LOOKED_AT);
  let controls = 0;
  for (const b of start) {
    if (b === 0) return 'a binary file, not text';
    // Tab, line feed, vertical tab, form feed, carriage return and DOS's end-of-file mark are text.
    if (b < 0x20 && !(b >= 0x09 && b <= 0x0d) && b !== 0x1a) controls++;
  }
  return controls * 20 > start.length ? 'a binary file, not text' : null;
}

/**
 * UTF-16 text's byte order: its byte-order mark, or, without one, the NUL that every other byte
 * of Latin text has (a spreadsheet's "Unicode text" saved by a tool that writes no mark): on most
 * pairs' one side and seldom on the other.
 */
export function utf16Order(bytes: Uint8Array): 'le' | 'be' | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'be';
  const pairs = Math.min(bytes.length, 512) >> 1;
  if (pairs < 2) return null;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (bytes[i] === 0 && bytes[i + 1] !== 0) evenNul++;
    if (bytes[i + 1] === 0 && bytes[i] !== 0) oddNul++;
  }
  if (oddNul * 2 > pairs && evenNul * 8 < oddNul) return 'le';
  if (evenNul * 2 > pairs && oddNul * 8 < evenNul) return 'be';
  return null;
}
