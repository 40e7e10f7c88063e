import { z } from 'zod';
import { defaultNotificationSettings, notificationSettingsSchema } from './alerts';
import { changeRetentionDaysSchema, DEFAULT_CHANGE_RETENTION_DAYS } from './changes';
import { defaultRates, ratesSchema } from './exposure';
import { DEFAULT_TERMINAL_STALE_HOURS, terminalStaleHoursSchema } from './pickup';
import type { Settings } from './types';

const documentFilesSchema = z
  .object({
    maxFileMb: z.number().int().min(0).max(10_000),
    maxTotalMb: z.number().int().min(0).max(1_000_000),
  })
  .strict();

export const settingsSchema = z
  .object({
    theme: z.enum(['light', 'dark', 'system']),
    timeDisplay: z.enum(['local', 'port']),
    syncIntervalMinutes: z
      .number()
      .int()
      .min(5)
      .max(24 * 60),
    /** Per-diem rates for the demurrage and detention estimate (src/shared/exposure.ts). */
    rates: ratesSchema,
    // Added without a new file version: a file without it reads with the defaults.
    documentFiles: documentFilesSchema.default({ maxFileMb: 25, maxTotalMb: 2048 }),
    /** Days the change history keeps (settings.json version 3); older changes go after a sync. */
    changeRetentionDays: changeRetentionDaysSchema.default(DEFAULT_CHANGE_RETENTION_DAYS),
    /** Hours after which a terminal check is too old for "ready" or "overdue" (settings.json version 4). */
    terminalStaleHours: terminalStaleHoursSchema.default(DEFAULT_TERMINAL_STALE_HOURS),
    /** Alert rules and desktop notifications (settings.json version 5). */
    notifications: notificationSettingsSchema.default(defaultNotificationSettings),
  })
  .strict() satisfies z.ZodType<Settings>;

/** An update names only the settings it changes; unknown keys are refused. */
export const settingsPatchSchema = settingsSchema
  .extend({
    documentFiles: documentFilesSchema,
    changeRetentionDays: changeRetentionDaysSchema,
    terminalStaleHours: terminalStaleHoursSchema,
    notifications: notificationSettingsSchema,
  })
  .partial()
  .strict();

export const defaultSettings: Settings = {
  theme: 'system',
  timeDisplay: 'local',
  syncIntervalMinutes: 15,
  rates: defaultRates,
  documentFiles: { maxFileMb: 25, maxTotalMb: 2048 },
  changeRetentionDays: DEFAULT_CHANGE_RETENTION_DAYS,
  terminalStaleHours: DEFAULT_TERMINAL_STALE_HOURS,
  notifications: defaultNotificationSettings,
};
