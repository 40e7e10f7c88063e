/**
 * The service's map GeoJSON (`/containers/{id}/map_geojson`), read into the route the container
 * page draws. Tolerant like the rest of the parsing: a feature whose geometry is not what its
 * kind needs is left out, never the whole map.
 */
import type { LonLat, RouteLine, RoutePort, RouteVessel } from '../../shared/routing';

/**
 * Bounds on a map from the service, kept when it is stored and again when it is read: a line of
 * more points than a map a few hundred pixels wide can show is thinned to this many, evenly
 * spaced, its ends kept; features past the first MAX_ROUTE_FEATURES are left out (a route has a
 * port or two per leg and a line or two per leg).
 */
export const MAX_LINE_POINTS = 2_000;
export const MAX_ROUTE_FEATURES = 200;

/** At most `max` of `list`, evenly spaced, the first and the last always kept. */
export function thinned<T>(list: readonly T[], max = MAX_LINE_POINTS): T[] {
  if (list.length <= max) return [...list];
  const step = (list.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => list[Math.round(i * step)]!);
}

/**
 * The service's map as it is stored: at most MAX_ROUTE_FEATURES features, each LineString's
 * coordinates thinned to MAX_LINE_POINTS. Anything else is kept as the service sent it.
 */
export function boundedRouteMap(geojson: unknown): unknown {
  const list = (geojson as { features?: unknown } | null)?.features;
  if (!Array.isArray(list)) return geojson;
  const features = list.slice(0, MAX_ROUTE_FEATURES).map((f: unknown) => {
    const geometry = (f as { geometry?: { type?: unknown; coordinates?: unknown } } | null)?.geometry;
    if (geometry?.type !== 'LineString' || !Array.isArray(geometry.coordinates)) return f;
    if (geometry.coordinates.length <= MAX_LINE_POINTS) return f;
    return { ...(f as object), geometry: { ...geometry, coordinates: thinned(geometry.coordinates) } };
  });
  return { ...(geojson as object), features };
}

type Props = Record<string, unknown>;

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function point(v: unknown): LonLat | null {
  if (!Array.isArray(v) || v.length < 2) return null;
  const [lon, lat] = [num(v[0]), num(v[1])];
  if (lon === null || lat === null || Math.abs(lat) > 90 || Math.abs(lon) > 540) return null;
  return [lon, lat];
}

function features(geojson: unknown): { type: string; coordinates: unknown; props: Props }[] {
  if (typeof geojson !== 'object' || geojson === null) return [];
  const list = (geojson as { features?: unknown }).features;
  if (!Array.isArray(list)) return [];
  return list.slice(0, MAX_ROUTE_FEATURES).flatMap((f: unknown) => {
    if (typeof f !== 'object' || f === null) return [];
    const { geometry, properties } = f as { geometry?: unknown; properties?: unknown };
    if (typeof geometry !== 'object' || geometry === null || typeof properties !== 'object' || properties === null)
      return [];
    const g = geometry as { type?: unknown; coordinates?: unknown };
    return [{ type: String(g.type), coordinates: g.coordinates, props: properties as Props }];
  });
}

/** Whether an answer looks like the service's map: a FeatureCollection with a features list. */
export function isFeatureCollection(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'FeatureCollection' &&
    Array.isArray((value as { features?: unknown }).features)
  );
}

export function readRouteMap(geojson: unknown): { ports: RoutePort[]; lines: RouteLine[]; vessel: RouteVessel | null } {
  const ports: (RoutePort & { sequence: number })[] = [];
  const lines: RouteLine[] = [];
  let vessel: RouteVessel | null = null;
  for (const f of features(geojson)) {
    const kind = f.props.feature_type;
    const sequence = num(f.props.ports_sequence) ?? 0;
    if (f.type === 'Point') {
      const at = point(f.coordinates);
      if (!at) continue;
      if (kind === 'port') {
        ports.push({
          sequence,
          id: text(f.props.location_id),
          name: text(f.props.name) ?? 'Unnamed port',
          label: text(f.props.label) ?? '',
          countryCode: text(f.props.country_code),
          timeZone: text(f.props.time_zone),
          at,
          eta: text(f.props.inbound_eta_at),
          ata: text(f.props.inbound_ata_at),
          etd: text(f.props.outbound_etd_at),
          atd: text(f.props.outbound_atd_at),
        });
      } else if (kind === 'current_vessel') {
        vessel = {
          name: text(f.props.vessel_name) ?? 'Vessel',
          imo: text(f.props.vessel_imo),
          voyage: text(f.props.voyage_number),
          at,
          heading: num(f.props.vessel_location_heading),
          speedKnots: num(f.props.vessel_location_speed),
          positionAt: text(f.props.vessel_location_timestamp),
          fromName: text(f.props.departure_port_name),
          toName: text(f.props.arrival_port_name),
          toEta: text(f.props.arrival_port_eta),
        };
      }
    } else if (f.type === 'LineString' && Array.isArray(f.coordinates)) {
      const coordinates = thinned(f.coordinates)
        .map(point)
        .filter((p): p is LonLat => p !== null);
      if (coordinates.length < 2) continue;
      if (kind === 'past_vessel_locations') lines.push({ sequence, kind: 'past', coordinates });
      else if (kind === 'estimated_full_legs' || kind === 'estimated_partial_leg')
        lines.push({ sequence, kind: 'estimated', coordinates });
    }
  }
  ports.sort((a, b) => a.sequence - b.sequence);
  lines.sort((a, b) => a.sequence - b.sequence || (a.kind === 'past' ? -1 : 1));
  return { ports: ports.map(({ sequence: _s, ...p }) => p), lines, vessel };
}
