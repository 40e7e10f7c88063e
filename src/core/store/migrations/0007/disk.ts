/** Migration 0007, part disk: empty until its work fills it. */
export const up = '';
