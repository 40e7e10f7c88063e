/**
 * A wrong service address is not an internet problem. How each failure at an
 * address is put in words, and when it is the address's fault (never seen to answer) rather than
 * the connection's (the default address, or one where a key was accepted). No real lookups: the
 * system error codes come from a mocked fetch, as undici reports them (`cause.code`).
 */
import { describe, expect, it } from 'vitest';
import { MalformedResponseError, NetworkError, NotFoundError, TimeoutError } from '../../src/core/api/errors';
import { RateLimiter } from '../../src/core/api/rate-limiter';
import {
  addressFailureSentence,
  describeAddressFailure,
  isKnownGoodAddress,
  sameAddress,
} from '../../src/core/profiles/address-problem';
import { checkApiKey } from '../../src/core/profiles/validate-key';

const failingWith = (code: string) =>
  (() =>
    Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) }))) as typeof fetch;

const check = (code: string, baseUrl: string, knownGood: boolean) =>
  checkApiKey({ apiKey: 'key-ABCD', baseUrl, limiter: new RateLimiter(), fetch: failingWith(code), knownGood });

describe('a failure at an address never seen to answer', () => {
  it.each([
    ['ENOTFOUND', 'no computer has that name (the name was not found); check the spelling'],
    ['EAI_AGAIN', 'its name could not be looked up just now (check the spelling, and the internet connection)'],
    ['ECONNREFUSED', 'the connection was refused, so nothing is listening at that address and port'],
    ['CERT_HAS_EXPIRED', 'its secure connection could not be trusted: a TLS/certificate problem (CERT_HAS_EXPIRED)'],
    [
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'its secure connection could not be trusted: a TLS/certificate problem (DEPTH_ZERO_SELF_SIGNED_CERT)',
    ],
    [
      'ERR_TLS_CERT_ALTNAME_INVALID',
      'its secure connection could not be trusted: a TLS/certificate problem (ERR_TLS_CERT_ALTNAME_INVALID)',
    ],
    [
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      'its secure connection could not be trusted: a TLS/certificate problem (UNABLE_TO_VERIFY_LEAF_SIGNATURE)',
    ],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'it does not speak https at that address and port (perhaps it needs http://)'],
    ['EHOSTUNREACH', 'the computer could not be reached (EHOSTUNREACH)'],
  ])('%s is named, with the address, and the key is not called unverified', async (code, why) => {
    const result = await check(code, 'https://tracking.example-forwarder.test/v2', false);
    expect(result).toEqual({
      result: 'address-failed',
      message: `Quayside could not use https://tracking.example-forwarder.test/v2: ${why}.`,
    });
  });

  it('says a timeout, a 404 and a web page in words', () => {
    expect(describeAddressFailure(new TimeoutError())).toMatch(/^it did not answer in time/);
    expect(describeAddressFailure(new NotFoundError())).toBe(
      'something answers there, but it is not the Tracking API: it has no /tracking_requests (404); the Tracking API’s address ends in /v2',
    );
    expect(addressFailureSentence('http://127.0.0.1:8080/', new MalformedResponseError())).toBe(
      'Quayside could not use http://127.0.0.1:8080/: something answers there, but it is not the Tracking API (it sent back a web page, or another service’s answer).',
    );
    expect(describeAddressFailure(new NetworkError('bad port'))).toMatch(/port .* will not connect to/);
  });

  it('says a redirect is one, and does not follow it', async () => {
    const asked: string[] = [];
    const redirecting = ((url: URL) => {
      asked.push(url.href);
      return Promise.resolve(new Response(null, { status: 302, headers: { location: 'https://elsewhere.test/v2' } }));
    }) as typeof fetch;
    const baseUrl = 'https://tracking.example-forwarder.test/v2';
    const result = await checkApiKey({
      apiKey: 'key-ABCD',
      baseUrl,
      limiter: new RateLimiter(),
      fetch: redirecting,
      knownGood: false,
    });
    expect(result).toEqual({
      result: 'address-failed',
      message: `Quayside could not use ${baseUrl}: it redirects elsewhere (302); enter the address it leads to.`,
    });
    // One request, to the address itself: the redirect's target was never asked.
    expect(asked).toHaveLength(1);
    expect(asked[0]!.startsWith(`${baseUrl}/tracking_requests`)).toBe(true);
  });
});

describe('a failure at a known-good address', () => {
  it('is the connection, not the address: the key is unverified, as when offline', async () => {
    for (const code of ['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'ECONNRESET']) {
      expect(await check(code, 'https://api.terminal49.com/v2', true)).toEqual({
        result: 'unverified',
        message:
          'The Tracking API could not be reached to check this key; it is saved and will be checked at the next sync.',
      });
    }
  });

  it('is the default address however written, or one where a key was accepted', () => {
    expect(isKnownGoodAddress('https://api.terminal49.com/v2', [])).toBe(true);
    expect(isKnownGoodAddress('https://API.Terminal49.com/v2/', [])).toBe(true);
    expect(isKnownGoodAddress('https://api.terminal49.com/v1', [])).toBe(false);
    expect(isKnownGoodAddress('https://proxy.example.test/v2', [])).toBe(false);
    expect(isKnownGoodAddress('https://proxy.example.test/v2/', ['https://proxy.example.test/v2'])).toBe(true);
    expect(sameAddress('http://127.0.0.1:80/v2', 'http://127.0.0.1/v2')).toBe(true);
    expect(sameAddress('http://127.0.0.1:81/v2', 'http://127.0.0.1/v2')).toBe(false);
  });
});
