/**
 * Words of Settings → Custom fields: the choices typed for a new pick list, how many values a
 * field holds, and what deleting it takes with it.
 */
import { entityTypeLabels, type AdminDefinition } from '../../../shared/custom-field-admin';
import { formatCount } from './format';

/** The choices typed one a line (or separated by commas), trimmed, each once. */
export function choiceList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/\n|,/)
        .map((s) => s.trim().replace(/\s+/g, ' '))
        .filter(Boolean),
    ),
  ];
}

const recordsOf = (d: AdminDefinition) => entityTypeLabels[d.entityType].toLowerCase();
const values = (n: number) => `${formatCount(n)} ${n === 1 ? 'value' : 'values'}`;

/** "12 values on containers", or "no values yet". */
export const valuesText = (d: AdminDefinition): string =>
  d.valueCount === 0 ? 'no values yet' : `${values(d.valueCount)} on ${recordsOf(d)}`;

/** The question asked before a field is deleted: for whom, and how many values go with it. */
export function deleteQuestion(d: AdminDefinition): string {
  const going =
    d.valueCount === 0
      ? `No ${recordsOf(d)} hold a value of it yet.`
      : `Its ${values(d.valueCount)} on ${recordsOf(d)} ${d.valueCount === 1 ? 'goes' : 'go'} with it.`;
  return `Delete the custom field “${d.name}” for everyone on this account? ${going}`;
}
