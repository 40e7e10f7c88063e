/**
 * rowList reads the JSON arrays the writer stores (tags, reference numbers): its split of the
 * writer's plain form must give what JSON.parse gives, for any text a column may hold.
 */
import { describe, expect, it } from 'vitest';
import { rowList } from '../../src/core/resources/define-list';

function parsed(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  try {
    const list = JSON.parse(value) as unknown;
    return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

describe('rowList', () => {
  it('reads what the writer stored, escapes and odd text included, as JSON.parse does', () => {
    const odd = ['[]', '[""]', '["]', '["a"]', '["a","b"]', '["a",""]', '["","a"]', '[ "a" ]', '["a" ,"b"]'];
    odd.push('["a"]x"]', '["a\\"b"]', '["a\nb"]', '["a\\nb"]', '["a",1]', '["a",]', '["a"', 'x', '["a""b"]', '[","]');
    odd.push('["é🚢","\u2028"]', '["a","b"],["c"]', '{"a":1}', '["\\u0041"]');
    for (const text of odd) expect(rowList(text), text).toEqual(parsed(text));
    expect(rowList(null)).toEqual([]);
    expect(rowList(42)).toEqual([]);

    const alphabet = ['a', 'Z', '7', ' ', ',', '"', '\\', '\n', '\u0000', '\u001f', 'é', '🚢', '[', ']'];
    let seed = 4_242;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (let i = 0; i < 3000; i++) {
      const list: string[] = [];
      for (let n = next() % 4; n > 0; n--) {
        let item = '';
        for (let k = next() % 5; k > 0; k--) item += alphabet[next() % alphabet.length];
        list.push(item);
      }
      const stored = JSON.stringify(list);
      expect(rowList(stored)).toEqual(list);
      // The same text with a character cut out or doubled: damaged, still read as JSON.parse reads it.
      const at = next() % stored.length;
      const cut = stored.slice(0, at) + stored.slice(at + 1);
      const doubled = stored.slice(0, at) + stored[at]! + stored.slice(at);
      expect(rowList(cut), cut).toEqual(parsed(cut));
      expect(rowList(doubled), doubled).toEqual(parsed(doubled));
    }
  });
});
