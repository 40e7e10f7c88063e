import type { Handlers } from '../../shared/ipc';
import { QuaysideError } from '../errors';
import { forgetRateLimiter, rateLimiterFor } from '../api/rate-limiter';
import { checkBaseUrl, DEFAULT_BASE_URL } from '../../shared/base-url';
import { checkApiKey } from '../profiles/validate-key';
import { isKnownGoodAddress } from '../profiles/address-problem';
import { hubPasswordAccount } from '../team/hub-account';
import type { CoreContext } from './context';

type ProfileHandlers = Pick<
  Handlers,
  'profiles:list' | 'profiles:add' | 'profiles:update' | 'profiles:remove' | 'profiles:switch' | 'profiles:validateKey'
>;

export function profileHandlers(ctx: CoreContext): ProfileHandlers {
  // An address where a key was accepted has answered as the Tracking API: failing to reach it
  // there means the connection is down. Any other address must answer before it is saved.
  const knownGood = (baseUrl: string) =>
    isKnownGoodAddress(
      baseUrl,
      ctx.profiles
        .list()
        .filter((p) => p.keyStatus === 'accepted')
        .map((p) => p.baseUrl),
    );
  const check = (apiKey: string, baseUrl: string) =>
    checkApiKey({
      apiKey,
      baseUrl,
      limiter: rateLimiterFor(apiKey),
      fetch: ctx.options.fetch,
      knownGood: knownGood(baseUrl),
    });
  const refused = (message: string) => new QuaysideError('key_refused', message, { fields: { apiKey: message } });
  // Nothing is saved and nothing switches: the account shown before stays shown.
  const addressFailed = (message: string) => {
    const active = ctx.profiles.activeId === null ? null : ctx.profiles.get(ctx.profiles.activeId);
    const sentence = `${message} Nothing was saved; ${active ? active.name : 'the demo account'} is still shown.`;
    return new QuaysideError('invalid_argument', sentence, { fields: { baseUrl: sentence } });
  };
  const announce = async () => {
    const state = await ctx.profilesState();
    ctx.events.emit('profiles:changed', state);
    return state;
  };

  return {
    'profiles:list': () => ctx.profilesState(),
    'profiles:validateKey': ({ apiKey, baseUrl }) => check(apiKey, baseUrl ?? DEFAULT_BASE_URL),
    'profiles:add': async ({ name, apiKey, baseUrl }) => {
      const url = baseUrl ?? DEFAULT_BASE_URL;
      const result = await check(apiKey, url);
      if (result.result === 'refused') throw refused(result.message);
      if (result.result === 'address-failed') throw addressFailed(result.message);
      // The key goes to the secret store first: a profile never exists without its key.
      const id = crypto.randomUUID();
      const storage = await ctx.vault.save(id, apiKey);
      let profile;
      try {
        profile = ctx.profiles.add({
          id,
          name,
          baseUrl: url,
          keyLast4: apiKey.slice(-4),
          keyStatus: result.result === 'accepted' ? 'accepted' : 'unverified',
          keyStorage: storage,
        });
      } catch (error) {
        // profiles.json could not be written: no profile, so no key left behind for it either.
        await ctx.vault.remove(id);
        throw error;
      }
      await ctx.switchSession(profile.id);
      return { profile, check: result, state: await announce() };
    },
    'profiles:update': async ({ id, name, apiKey, baseUrl }) => {
      const existing = ctx.profiles.get(id);
      if (!existing) throw new QuaysideError('not_found', 'There is no such profile.');
      const url = baseUrl ?? existing.baseUrl;
      // The stored key never follows a new address on its own: whoever changes where it is sent
      // must also know it.
      if (url !== existing.baseUrl && !apiKey) {
        const message = 'Enter the API key again to change the base URL.';
        throw new QuaysideError('invalid_argument', message, { fields: { apiKey: message } });
      }
      // A stored base URL the rule refuses (profiles.json from elsewhere) never receives a key,
      // not even a new one: the profile needs an accepted base URL first.
      const allowed = checkBaseUrl(url);
      if (apiKey && !allowed.ok) {
        throw new QuaysideError('invalid_argument', allowed.reason, { fields: { baseUrl: allowed.reason } });
      }
      let result = null;
      const patch: Parameters<typeof ctx.profiles.update>[1] = { name: name ?? existing.name, baseUrl: url };
      if (apiKey) {
        result = await check(apiKey, url);
        if (result.result === 'refused') throw refused(result.message);
        if (result.result === 'address-failed') throw addressFailed(result.message);
        patch.keyStorage = await ctx.vault.save(id, apiKey);
        patch.keyLast4 = apiKey.slice(-4);
        patch.keyStatus = result.result === 'accepted' ? 'accepted' : 'unverified';
      }
      const profile = ctx.profiles.update(id, patch);
      // Checkpoints name pages on the old address; the next sync starts its walks over.
      if (url !== existing.baseUrl) {
        const { openDatabase } = await import('../store/database');
        const { clearWalkCheckpoints } = await import('../store/sync-state');
        const db = openDatabase(ctx.profiles.databasePath(id));
        clearWalkCheckpoints(db);
        db.close();
      }
      // A new key or base URL takes effect at once for the account being shown.
      if ((apiKey || url !== existing.baseUrl) && ctx.profiles.activeId === id) await ctx.switchSession(id);
      return { profile, check: result, state: await announce() };
    },
    'profiles:remove': async ({ id, deleteData }) => {
      const removed = ctx.profiles.get(id);
      if (!removed) throw new QuaysideError('not_found', 'There is no such profile.');
      const path = ctx.profiles.databasePath(id);
      if (ctx.profiles.activeId === id) await ctx.switchSession(null);
      // The key's limiter goes with it: the registry keeps one per key for the whole process.
      const key = await ctx.vault.load(id, removed.keyStorage);
      if (key) forgetRateLimiter(key);
      await ctx.vault.remove(id);
      if (removed.hub) await ctx.vault.remove(hubPasswordAccount(id));
      ctx.profiles.remove(id);
      if (deleteData) {
        const { rmSync } = await import('node:fs');
        for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
      }
      return announce();
    },
    'profiles:switch': async ({ id }) => {
      if (id !== null && !ctx.profiles.get(id)) throw new QuaysideError('not_found', 'There is no such profile.');
      await ctx.switchSession(id);
      return announce();
    },
  };
}
