/**
 * `export … --cf SLUG=VALUE`: a list's custom field filters from the command line, read by each
 * field's type in the database being exported (as the app's filter bar offers them): a pick list
 * takes an option (its value or its label, any case; repeat the flag for several), text what it
 * contains, a number `N`, `N..M`, `N..` or `..M`, a date `YYYY-MM-DD` or a range of them, yes/no
 * `yes`, `no`, `true` or `false`.
 */
import { customFieldFilterKind, type CustomFieldEntityType } from '../../shared/custom-fields';
import type { CustomFieldFilter, CustomFieldFilters } from '../../shared/views';
import { QuaysideError } from '../../core/errors';
import type { Db } from '../../core/store/database';
import {
  customFieldDefinitionRows,
  customFieldOptions,
  type DefinitionEntityType,
} from '../../core/store/queries/custom-fields';
import { UsageError } from '../io';

export const customFieldFlagsUsage = `--cf FIELD=VALUE  a custom field (its api_slug): an option of a pick list (repeat for several),
    text it contains, a number N, N..M, N.. or ..M, a day YYYY-MM-DD or DAY..DAY, yes or no`;

const definitionTypes: Record<CustomFieldEntityType, DefinitionEntityType> = {
  shipment: 'Shipment',
  container: 'Container',
  tracking_request: 'TrackingRequest',
};

/** `po_number=4500` → slug and text (the text may hold `=`). */
function split(flag: string): [string, string] {
  const at = flag.indexOf('=');
  if (at <= 0)
    throw new UsageError(`--cf takes FIELD=VALUE (a custom field's api_slug, then what to look for): ${flag}`);
  return [flag.slice(0, at).trim(), flag.slice(at + 1).trim()];
}

function range(
  text: string,
  read: (end: string) => string | number | undefined,
): [string | number | undefined, string | number | undefined] {
  if (!text.includes('..')) return [read(text), read(text)];
  const [low = '', high = ''] = text.split('..', 2);
  return [low === '' ? undefined : read(low), high === '' ? undefined : read(high)];
}

/**
 * The custom field filters `flags` ask for, checked against the fields of `entityType` in `db`:
 * an unknown field or a value its type does not take is refused with a sentence naming it.
 */
export function customFieldFlags(
  db: Db,
  entityType: CustomFieldEntityType,
  noun: string,
  flags: readonly string[],
): CustomFieldFilters {
  const definitionType = definitionTypes[entityType];
  const definitions = customFieldDefinitionRows(db, definitionType);
  const options = customFieldOptions(db, definitionType);
  const filters: CustomFieldFilters = {};
  for (const flag of flags) {
    const [slug, text] = split(flag);
    const definition = definitions.find((d) => d.apiSlug === slug);
    if (!definition) {
      const known = definitions.map((d) => d.apiSlug).join(', ') || 'none';
      throw new QuaysideError(
        'invalid_argument',
        `The ${noun} have no custom field “${slug}” in this database; they have: ${known}.`,
      );
    }
    const name = definition.name ?? slug;
    if (text === '') throw new QuaysideError('invalid_argument', `--cf ${slug}= needs a value to look for.`);
    const refuse = (what: string): never => {
      throw new QuaysideError('invalid_argument', `${name} (--cf ${slug}) takes ${what}, not “${text}”.`);
    };
    let filter: CustomFieldFilter;
    switch (customFieldFilterKind(definition.dataType ?? 'short_text')) {
      case 'options': {
        const choices = options.filter((o) => o.definitionId === definition.definitionId && o.value !== null);
        const wanted = text.toLowerCase();
        const option = choices.find((o) => o.value!.toLowerCase() === wanted || o.label?.toLowerCase() === wanted);
        if (!option) refuse(`one of ${choices.map((o) => o.value).join(', ')}`);
        const before = filters[slug];
        const values = before?.kind === 'options' ? before.values : [];
        filter = { kind: 'options', values: [...new Set([...values, option!.value!])] };
        break;
      }
      case 'number': {
        const [min, max] = range(text, (end) => {
          const n = Number(end);
          return end.trim() !== '' && Number.isFinite(n) ? n : refuse('a number, or a range such as 10..20');
        }) as [number | undefined, number | undefined];
        if (min !== undefined && max !== undefined && min > max) refuse('a range from the lower number to the higher');
        filter = { kind: 'number', min, max };
        break;
      }
      case 'date': {
        const [from, to] = range(text, (end) =>
          /^\d{4}-\d{2}-\d{2}$/.test(end) && !Number.isNaN(Date.parse(`${end}T00:00:00Z`))
            ? end
            : refuse('a day (YYYY-MM-DD), or a range such as 2026-03-01..2026-03-31'),
        ) as [string | undefined, string | undefined];
        if (from !== undefined && to !== undefined && from > to) refuse('a range from the earlier day to the later');
        filter = { kind: 'date', from, to };
        break;
      }
      case 'flag': {
        const word = text.toLowerCase();
        if (!['yes', 'no', 'true', 'false'].includes(word)) refuse('yes or no');
        filter = { kind: 'flag', is: word === 'yes' || word === 'true' };
        break;
      }
      default:
        filter = { kind: 'text', contains: text };
    }
    filters[slug] = filter;
  }
  return filters;
}
