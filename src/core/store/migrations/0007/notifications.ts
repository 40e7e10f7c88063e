/** Migration 0007, part notifications: empty until its work fills it. */
export const up = '';
