/**
 * FTS5 merges its segments on the write path by default: every few commits a page's write also
 * rewrites older segments (a page of 100 shipments took 5–10 ms longer then). The sync engine
 * now merges between pages (`maintainStore`), so automatic merging is off and the forced
 * ("crisis") merge of a level waits for 64 segments instead of 16: a burst of writes outside a
 * sync (a few hundred actions) still never leaves a level unmerged for long.
 */
export const up = `
INSERT INTO shipment_search (shipment_search, rank) VALUES ('automerge', 0);
INSERT INTO shipment_search (shipment_search, rank) VALUES ('crisismerge', 64);
INSERT INTO container_search (container_search, rank) VALUES ('automerge', 0);
INSERT INTO container_search (container_search, rank) VALUES ('crisismerge', 64);
INSERT INTO tracking_request_search (tracking_request_search, rank) VALUES ('automerge', 0);
INSERT INTO tracking_request_search (tracking_request_search, rank) VALUES ('crisismerge', 64);
`;
