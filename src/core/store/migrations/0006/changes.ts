/** Migration 0006, changes (issue 16): filled by the work on it; empty until then. */
export const up = '';
