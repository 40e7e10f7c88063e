/**
 * A team hub account on a laptop (Settings → add account → Team hub): a profile whose sync pulls
 * from the hub's PostgreSQL (`puller.ts`) instead of walking the service. profiles.json keeps the
 * address without its password; the password is kept in the secret store as an API key is, under
 * its own name beside the profile's. The profile's API key, when this computer has one, serves
 * the actions that write to the service; without one those say the account is read-only here.
 */
import pg from 'pg';
import type { HubAddress } from './address';
import { HubError, hubErrorOf } from './errors';
import { laptopHubAddress } from './puller';
import { hubSchemaVersion, newerSchemaMessage, readSchemaVersion } from './schema';

/** How Settings and messages name the address field. */
export const HUB_ADDRESS_FIELD = 'PostgreSQL';

/** What an action that writes to the service says on a team hub account without this computer's own API key. */
export const READ_ONLY_MESSAGE =
  'This account is read-only here: it is pulled from a team hub, and this computer has no API key of its own for it (add one in Settings to track numbers, edit tags or refresh).';

/** The secret store's name of a profile's hub password (the profile's id names its API key). */
export function hubPasswordAccount(profileId: string): string {
  return `${profileId}:hub`;
}

/**
 * A typed address split into what profiles.json keeps (the URL without its password) and the
 * password it held, if any. Throws a HubError of kind 'usage' for an address that is no
 * PostgreSQL URL Quayside reaches (the TLS rule included).
 */
export function splitHubUrl(
  text: string,
  password?: string,
): { url: string; password: string | null; address: HubAddress } {
  const address = laptopHubAddress(text.trim(), password || undefined, HUB_ADDRESS_FIELD);
  const url = new URL(text.trim());
  url.password = '';
  const secret =
    typeof address.config.password === 'string' && address.config.password ? address.config.password : null;
  return { url: url.toString(), password: secret, address };
}

/**
 * Connects once and checks that the database holds a hub this build reads; throws a HubError
 * (auth, network, failure) with one sentence, nothing written anywhere.
 */
export async function probeHub(address: HubAddress): Promise<void> {
  const client = new pg.Client({ ...address.config, query_timeout: 30_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const version = await readSchemaVersion(client);
    if (version > hubSchemaVersion) throw new HubError('failure', newerSchemaMessage(address.display, version));
    if (version < 1) {
      throw new HubError(
        'failure',
        `PostgreSQL at ${address.display} holds no team hub yet: point Quayside at the database the hub publishes into.`,
      );
    }
  } catch (error) {
    throw hubErrorOf(error, address.display);
  } finally {
    await client.end().catch(() => undefined);
  }
}
