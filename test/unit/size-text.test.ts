import { describe, expect, it } from 'vitest';
import { sizeText } from '../../src/core/sync/document-download';

describe('a file size in words', () => {
  it('says KB below a megabyte and MB from where KB would read 1024', () => {
    expect(sizeText(0)).toBe('1 KB');
    expect(sizeText(512 * 1024)).toBe('512 KB');
    expect(sizeText(1023 * 1024)).toBe('1023 KB');
    expect(sizeText(1024 * 1024 - 100)).toBe('1.0 MB');
    expect(sizeText(1024 * 1024)).toBe('1.0 MB');
    expect(sizeText(25 * 1024 * 1024)).toBe('25.0 MB');
  });
});
