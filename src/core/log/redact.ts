/**
 * Keeps API keys out of anything written down: every key the app has seen is replaced, and so
 * is anything shaped like a credential (an Authorization header, a `Token …` value, an `apiKey`
 * field), in case a key arrives by a path nobody registered.
 */
const PATTERNS: [RegExp, string][] = [
  [/(authorization["']?\s*[:=]\s*["']?)(token|bearer)?\s*[^\s"',}]+/gi, '$1[redacted]'],
  [/\b(Token|Bearer)\s+[A-Za-z0-9._~+/=-]{6,}/g, '$1 [redacted]'],
  [/(["']?(?:api_?key|token|secret|password)["']?\s*[:=]\s*["']?)[^\s"',}]+/gi, '$1[redacted]'],
];

export class Redactor {
  readonly #secrets = new Set<string>();
  /** Every written form of every secret, as one pattern; rebuilt when a secret is added. */
  #pattern: RegExp | null = null;

  /** Remembers a secret so it is never written (short strings would mangle ordinary text). */
  add(secret: string | null | undefined): void {
    if (typeof secret !== 'string' || secret.trim().length < 6 || this.#secrets.has(secret.trim())) return;
    this.#secrets.add(secret.trim());
    this.#pattern = null;
  }

  scrub(text: string): string {
    if (this.#secrets.size > 0) {
      this.#pattern ??= new RegExp(
        // Longest first, so a form that contains another is replaced whole.
        [...new Set([...this.#secrets].flatMap(writtenForms))]
          .sort((a, b) => b.length - a.length)
          .map(escapeRegExp)
          .join('|'),
        'g',
      );
      text = text.replace(this.#pattern, '[redacted]');
    }
    for (const [pattern, replacement] of PATTERNS) text = text.replace(pattern, replacement);
    return text;
  }
}

/**
 * The ways a secret shows up in text: as is, URL-encoded (percent, and form encoding with `+`,
 * hex in either case) and base64 (standard and URL-safe, padded or not), also inside the base64
 * of a longer string, as in `Basic base64(user:key)`. There the key's bytes start at some offset
 * in a 3-byte group; for each of the three offsets, the characters its bytes alone decide (not
 * those shared with the bytes before or after) are the same in any such string, so they are
 * what is matched, and at most two characters at either edge stay.
 */
export function writtenForms(secret: string): string[] {
  const percent = encodeURIComponent(secret);
  const form = new URLSearchParams({ k: secret }).toString().slice(2);
  const urlForms = [percent, percent.replaceAll('%20', '+'), form].flatMap((f) => [
    f,
    f.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
  ]);
  const bytes = Buffer.from(secret, 'utf8');
  const base64 = bytes.toString('base64');
  const middles = [0, 1, 2].map((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    return encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
  });
  const base64Forms = [base64, base64.replace(/=+$/, ''), ...middles].flatMap((f) => [
    f,
    f.replaceAll('+', '-').replaceAll('/', '_'),
  ]);
  // A short secret's base64 middles could be a few letters of ordinary text.
  return [secret, ...urlForms, ...base64Forms.filter((f) => f.length >= 6)];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An error as one line of text: name, message, cause chain and stack, nothing else. */
export function describeError(error: unknown): string {
  if (error === undefined || error === null || error === '') return '';
  if (!(error instanceof Error)) {
    try {
      return typeof error === 'string' ? error : JSON.stringify(error);
    } catch {
      return Object.prototype.toString.call(error);
    }
  }
  const parts = [`${error.name}: ${error.message}`];
  let cause: unknown = error.cause;
  for (let depth = 0; cause instanceof Error && depth < 4; depth++, cause = cause.cause) {
    parts.push(`caused by ${cause.name}: ${cause.message}`);
  }
  if (error.stack) parts.push(error.stack.split('\n').slice(1, 6).join('\n'));
  return parts.join('\n');
}
