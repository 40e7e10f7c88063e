import { describe, expect, it } from 'vitest';

import { holdLabel, nameWithNickname } from '../../src/shared/labels';

describe('nameWithNickname', () => {
  it('says a name once when the nickname says the same', () => {
    expect(nameWithNickname('SSA Cooper', 'SSA Cooper')).toBe('SSA Cooper');
    expect(nameWithNickname('SSA  Cooper ', 'ssa cooper')).toBe('SSA  Cooper ');
    expect(nameWithNickname('Everport Terminal Services', 'ETS')).toBe('Everport Terminal Services (ETS)');
    expect(nameWithNickname(null, 'ETS')).toBe('ETS');
    expect(nameWithNickname('Everport', null)).toBe('Everport');
    expect(nameWithNickname(null, null)).toBeNull();
  });
});

describe('holdLabel', () => {
  it('reads a hold type as the service’s screens say it, whatever the case it came in', () => {
    expect(['customs', 'freight', 'USDA', 'usda', 'TMF', 'other'].map(holdLabel)).toEqual([
      'Customs',
      'Freight',
      'USDA',
      'USDA',
      'Traffic mitigation fee (TMF)',
      'Other',
    ]);
    // One the table does not know reads as words, never as a code with underscores.
    expect(holdLabel('port_fee')).toBe('Port fee');
    expect(holdLabel('CTF')).toBe('CTF');
  });
});
