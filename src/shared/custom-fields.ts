/**
 * Custom fields (the account's own fields: PO numbers, customer codes, cost centres) as the
 * views and IPC see them: the record types that carry them, a record's fields with their
 * values, the options of pick-list fields, and the arguments of the channels that read and set
 * them. No node, electron or DOM imports here.
 */
import { z } from 'zod';

/** The record types a custom field is kept on, as the API's relationships name them. */
export const customFieldEntityTypes = ['shipment', 'container', 'tracking_request'] as const;
export type CustomFieldEntityType = (typeof customFieldEntityTypes)[number];

/** A value as the API holds it: text, a number, yes/no, a list of texts (multi pick), or unset. */
export type CustomFieldValue = string | number | boolean | string[] | null;

export interface CustomFieldOption {
  value: string;
  label: string;
}

export interface CustomFieldItem {
  definitionId: string;
  apiSlug: string;
  name: string;
  /** short_text, number, date, datetime, boolean, enum, enum_multi, reference. */
  dataType: string;
  description: string | null;
  value: CustomFieldValue;
  /** The text shown: the service's display value, an option's label, or the value itself. */
  displayValue: string | null;
  /** The choices of a pick-list field (empty for the others). */
  options: CustomFieldOption[];
}

export interface CustomFieldsOfRecord {
  fields: CustomFieldItem[];
  /**
   * Set when the service could not list this record type's values at the last sync and they
   * were read for this record alone (or could not be: offline), in a forwarder's words.
   */
  notice: string | null;
}

const recordRef = {
  entityType: z.enum(customFieldEntityTypes),
  id: z.string().min(1).max(200),
};

export const customFieldsOfRecordSchema = z.object(recordRef).strict();

const value = z.union([
  z.string().max(255),
  z.number().finite(),
  z.boolean(),
  z.array(z.string().max(255)).max(50),
  z.null(),
]);

export const setCustomFieldSchema = z
  .object({
    ...recordRef,
    apiSlug: z.string().min(1).max(100),
    /** null clears the field. */
    value,
  })
  .strict();

/**
 * A custom field's value as a list row carries it: the value (for dates, numbers and yes/no, which
 * the list formats) and the text shown (an option's label for pick lists).
 */
export interface CustomFieldCell {
  value: CustomFieldValue;
  text: string | null;
}

/** A list row's custom field values, by `api_slug` (a field the record leaves unset is absent). */
export type CustomFieldCells = Partial<Record<string, CustomFieldCell>>;

/** A pick-list option with how many records of the type hold it (the filter's pick list). */
export interface CustomFieldOptionCount extends CustomFieldOption {
  count: number;
}

/** A definition of a record type, as the lists offer it: a column, a sort and a filter. */
export interface CustomFieldDefinitionInfo {
  apiSlug: string;
  name: string;
  /** short_text, number, date, datetime, boolean, enum, enum_multi, reference. */
  dataType: string;
  description: string | null;
  /** The choices of a pick-list field, in their order (empty for the others). */
  options: CustomFieldOptionCount[];
}

/** `customFields:definitions`: the fields of one record type. */
export const customFieldDefinitionsSchema = z.object({ entityType: z.enum(customFieldEntityTypes) }).strict();

/**
 * How a list filters and sorts by a field of each data type: pick lists by their options, text by
 * what it contains, numbers and dates by a range, yes/no by its answer.
 */
export type CustomFieldFilterKind = 'options' | 'text' | 'number' | 'date' | 'flag';
export function customFieldFilterKind(dataType: string): CustomFieldFilterKind {
  switch (dataType) {
    case 'enum':
    case 'enum_multi':
      return 'options';
    case 'number':
      return 'number';
    case 'date':
    case 'datetime':
      return 'date';
    case 'boolean':
      return 'flag';
    default:
      return 'text';
  }
}
