/** Migration 0005, the documents part (issue 15). SQL only; empty until its tables are added. */
export const up = ``;
