/**
 * The one rule for where Quayside sends an API key: every base URL (the profile form, the IPC
 * schemas, the CLI's --base-url and T49_API_BASE_URL, profiles.json on load) passes through
 * `checkBaseUrl`. The key travels in the Authorization header of every request, so it goes over
 * https, or over plain http only to this computer (loopback), and never to a URL that carries
 * credentials, a query or a fragment of its own. Runs in the renderer too: web-standard URL only.
 */
import { z } from 'zod';

export const DEFAULT_BASE_URL = 'https://api.terminal49.com/v2';
export const BASE_URL_MAX_LENGTH = 300;

export type BaseUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

/** 127.0.0.0/8, ::1 and localhost: the URL parser has already normalised 127.1 or 0x7f.0.0.1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Accepts a base URL, or says in one sentence why Quayside will not send a key there. */
export function checkBaseUrl(text: string): BaseUrlCheck {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'The base URL is empty.' };
  if (trimmed.length > BASE_URL_MAX_LENGTH) {
    return { ok: false, reason: `The base URL is longer than ${BASE_URL_MAX_LENGTH} characters.` };
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return {
      ok: false,
      reason: `The base URL is not a web address; it should look like ${DEFAULT_BASE_URL}.`,
    };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return {
      ok: false,
      reason: `The base URL must start with https:// (it starts with ${url.protocol}//, which Quayside cannot use to reach the Tracking API).`,
    };
  }
  if (url.username !== '' || url.password !== '') {
    return {
      ok: false,
      reason: 'The base URL must not contain a user name or password; Quayside sends the API key on its own.',
    };
  }
  // `new URL('https://h/v2?')` keeps no search, so look at the text itself.
  if (trimmed.includes('?') || trimmed.includes('#')) {
    return {
      ok: false,
      reason: 'The base URL must not contain a query (?…) or a fragment (#…); give the address up to /v2 only.',
    };
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return {
      ok: false,
      reason: `The base URL must use https: over plain http the API key would cross the network unencrypted (http is allowed only to this computer: localhost, 127.x.x.x or [::1]).`,
    };
  }
  return { ok: true, url: trimmed };
}

/** A base URL fit to print: any user name or password in it is replaced by "***". */
export function displayBaseUrl(text: string): string {
  try {
    const url = new URL(text.trim());
    if (url.username === '' && url.password === '') return text.trim();
    url.username = '***';
    url.password = '';
    return url.href;
  } catch {
    // Not a URL: cut anything that looks like credentials before an @.
    return text.trim().replace(/\/\/[^/@]*@/, '//***@');
  }
}

/** The rule as a zod schema for the IPC arguments and the profile form. */
export const baseUrlSchema = z
  .string()
  .trim()
  .superRefine((text, ctx) => {
    const checked = checkBaseUrl(text);
    if (!checked.ok) ctx.addIssue({ code: 'custom', message: checked.reason });
  });
