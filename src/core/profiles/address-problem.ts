/**
 * Why a service address did not answer as the Tracking API, in words a forwarder can act on:
 * the connection refused, the name not found, a TLS certificate Quayside cannot trust, no answer
 * in time, or an answer that is not the Tracking API's (a web page, a 404 at /tracking_requests).
 *
 * Used when a key is checked at an address Quayside has never seen answer (anything but the
 * default address and the address of a profile whose key was accepted there): such an address
 * must prove itself before a profile is saved with it. At a known-good address the same failures
 * mean the connection is down, and the profile is saved unverified instead.
 */
import { NetworkError, RedirectError, type ApiError } from '../api/errors';
import { DEFAULT_BASE_URL, displayBaseUrl } from '../../shared/base-url';

/** System error codes (Node's and OpenSSL's, as fetch reports them on `cause.code`). */
const refused = new Set(['ECONNREFUSED']);
const nameNotFound = new Set(['ENOTFOUND', 'EAI_NONAME', 'EAI_FAIL', 'EAI_NODATA']);
const nameLookupFailed = new Set(['EAI_AGAIN']);
const unreachable = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'ETIMEDOUT', 'EADDRNOTAVAIL']);
const dropped = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const notHttps = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST']);
const certificate =
  /^(CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_(GET|VERIFY|DECRYPT)|ERR_TLS_CERT|HOSTNAME_MISMATCH$|ERR_SSL_|EPROTO$|ERR_TLS_)/;

/** The reason, after "Quayside could not use <address>: ". */
export function describeAddressFailure(error: ApiError): string {
  if (error instanceof NetworkError) return networkReason(error.reason);
  if (error instanceof RedirectError) return `it redirects elsewhere (${error.status}); enter the address it leads to`;
  switch (error.code) {
    case 'timeout':
      return 'it did not answer in time (nothing may be listening there, or a firewall holds the connection)';
    case 'not_found':
      return 'something answers there, but it is not the Tracking API: it has no /tracking_requests (404); the Tracking API’s address ends in /v2';
    case 'malformed':
      return 'something answers there, but it is not the Tracking API (it sent back a web page, or another service’s answer)';
    case 'upstream':
      return `something answers there, but with a server error (${error.status}), not as the Tracking API`;
    case 'rate_limited':
      return 'it answered “too many requests” (429), so it could not be checked; try again in a minute';
    case 'rejected':
      return `something answers there, but it is not the Tracking API: it refused the request (error ${error.status ?? 'unknown'})`;
    default:
      return `something answers there, but not as the Tracking API does (${error.message})`;
  }
}

function networkReason(code: string): string {
  if (refused.has(code)) return 'the connection was refused, so nothing is listening at that address and port';
  if (nameNotFound.has(code)) return 'no computer has that name (the name was not found); check the spelling';
  if (nameLookupFailed.has(code)) {
    return 'its name could not be looked up just now (check the spelling, and the internet connection)';
  }
  if (notHttps.has(code)) return 'it does not speak https at that address and port (perhaps it needs http://)';
  if (certificate.test(code)) {
    return `its secure connection could not be trusted: a TLS/certificate problem (${code})`;
  }
  if (unreachable.has(code)) return `the computer could not be reached (${code})`;
  if (dropped.has(code)) return `the connection was closed before it answered (${code})`;
  if (code === 'bad port') return 'that port is one Quayside will not connect to (a port web browsers block)';
  return `it could not be reached (${code})`;
}

/** "Quayside could not use https://…/v2: <why>." */
export function addressFailureSentence(baseUrl: string, error: ApiError): string {
  return `Quayside could not use ${displayBaseUrl(baseUrl)}: ${describeAddressFailure(error)}.`;
}

/** The same address, however it was written: host case, a trailing slash. */
export function sameAddress(a: string, b: string): boolean {
  const normal = (text: string): string => {
    try {
      return new URL(text.trim()).href.replace(/\/+$/, '');
    } catch {
      return text.trim();
    }
  };
  return normal(a) === normal(b);
}

/**
 * An address that has answered as the Tracking API: the default, or one where a stored profile's
 * key was accepted. Failing to reach it means the connection is down, not that it is wrong.
 */
export function isKnownGoodAddress(baseUrl: string, acceptedAt: readonly string[]): boolean {
  return sameAddress(baseUrl, DEFAULT_BASE_URL) || acceptedAt.some((url) => sameAddress(baseUrl, url));
}
