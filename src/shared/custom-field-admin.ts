/**
 * What an account's admin does with custom fields from Settings: the definitions of every record
 * type with their pick-list options and how many records hold a value, and the arguments of the
 * channels that create, rename and delete a definition and its options at the service. No node,
 * electron or DOM imports here.
 */
import { z } from 'zod';

/** The record types a definition is for, as the service names them. */
export const definitionEntityTypes = ['Shipment', 'Container', 'TrackingRequest'] as const;
export type DefinitionEntityType = (typeof definitionEntityTypes)[number];

/** The types a new definition may be for: the API reference creates them on shipments and containers. */
export const creatableEntityTypes = ['Shipment', 'Container'] as const;

/** The data types a new definition may have, in the order a form offers them. */
export const creatableDataTypes = [
  'short_text',
  'number',
  'date',
  'datetime',
  'boolean',
  'enum',
  'enum_multi',
] as const;
export type CreatableDataType = (typeof creatableDataTypes)[number];

export const dataTypeLabels: Record<string, string> = {
  short_text: 'Text',
  number: 'Number',
  date: 'Date',
  datetime: 'Date and time',
  boolean: 'Yes / no',
  enum: 'Pick list (one choice)',
  enum_multi: 'Pick list (several choices)',
  reference: 'Reference',
};

export const entityTypeLabels: Record<DefinitionEntityType, string> = {
  Shipment: 'Shipments',
  Container: 'Containers',
  TrackingRequest: 'Tracking requests',
};

export const isPickList = (dataType: string): boolean => dataType === 'enum' || dataType === 'enum_multi';

export interface AdminOption {
  id: string;
  label: string;
  /** What records hold: set when the option is made, never changed. */
  value: string;
}

export interface AdminDefinition {
  id: string;
  entityType: DefinitionEntityType;
  apiSlug: string;
  name: string;
  dataType: string;
  description: string | null;
  options: AdminOption[];
  /** How many records hold a value of this field here (what deleting it takes with it). */
  valueCount: number;
}

const id = z.string().min(1).max(200);
/** A name or an option's label as typed: trimmed, one line, 1 to 100 characters. */
const label = (what: string) =>
  z
    .string()
    .transform((s) => s.trim().replace(/\s+/g, ' '))
    .pipe(z.string().min(1, `${what} can't be empty.`).max(100, `${what} is at most 100 characters.`));

export const createDefinitionSchema = z
  .object({
    entityType: z.enum(creatableEntityTypes),
    name: label('The name'),
    dataType: z.enum(creatableDataTypes),
    /** The choices of a pick list, in their order (ignored for other types). */
    options: z.array(label('A choice')).max(100).default([]),
  })
  .strict()
  .superRefine((arg, ctx) => {
    const seen = new Set<string>();
    for (const [i, option] of arg.options.entries()) {
      const key = option.toLowerCase();
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: ['options', i], message: `“${option}” is listed twice.` });
      seen.add(key);
    }
  });

export const renameDefinitionSchema = z.object({ id, name: label('The name') }).strict();
export const deleteDefinitionSchema = z.object({ id }).strict();
export const createOptionSchema = z.object({ definitionId: id, label: label('A choice') }).strict();
export const renameOptionSchema = z.object({ definitionId: id, optionId: id, label: label('A choice') }).strict();
export const deleteOptionSchema = z.object({ definitionId: id, optionId: id }).strict();

/** What a definition's deletion took: the values it held here. */
export interface DeletedDefinition {
  deleted: true;
  values: number;
}
