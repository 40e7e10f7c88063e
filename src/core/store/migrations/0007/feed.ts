/**
 * Migration 0007, part feed. The change feed needs no schema (its anchor lives in
 * `sync_state`). Vessel future positions: the estimated track of a container's
 * current vessel to its next port (`/vessels/{id}/future_positions`, a paid feature), kept beside
 * the container's route (one row per container whose map was stored, gone with the map), as the
 * positions read (`[{ at: [lon, lat], time }]`, JSON text), so the route map draws it offline.
 */
export const up = `
CREATE TABLE vessel_future_positions (
  container_id TEXT PRIMARY KEY REFERENCES container_routes (container_id) ON DELETE CASCADE,
  vessel_id TEXT NOT NULL,
  vessel_name TEXT,
  to_port_name TEXT,
  positions TEXT NOT NULL,
  fetched_at TEXT NOT NULL
) STRICT;
`;
