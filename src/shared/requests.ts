/** Argument schemas of the IPC channels that are not list views. */
import { z } from 'zod';
import { baseUrlSchema } from './base-url';
import { containerFiltersSchema, shipmentFiltersSchema, trackingRequestFiltersSchema } from './views';

export const idSchema = z.object({ id: z.string().min(1).max(200) }).strict();

const apiKey = z
  .string()
  .trim()
  .min(8, 'An API key is at least 8 characters')
  .max(200)
  .regex(/^[\x21-\x7e]+$/, 'An API key has no spaces or special characters');
// The key travels in every request: one rule for where it may go (see base-url.ts).
const baseUrl = baseUrlSchema;
const profileName = z.string().trim().min(1, 'Give the profile a name').max(80);

export const addProfileSchema = z.object({ name: profileName, apiKey, baseUrl: baseUrl.optional() }).strict();
export const updateProfileSchema = z
  .object({
    id: z.string().min(1).max(100),
    name: profileName.optional(),
    apiKey: apiKey.optional(),
    baseUrl: baseUrl.optional(),
  })
  .strict();
export const removeProfileSchema = z.object({ id: z.string().min(1).max(100), deleteData: z.boolean() }).strict();
export const switchProfileSchema = z.object({ id: z.string().min(1).max(100).nullable() }).strict();
export const validateKeySchema = z.object({ apiKey, baseUrl: baseUrl.optional() }).strict();

export const syncStartSchema = z
  .object({ mode: z.enum(['full', 'incremental', 'auto']).default('auto') })
  .strict()
  .optional();
export const historySchema = z
  .object({ limit: z.number().int().min(1).max(200).default(20) })
  .strict()
  .optional();

export const searchSchema = z
  .object({ text: z.string().trim().min(1).max(200), limit: z.number().int().min(1).max(50).default(10) })
  .strict();
export const containerEventsSchema = z
  .object({ id: z.string().min(1).max(200), refresh: z.boolean().default(false) })
  .strict();

// Control characters (tabs, line breaks, escapes) have no place in a tag or a reference.
const hasNoControlCharacters = (text: string) =>
  ![...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
const tag = z.string().trim().min(1).max(60).refine(hasNoControlCharacters, 'Tags have no control characters');
const refNumber = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine(hasNoControlCharacters, 'Reference numbers have no control characters');

export const createTrackingRequestSchema = z
  .object({
    requestType: z.enum(['bill_of_lading', 'booking_number', 'container']),
    requestNumber: z.string().trim().min(1, 'Enter a number').max(40),
    scac: z
      .string()
      .trim()
      .toUpperCase()
      .length(4, 'A carrier code (SCAC) is 4 letters')
      .regex(/^[A-Z]{4}$/, 'A carrier code (SCAC) is 4 letters'),
    refNumbers: z.array(refNumber).max(20).default([]),
    tags: z.array(tag).max(20).default([]),
    customerId: z.string().min(1).max(200).optional(),
  })
  .strict();

export const updateShipmentSchema = z
  .object({
    id: z.string().min(1).max(200),
    refNumbers: z.array(refNumber).max(50).optional(),
    tags: z
      .array(tag)
      .max(50)
      .refine((tags) => new Set(tags).size === tags.length, 'A tag appears twice')
      .optional(),
  })
  .strict()
  .refine((v) => v.refNumbers !== undefined || v.tags !== undefined, 'Change the reference numbers or the tags');

export const exportSchema = z.discriminatedUnion('view', [
  z
    .object({
      view: z.literal('shipments'),
      filters: shipmentFiltersSchema.default({}),
      sort: z.unknown().optional(),
      columns: z.array(z.string().max(60)).max(80).optional(),
      headerStyle: z.enum(['human', 'keys']).default('human'),
    })
    .strict(),
  z
    .object({
      view: z.literal('containers'),
      filters: containerFiltersSchema.default({}),
      sort: z.unknown().optional(),
      columns: z.array(z.string().max(60)).max(80).optional(),
      headerStyle: z.enum(['human', 'keys']).default('human'),
    })
    .strict(),
  z
    .object({
      view: z.literal('tracking-requests'),
      filters: trackingRequestFiltersSchema.default({}),
      sort: z.unknown().optional(),
      columns: z.array(z.string().max(60)).max(80).optional(),
      headerStyle: z.enum(['human', 'keys']).default('human'),
    })
    .strict(),
]);

export const reportErrorSchema = z
  .object({
    message: z.string().max(2000),
    stack: z.string().max(8000).optional(),
    where: z.string().max(300).optional(),
  })
  .strict();
