import { z } from 'zod';
import type { Settings } from './types';

export const settingsSchema = z
  .object({
    theme: z.enum(['light', 'dark', 'system']),
    timeDisplay: z.enum(['local', 'port']),
    syncIntervalMinutes: z
      .number()
      .int()
      .min(5)
      .max(24 * 60),
  })
  .strict() satisfies z.ZodType<Settings>;

/** An update names only the settings it changes; unknown keys are refused. */
export const settingsPatchSchema = settingsSchema.partial().strict();

export const defaultSettings: Settings = {
  theme: 'system',
  timeDisplay: 'local',
  syncIntervalMinutes: 15,
};
