/**
 * A custom field's value as the detail page edits it: the text in the input (`draftOf`), the
 * value a draft stands for, checked for the field's type (`valueOfDraft`, which throws a
 * sentence naming the problem), and the text shown for a value before the service answers.
 */
import type { CustomFieldItem, CustomFieldValue } from '../../../shared/custom-fields';

export function draftOf(field: CustomFieldItem): string {
  const { value } = field;
  if (value === null) return '';
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}

export function valueOfDraft(field: CustomFieldItem, draft: string): CustomFieldValue {
  const text = draft.trim();
  if (text === '') return null;
  switch (field.dataType) {
    case 'number': {
      const n = Number(text);
      if (!Number.isFinite(n)) throw new Error(`${field.name} takes a number.`);
      return n;
    }
    case 'boolean':
      return text === 'true';
    case 'date':
      if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) throw new Error(`${field.name} takes a date (YYYY-MM-DD).`);
      return text;
    case 'enum':
      if (!field.options.some((o) => o.value === text)) throw new Error(`Pick one of the choices for ${field.name}.`);
      return text;
    case 'enum_multi':
      return text
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
    default:
      if (text.length > 255) throw new Error(`${field.name} takes at most 255 characters.`);
      return text;
  }
}

/** What the page shows for a value until the service's display value arrives. */
export function shownValue(field: CustomFieldItem, value: CustomFieldValue): string | null {
  if (value === null) return null;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  const label = (v: string) => field.options.find((o) => o.value === v)?.label ?? v;
  if (Array.isArray(value)) return value.map(label).join(', ');
  return typeof value === 'string' ? label(value) : String(value);
}
