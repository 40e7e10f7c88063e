/**
 * Settings → add account → Team hub: the hub is asked first (the address, the role's password,
 * a hub schema this build reads), then the optional API key is checked with the service; only
 * then are the password and key kept in the secret store and the profile saved and shown.
 * Anything refused saves nothing and names the field to fix.
 */
import type { Handlers } from '../../shared/ipc';
import type { KeyCheck } from '../../shared/types';
import { DEFAULT_BASE_URL } from '../../shared/base-url';
import { rateLimiterFor } from '../api/rate-limiter';
import { QuaysideError } from '../errors';
import { isKnownGoodAddress } from '../profiles/address-problem';
import { checkApiKey } from '../profiles/validate-key';
import { HubError } from '../team/errors';
import { hubPasswordAccount, probeHub, splitHubUrl } from '../team/hub-account';
import type { CoreContext } from './context';

type TeamHubHandlers = Pick<Handlers, 'profiles:addHub'>;

export function teamHubHandlers(ctx: CoreContext): TeamHubHandlers {
  const refused = (field: string, message: string) =>
    new QuaysideError(field === 'password' ? 'key_refused' : 'invalid_argument', `${message} Nothing was saved.`, {
      fields: { [field]: `${message} Nothing was saved.` },
    });

  return {
    'profiles:addHub': async ({ name, hubUrl, password, apiKey, baseUrl }) => {
      let split: ReturnType<typeof splitHubUrl>;
      try {
        split = splitHubUrl(hubUrl, password);
      } catch (error) {
        if (error instanceof HubError) throw refused('hubUrl', error.message);
        throw error;
      }
      try {
        await probeHub(split.address);
      } catch (error) {
        if (!(error instanceof HubError)) throw error;
        throw refused(error.kind === 'auth' ? 'password' : 'hubUrl', error.message);
      }
      const url = baseUrl ?? DEFAULT_BASE_URL;
      let check: KeyCheck | null = null;
      if (apiKey) {
        check = await checkApiKey({
          apiKey,
          baseUrl: url,
          limiter: rateLimiterFor(apiKey),
          fetch: ctx.options.fetch,
          knownGood: isKnownGoodAddress(url, []),
        });
        if (check.result === 'refused' || check.result === 'address-failed') {
          throw refused(check.result === 'refused' ? 'apiKey' : 'baseUrl', check.message);
        }
      }
      const id = crypto.randomUUID();
      try {
        const passwordStorage = split.password
          ? await ctx.vault.save(hubPasswordAccount(id), split.password)
          : undefined;
        const keyStorage = apiKey ? await ctx.vault.save(id, apiKey) : undefined;
        const profile = ctx.profiles.add({
          id,
          name,
          baseUrl: url,
          keyLast4: apiKey ? apiKey.slice(-4) : '',
          keyStatus: check?.result === 'accepted' ? 'accepted' : 'unverified',
          keyStorage: keyStorage ?? passwordStorage ?? 'session',
          hub: { url: split.url, ...(passwordStorage ? { passwordStorage } : {}) },
        });
        await ctx.switchSession(profile.id);
        const state = await ctx.profilesState();
        ctx.events.emit('profiles:changed', state);
        return { profile, check, state };
      } catch (error) {
        // No profile without its secrets, and no secrets left behind without their profile.
        if (!ctx.profiles.get(id)) {
          await ctx.vault.remove(id);
          await ctx.vault.remove(hubPasswordAccount(id));
        }
        throw error;
      }
    },
  };
}
