import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Random } from '../../src/sandbox/random';
import { channelNames, contract } from '../../src/shared/ipc';
import { testCore, value } from '../helpers/core';

/** Every file under a folder with its size and modification time. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else out[path] = `${stat.size}:${stat.mtimeMs}`;
    }
  };
  walk(dir);
  return out;
}

const hostile = [
  null,
  0,
  -1,
  Number.MAX_SAFE_INTEGER,
  Number.NaN,
  true,
  '',
  ' ',
  "'; DROP TABLE shipments; --",
  '../../../etc/passwd',
  '\u0000\u001f\u007f',
  '<script>alert(1)</script>',
  '=HYPERLINK("http://x")',
  'x'.repeat(100_000),
  [],
  [null],
  Array.from({ length: 5000 }, (_, i) => i),
  {},
  { __proto__: { polluted: true } },
  JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
  { constructor: { prototype: { polluted: true } } },
  { id: { $gt: '' } },
  { id: ['a'] },
  { id: 'x', extra: 1 },
  { filters: { search: 5 } },
  { filters: {}, page: { limit: 1e9 } },
  { filters: {}, sort: { field: 'raw; DROP TABLE x', direction: 'asc' } },
  { apiKey: 'has spaces in it', name: 'x' },
  { view: 'shipments', filters: { etaFrom: 'yesterday' } },
];

function randomValue(random: Random, depth = 0): unknown {
  const kind = random.int(0, depth > 2 ? 5 : 8);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return random.float(-1e12, 1e12);
    case 2:
      return random.chance(0.5);
    case 3:
      return random.letters(random.int(0, 12));
    case 4:
      return String.fromCharCode(...Array.from({ length: random.int(1, 20) }, () => random.int(0, 0xffff)));
    case 5:
      return random.int(-10, 10);
    case 6:
      return Array.from({ length: random.int(0, 4) }, () => randomValue(random, depth + 1));
    default: {
      const keys = [
        'id',
        'filters',
        'sort',
        'page',
        'mode',
        'name',
        'apiKey',
        'baseUrl',
        'view',
        'tags',
        'text',
        'limit',
        random.letters(5),
      ];
      const object: Record<string, unknown> = {};
      for (let i = random.int(0, 4); i > 0; i--) object[random.pick(keys)] = randomValue(random, depth + 1);
      return object;
    }
  }
}

describe('IPC under fuzz', () => {
  it('refuses thousands of invalid arguments on every channel with a validation error, and writes nothing', async () => {
    const { core, dataDir } = testCore();
    await value(core, 'settings:update', { theme: 'dark' });
    const before = snapshot(dataDir);
    const random = new Random('fuzz');
    let calls = 0;
    for (const channel of channelNames) {
      const candidates = [...hostile, ...Array.from({ length: 70 }, () => randomValue(random))];
      for (const arg of candidates) {
        // Only values the contract refuses: a valid one could rightly write.
        if (arg === undefined || contract[channel].args.safeParse(arg).success) continue;
        const envelope = await core.call(channel, arg);
        calls++;
        expect(envelope.ok, `${channel} accepted ${JSON.stringify(arg)?.slice(0, 80)}`).toBe(false);
        if (!envelope.ok) {
          expect(envelope.error.code).toBe('invalid_argument');
          expect(envelope.error.message.length).toBeLessThan(2000);
        }
      }
    }
    expect(calls).toBeGreaterThan(2500);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await value(core, 'app:info')).toMatchObject({ name: 'Quayside' });
    expect(await value(core, 'settings:get')).toMatchObject({ theme: 'dark' });
    expect(snapshot(dataDir)).toEqual(before);
    await core.close();
  });

  it('answers unknown channels and odd channel names without crashing', async () => {
    const { core } = testCore();
    for (const name of [
      '',
      'app:',
      'app:info ',
      'APP:INFO',
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      42,
      null,
      {},
      ['app:info'],
    ]) {
      const envelope = await core.call(name, undefined);
      expect(envelope).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    }
    await core.close();
  });
});
