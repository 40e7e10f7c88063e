/**
 * A team hub's PostgreSQL address (`postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=…`) as
 * the `pg` client's settings, with the TLS rule applied before anything is sent: this computer
 * (localhost, 127.0.0.1, ::1 or a unix socket) may be reached as the URL says; any other host
 * only over TLS, the server verified (certificate chain and host name) unless the URL says
 * otherwise. The URL's `sslmode` keeps libpq's meaning, except that no mode falls back to
 * plain text for another host: `disable` is refused there with one sentence, and `allow`,
 * `prefer` and no mode at all mean `verify-full`. `require` encrypts without verifying and
 * `verify-ca` checks the chain only, as libpq does, since a URL asks for those by name.
 * `sslrootcert=PATH` names the CA file (else Node's bundled CAs and NODE_EXTRA_CA_CERTS). The
 * password comes from the URL, else PGPASSWORD. The URL is parsed here, not by `pg`, so its
 * password never appears in a message and a CA file is read within a limit.
 */
import type { ClientConfig } from 'pg';
import type { ConnectionOptions } from 'node:tls';
import { readBoundedSync } from '../bounded-file';
import { HubError, quoted } from './errors';

export interface HubAddress {
  config: ClientConfig;
  /** The address without its password, for messages: `postgres://user@host:port/database`. */
  display: string;
  /** This computer: TLS only if the URL asks for it. */
  local: boolean;
}

const sslModes = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
type SslMode = (typeof sslModes)[number];
/** The URL parameters a hub reads; any other is refused, not silently dropped. */
const knownParams = new Set(['sslmode', 'sslrootcert', 'host', 'port', 'user', 'application_name', 'connect_timeout']);
/** A CA bundle is a few KB; a file larger than this is not one. */
const MAX_CA_BYTES = 1024 * 1024;
/** The longest connect_timeout taken: an hour (Node's timers would wrap a much longer one to 1 ms). */
const MAX_CONNECT_SECONDS = 3600;
const localHosts = new Set(['localhost', '127.0.0.1', '::1']);

const usage = (message: string) => new HubError('usage', message);

/** Whether a host is this computer: a loopback name or address, or a unix socket's folder. */
export function isLocalHost(host: string): boolean {
  return host.startsWith('/') || localHosts.has(host.toLowerCase());
}

/**
 * `flag`: how messages name the address (`--postgres` for the hub, `--hub` for a laptop's pull).
 */
export function hubAddress(text: string, env: NodeJS.ProcessEnv = process.env, flag = '--postgres'): HubAddress {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usage(`The ${flag} address is not a URL; write it as postgres://USER:PASSWORD@HOST:PORT/DATABASE.`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw usage(`The ${flag} address must start with postgres:// (it starts with ${url.protocol}//).`);
  }
  for (const key of url.searchParams.keys()) {
    if (!knownParams.has(key)) {
      throw usage(
        `The ${flag} address has a parameter Quayside does not read ("${key}"); it takes ${[...knownParams].join(', ')}.`,
      );
    }
  }
  const params = url.searchParams;
  const decode = (value: string) => {
    try {
      return decodeURIComponent(value);
    } catch {
      throw usage(`The ${flag} address has a badly escaped part (a % not followed by two hex digits).`);
    }
  };
  // An empty host= is no host (pg would take PGHOST's, or its own default, instead of the URL's).
  const host = params.get('host') || decode(url.hostname.replace(/^\[(.+)\]$/, '$1')) || 'localhost';
  const portText = params.get('port') ?? url.port;
  const port = portText ? Number(portText) : 5432;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw usage(`The ${flag} address has a port that is not a number from 1 to 65535 ("${portText}").`);
  }
  const database = decode(url.pathname.replace(/^\//, ''));
  if (!database) throw usage(`The ${flag} address names no database (postgres://HOST/DATABASE).`);
  const user = decode(url.username) || params.get('user') || undefined;
  const password = url.password ? decode(url.password) : env.PGPASSWORD || undefined;
  const mode = params.get('sslmode');
  if (mode !== null && !(sslModes as readonly string[]).includes(mode)) {
    throw usage(`The ${flag} address has an sslmode PostgreSQL does not know ("${mode}"); use ${sslModes.join(', ')}.`);
  }
  const local = isLocalHost(host);
  const where = host.startsWith('/') ? `the socket in ${host}` : host;
  const socket = host.startsWith('/');
  const shownHost = socket ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const display = `postgres://${user ? `${encodeURIComponent(user)}@` : ''}${shownHost}:${port}/${database}${socket ? `?host=${host}` : ''}`;
  if (!local && mode === 'disable') {
    throw usage(
      `Quayside will not reach PostgreSQL at ${where} without TLS (the address says sslmode=disable); only this computer's PostgreSQL may be reached unencrypted.`,
    );
  }
  const ssl = tlsOptions(local ? (mode ?? 'disable') : upgrade(mode), params.get('sslrootcert'));
  const timeout = params.get('connect_timeout');
  if (timeout !== null && !(/^\d{1,4}$/.test(timeout) && Number(timeout) <= MAX_CONNECT_SECONDS)) {
    throw usage(
      `The ${flag} address has a connect_timeout that is not a number of seconds from 0 to ${MAX_CONNECT_SECONDS} (${quoted(timeout)}).`,
    );
  }
  const config: ClientConfig = {
    host,
    port,
    database,
    user,
    password,
    ssl,
    application_name: params.get('application_name') ?? 'quayside-hub',
    connectionTimeoutMillis: timeout && Number(timeout) > 0 ? Number(timeout) * 1000 : 20_000,
  };
  return { config, display, local };
}

/** Another host's mode: never plain text, and verified unless the URL names a weaker check. */
function upgrade(mode: string | null): SslMode {
  return mode === 'require' || mode === 'verify-ca' ? mode : 'verify-full';
}

function tlsOptions(mode: string, rootCertPath: string | null): false | ConnectionOptions {
  if (mode === 'disable' || mode === 'allow' || mode === 'prefer') return false;
  const options: ConnectionOptions = {};
  if (rootCertPath) options.ca = readCa(rootCertPath);
  if (mode === 'require' && !rootCertPath) options.rejectUnauthorized = false;
  // verify-ca (and require with a CA, as libpq): the chain is checked, the host name is not.
  if (mode === 'verify-ca' || (mode === 'require' && rootCertPath)) options.checkServerIdentity = () => undefined;
  return options;
}

function readCa(path: string): string {
  const read = readBoundedSync(path, MAX_CA_BYTES);
  switch (read.kind) {
    case 'read':
      return read.bytes.toString('utf8');
    case 'missing':
      throw usage(`The CA file named by sslrootcert (${path}) does not exist.`);
    case 'not-a-file':
      throw usage(`The CA file named by sslrootcert (${path}) is ${read.what}, not a file.`);
    case 'too-large':
      throw usage(`The CA file named by sslrootcert (${path}) is larger than 1 MB, which no CA bundle is.`);
  }
}
