import { z } from 'zod';
import { defaultRates, ratesSchema } from './exposure';
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
    /** Per-diem rates for the demurrage and detention estimate (src/shared/exposure.ts). */
    rates: ratesSchema,
  })
  .strict() satisfies z.ZodType<Settings>;

/** An update names only the settings it changes; unknown keys are refused. */
export const settingsPatchSchema = settingsSchema.partial().strict();

export const defaultSettings: Settings = {
  theme: 'system',
  timeDisplay: 'local',
  syncIntervalMinutes: 15,
  rates: defaultRates,
};
