/**
 * Migration 0005, the routing part: each container's route as the service's map
 * GeoJSON (`/containers/{id}/map_geojson`, a paid feature), kept whole so the container page
 * draws it offline. Not a JSON:API resource, so no registry descriptor: one row per container,
 * gone with the container.
 */
export const up = `
CREATE TABLE container_routes (
  container_id TEXT PRIMARY KEY REFERENCES containers (id) ON DELETE CASCADE,
  geojson TEXT NOT NULL,
  fetched_at TEXT NOT NULL
) STRICT;
`;
