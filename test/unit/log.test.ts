import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileLog } from '../../src/core/log/file-log';
import { describeError, Redactor, writtenForms } from '../../src/core/log/redact';
import { tempDir } from '../helpers/temp-dir';

const KEY = 'tk_live_7Qm2pX9vB4nL0aZ8';

function readAll(dir: string): string {
  return readdirSync(dir)
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('\n');
}

describe('the log file', () => {
  it('never writes a key it was told about, wherever in a message or error chain it appears', () => {
    const dir = tempDir();
    const redactor = new Redactor();
    redactor.add(KEY);
    const log = createFileLog({ dir, redactor });
    log.write('info', `checking key ${KEY}`);
    log.write('error', 'request failed', new Error('upstream', { cause: new Error(`bad token ${KEY}x`) }));
    log.write('error', 'header dump', { headers: { Authorization: `Token ${KEY}` } });
    const text = readAll(dir);
    expect(text).not.toContain(KEY);
    expect(text).toContain('checking key [redacted]');
    expect(text).toContain('caused by Error: bad token [redacted]x');
    expect(log.recentErrors()).toHaveLength(2);
  });

  it('scrubs credential-shaped text even for a key nobody registered', () => {
    const redactor = new Redactor();
    expect(redactor.scrub('Authorization: Token abcdef123456')).not.toContain('abcdef123456');
    expect(redactor.scrub('{"apiKey":"sk-unregistered-999"}')).not.toContain('sk-unregistered-999');
    expect(redactor.scrub('GET /v2/shipments?page[size]=100 took 12 ms')).toBe(
      'GET /v2/shipments?page[size]=100 took 12 ms',
    );
  });

  it('rotates by size and keeps only the newest files', () => {
    const dir = tempDir();
    const log = createFileLog({ dir, redactor: new Redactor(), maxBytes: 2_000, keep: 2 });
    for (let i = 0; i < 200; i++) log.write('info', `line ${String(i).padStart(4, '0')} ${'x'.repeat(40)}`);
    expect(readdirSync(dir).sort()).toEqual(['quayside.log', 'quayside.log.1', 'quayside.log.2']);
    for (const name of readdirSync(dir)) expect(readFileSync(join(dir, name)).length).toBeLessThanOrEqual(2_000);
    expect(readFileSync(join(dir, 'quayside.log'), 'utf8')).toContain('line 0199');
    expect(readAll(dir)).not.toContain('line 0000');
  });

  it('keeps the app running when the disk refuses the log', () => {
    // A file where the log folder should be: every write fails (as on a full or read-only disk).
    const blocker = join(tempDir(), 'not-a-folder');
    writeFileSync(blocker, '');
    const log = createFileLog({ dir: join(blocker, 'logs'), redactor: new Redactor() });
    expect(() => log.write('error', 'still here', new Error('boom'))).not.toThrow();
    expect(log.recentErrors()[0]).toContain('still here');
  });

  it('describes errors with their causes', () => {
    expect(describeError(new TypeError('outer', { cause: new RangeError('inner') }))).toMatch(
      /TypeError: outer\ncaused by RangeError: inner/,
    );
    expect(describeError(undefined)).toBe('');
  });
});

describe('the redactor and encoded keys', () => {
  // A key with characters that URL encoding and base64's two alphabets treat differently.
  const odd = 'qs/Key+with spaces~and?marks=ÿ>>>';
  const redactor = new Redactor();
  redactor.add(KEY);
  redactor.add(odd);
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

  it.each([
    ['percent-encoded', encodeURIComponent(odd)],
    ['percent-encoded with lower-case hex', encodeURIComponent(odd).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())],
    ['form-encoded', new URLSearchParams({ key: odd }).toString().slice(4)],
    ['percent-encoded with + for spaces', encodeURIComponent(odd).replaceAll('%20', '+')],
    ['base64', b64(odd)],
    ['base64 without padding', b64(odd).replace(/=+$/, '')],
    ['URL-safe base64', b64url(odd)],
    ['URL-safe base64 with padding', b64url(odd) + '='.repeat((4 - (b64url(odd).length % 4)) % 4)],
  ])('scrubs the key %s', (_, encoded) => {
    const scrubbed = redactor.scrub(`GET /v2/shipments?key=${encoded} took 12 ms`);
    expect(scrubbed).toBe('GET /v2/shipments?key=[redacted] took 12 ms');
  });

  it.each(['', 'u:', 'us:', 'user:', 'account-id:', 'account-ids:'])(
    'scrubs the key inside the base64 of a longer string (prefix %j)',
    (prefix) => {
      for (const key of [KEY, odd]) {
        for (const suffix of ['', '!', '#tail', ':more-text']) {
          const blob = b64(`${prefix}${key}${suffix}`);
          for (const shown of [blob, blob.replace(/=+$/, ''), b64url(`${prefix}${key}${suffix}`)]) {
            const scrubbed = redactor.scrub(`Authorisation header Basic ${shown} sent`);
            expect(scrubbed).toContain('[redacted]');
            // What stays either side is at most the characters shared with the text around the key.
            const kept = scrubbed.replace('Authorisation header Basic ', '').replace(' sent', '').split('[redacted]');
            expect(kept).toHaveLength(2);
            expect(kept[0]!.length).toBeLessThanOrEqual(
              Math.ceil(((prefix.length % 3) * 8) / 6) + Math.floor(prefix.length / 3) * 4,
            );
            expect(kept[1]!.replace(/=+$/, '').length).toBeLessThanOrEqual(Math.ceil(((suffix.length + 2) * 8) / 6));
          }
        }
      }
    },
  );

  it('leaves ordinary text alone and knows each form of a key', () => {
    const text = 'Synced 230 shipments from /v2/shipments?page[size]=100 (base64 dGVzdA==)';
    expect(redactor.scrub(text)).toBe(text);
    expect(writtenForms('abcdef')).toContain('YWJjZGVm');
  });
});
