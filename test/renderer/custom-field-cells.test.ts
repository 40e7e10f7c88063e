/**
 * A list's custom field cells and chips for fields the service names like an object's own members
 * (`constructor`, `toString`, `__proto__`): a record without a value shows an empty cell, and a
 * chip holds no filter it was not given.
 */
import { describe, expect, it } from 'vitest';
import type { CustomFieldCells, CustomFieldDefinitionInfo } from '../../src/shared/custom-fields';
import { customFieldCell, customFieldFilterOf } from '../../src/renderer/src/lib/lists-custom-fields';

const field = (apiSlug: string): CustomFieldDefinitionInfo => ({
  apiSlug,
  name: apiSlug,
  dataType: 'short_text',
  description: null,
  options: [],
});

/** Cells as they cross from core: a plain object, `__proto__` one of its own members. */
const cells: CustomFieldCells = JSON.parse(
  '{"__proto__":{"value":"P-1","text":"P-1"},"po":{"value":"4500","text":"4500"}}',
);

describe('custom fields named like an object’s members', () => {
  it('show their own value, or an empty cell where the record has none', () => {
    expect(customFieldCell(field('__proto__'), cells)).toMatchObject({ kind: 'text', text: 'P-1' });
    expect(customFieldCell(field('po'), cells)).toMatchObject({ kind: 'text', text: '4500' });
    for (const slug of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(customFieldCell(field(slug), cells)).toEqual({ kind: 'text', text: '' });
    }
  });

  it('hold no filter a chip was not given', () => {
    const filters = { customFields: { po: { kind: 'text', contains: '45' } } };
    expect(customFieldFilterOf(filters, 'po')).toEqual({ kind: 'text', contains: '45' });
    for (const slug of ['constructor', 'toString', '__proto__'])
      expect(customFieldFilterOf(filters, slug)).toBeUndefined();
  });
});
