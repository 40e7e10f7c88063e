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

  /** Remembers a secret so it is never written (short strings would mangle ordinary text). */
  add(secret: string | null | undefined): void {
    if (typeof secret === 'string' && secret.trim().length >= 6) this.#secrets.add(secret.trim());
  }

  scrub(text: string): string {
    let out = text;
    // Longest first, so a key that contains another is replaced whole.
    for (const secret of [...this.#secrets].sort((a, b) => b.length - a.length)) {
      out = out.split(secret).join('[redacted]');
    }
    for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
    return out;
  }
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
