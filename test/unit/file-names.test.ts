/**
 * File names from outside text (core/file-names.ts): plain on every system, never a device name
 * Windows reserves, cut by UTF-8 bytes on whole characters with the suffix and extension kept.
 */
import { describe, expect, it } from 'vitest';
import { fileNameWithin, plainStem } from '../../src/core/file-names';

const name = (text: string, suffix = '', max = 150) => fileNameWithin(plainStem(text), suffix, 'csv', max);

describe('file names from outside text', () => {
  it.each([
    ['../../etc/passwd', '_.._etc_passwd.csv'],
    ['C:\\Users\\x', 'C__Users_x.csv'],
    ['a<b>c:"d"|e?f*g', 'a_b_c__d__e_f_g.csv'],
    ['  .hidden. ', 'hidden.csv'],
    ['tab\there\r\nnext', 'tab here next.csv'],
    ['right\u202Eto\u2066left\u2069\u200B', 'righttoleft.csv'],
    ['lone \uD800 half', 'lone half.csv'],
  ])('%j is %j', (text, expected) => {
    expect(name(text)).toBe(expected);
  });

  it.each([
    ['CON', '_CON.csv'],
    ['con.txt', '_con.txt.csv'],
    ['Aux ', '_Aux.csv'],
    ['nul .tar', '_nul .tar.csv'],
    ['LPT1', '_LPT1.csv'],
    ['COM¹', '_COM¹.csv'],
  ])('the device name %j Windows reserves gets a _ before it: %j', (text, expected) => {
    expect(name(text)).toBe(expected);
  });

  it.each([['CONSOLE'], ['COM10'], ['Contoso']])('%j is no device name and stays as it is', (text) => {
    expect(name(text)).toBe(`${text}.csv`);
  });

  it('cuts by UTF-8 bytes on whole characters, keeping the suffix and extension', () => {
    // q and a combining accent (no letter of its own to compose to): 3 bytes that stay together.
    const accented = 'q\u0301'.repeat(60);
    const cut = name(accented, ' (2)', 40);
    expect(cut).toBe(`${'q\u0301'.repeat(10)} (2).csv`);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(40);
    const flag = '\u{1F3F3}\uFE0F\u200D\u{1F308}';
    expect(name(flag.repeat(20), '', 50)).toBe(`${flag.repeat(3)}.csv`);
  });

  it('leaves nothing of a name made only of dots, spaces and invisible marks', () => {
    expect(plainStem(' . \u202E.. ')).toBe('');
  });
});
