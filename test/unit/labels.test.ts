import { describe, expect, it } from 'vitest';

import { nameWithNickname } from '../../src/shared/labels';

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
