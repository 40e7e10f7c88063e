/** Migration 0006, imports: empty (imports live in memory with the account's session). */
export const up = '';
