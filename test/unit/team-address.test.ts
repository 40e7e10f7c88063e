/**
 * The team hub's PostgreSQL address: this computer as the URL says, any other host over TLS
 * with the server verified unless the URL names a weaker check, never in plain text; each bad
 * address refused with one sentence that never repeats its password.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hubAddress } from '../../src/core/team/address';
import { HubError } from '../../src/core/team/errors';
import { tempDir } from '../helpers/temp-dir';

function refusal(url: string): string {
  try {
    hubAddress(url, {});
  } catch (error) {
    expect(error).toBeInstanceOf(HubError);
    expect((error as HubError).kind).toBe('usage');
    return (error as Error).message;
  }
  throw new Error(`${url} was accepted`);
}

describe('hub address', () => {
  it('reaches this computer as the URL says: no TLS unless asked for', () => {
    for (const host of ['127.0.0.1', 'localhost', '[::1]']) {
      const address = hubAddress(`postgres://hub:secret@${host}:5433/team`, {});
      expect(address.local).toBe(true);
      expect(address.config).toMatchObject({
        port: 5433,
        database: 'team',
        user: 'hub',
        password: 'secret',
        ssl: false,
      });
      expect(address.display).not.toContain('secret');
    }
    const socket = hubAddress('postgres:///team?host=/var/run/postgresql&user=hub', {});
    expect(socket).toMatchObject({ local: true, config: { host: '/var/run/postgresql', user: 'hub', ssl: false } });
    expect(hubAddress('postgres://127.0.0.1/team?sslmode=verify-full', {}).config.ssl).toEqual({});
  });

  it('reaches any other host over TLS, the server verified, whatever weaker mode falls back to plain text', () => {
    for (const mode of ['', '?sslmode=prefer', '?sslmode=allow', '?sslmode=verify-full']) {
      const { config, local } = hubAddress(`postgres://hub@db.example.com/team${mode}`, {});
      expect(local).toBe(false);
      // Node verifies the chain and the host name unless told otherwise: nothing here tells it so.
      expect(config.ssl).toEqual({});
    }
    const required = hubAddress('postgres://hub@db.example.com/team?sslmode=require', {}).config.ssl;
    expect(required).toEqual({ rejectUnauthorized: false });
  });

  it('verifies against the CA file sslrootcert names', () => {
    const ca = join(tempDir(), 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    const ssl = hubAddress(`postgres://hub@10.0.0.5/team?sslrootcert=${ca}`, {}).config.ssl;
    expect(ssl).toEqual({ ca: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' });
    expect(refusal(`postgres://hub@10.0.0.5/team?sslrootcert=${join(tempDir(), 'none.pem')}`)).toMatch(
      /^The CA file named by sslrootcert \(.*none\.pem\) does not exist\.$/,
    );
  });

  it('refuses plain text to another host, and each bad address, with one sentence', () => {
    expect(refusal('postgres://hub:secret@db.example.com/team?sslmode=disable')).toBe(
      "Quayside will not reach PostgreSQL at db.example.com without TLS (the address says sslmode=disable); only this computer's PostgreSQL may be reached unencrypted.",
    );
    expect(refusal('mysql://db.example.com/team')).toBe(
      'The --postgres address must start with postgres:// (it starts with mysql://).',
    );
    expect(refusal('postgres://db.example.com')).toBe(
      'The --postgres address names no database (postgres://HOST/DATABASE).',
    );
    expect(refusal('postgres://db.example.com/team?sslmode=sometimes')).toMatch(
      /^The --postgres address has an sslmode/,
    );
    expect(refusal('postgres://db.example.com/team?options=-csearch_path%3Dx')).toMatch(
      /^The --postgres address has a parameter Quayside does not read \("options"\)/,
    );
    expect(refusal('not a url')).toMatch(/^The --postgres address is not a URL/);
    for (const message of [refusal('postgres://hub:secret@db.example.com/team?sslmode=disable')]) {
      expect(message).not.toContain('secret');
    }
  });

  it('takes the password from PGPASSWORD when the URL has none', () => {
    expect(hubAddress('postgres://hub@127.0.0.1/team', { PGPASSWORD: 'from-env' }).config.password).toBe('from-env');
  });
});
