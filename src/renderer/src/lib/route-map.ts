/**
 * The container page's route map, drawn offline: the route the sync stored (the service's map
 * GeoJSON, read by core into `ContainerRoute`) over a small bundled coastline (Natural Earth
 * 1:110m land from world-atlas, 55 KB), projected with d3-geo to SVG path strings. No tiles, no
 * network, no inline style: the component only sets attributes.
 */
import { geoBounds, geoGraticule10, geoNaturalEarth1, geoPath } from 'd3-geo';
import { feature } from 'topojson-client';
import landTopology from 'world-atlas/land-110m.json';
import type { LonLat, RouteLine, RoutePort, RouteTrack, RouteVessel } from '../../../shared/routing';

const land = feature(landTopology, landTopology.objects.land);
const graticule = geoGraticule10();

export interface DrawnPort {
  x: number;
  y: number;
  name: string;
  label: string;
  /** Which side of the dot the name goes, so names near the right edge stay on the map. */
  anchor: 'start' | 'end';
}

export interface DrawnRoute {
  land: string;
  graticule: string;
  lines: { d: string; kind: RouteLine['kind'] }[];
  ports: DrawnPort[];
  vessel: { x: number; y: number; rotate: number; name: string; labelBelow: boolean } | null;
  /** The vessel's estimated track to its next port (future positions), as a path; null when none was stored. */
  track: string | null;
}

/** The longitude halfway across the route, the short way round (a Pacific crossing spans the antimeridian). */
function centreLongitude(points: LonLat[]): number {
  const [[west], [east]] = geoBounds({ type: 'MultiPoint', coordinates: points });
  const span = (east - west + 360) % 360;
  return west + span / 2;
}

/** Projects a route into a `width` × `height` box, the route filling it with a margin. */
export function drawRoute(
  route: { ports: RoutePort[]; lines: RouteLine[]; vessel: RouteVessel | null; track?: RouteTrack | null },
  width: number,
  height: number,
): DrawnRoute {
  const points: LonLat[] = [...route.ports.map((p) => p.at), ...route.lines.flatMap((l) => l.coordinates)];
  if (route.vessel) points.push(route.vessel.at);
  const track = route.track && route.track.positions.length >= 2 ? route.track.positions.map((p) => p.at) : null;
  if (track) points.push(...track);
  const pad = 36;
  const projection = geoNaturalEarth1()
    .rotate([-centreLongitude(points), 0])
    .fitExtent(
      [
        [pad + 30, pad],
        [width - pad - 30, height - pad],
      ],
      { type: 'MultiPoint', coordinates: points },
    );
  const path = geoPath(projection);
  const at = (p: LonLat) => projection(p) ?? [NaN, NaN];
  const ports = route.ports.map((p): DrawnPort => {
    const [x, y] = at(p.at);
    return { x, y, name: p.name, label: p.label, anchor: x > width * 0.62 ? 'end' : 'start' };
  });
  let vessel: DrawnRoute['vessel'] = null;
  if (route.vessel) {
    const [x, y] = at(route.vessel.at);
    // Beside a port (just left or nearly there) its name goes under the marker, clear of the port's.
    const nearPort = ports.some((p) => Math.hypot(p.x - x, p.y - y) < 40);
    vessel = { x, y, rotate: route.vessel.heading ?? 0, name: route.vessel.name, labelBelow: nearPort };
  }
  return {
    land: path(land) ?? '',
    graticule: path(graticule) ?? '',
    lines: route.lines.map((l) => ({
      d: path({ type: 'LineString', coordinates: l.coordinates }) ?? '',
      kind: l.kind,
    })),
    ports: ports.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y)),
    vessel: vessel && Number.isFinite(vessel.x) ? vessel : null,
    track: track ? (path({ type: 'LineString', coordinates: track }) ?? null) : null,
  };
}

/** A position in words: "12.3° N, 45.6° W". */
export function latLonText([lon, lat]: LonLat): string {
  const wrapped = ((((lon + 180) % 360) + 360) % 360) - 180;
  const part = (value: number, plus: string, minus: string) =>
    `${Math.abs(value).toFixed(1)}° ${value >= 0 ? plus : minus}`;
  return `${part(lat, 'N', 'S')}, ${part(wrapped, 'E', 'W')}`;
}

/**
 * The positions the track lists in words under the map: at most `count`, evenly spaced after
 * where the vessel is now, the last one always (its arrival at the next port).
 */
export function nextPositions(track: RouteTrack, count = 6): RouteTrack['positions'] {
  const ahead = track.positions.slice(1);
  if (ahead.length <= count) return ahead;
  const step = ahead.length / count;
  return Array.from({ length: count }, (_, i) => ahead[Math.min(ahead.length - 1, Math.round((i + 1) * step) - 1)]!);
}

export interface LegText {
  from: RoutePort;
  to: RoutePort;
  state: 'sailed' | 'under way' | 'planned';
}

/** The legs between consecutive ports, each sailed, under way (the vessel on it) or planned. */
export function legsOf(route: { ports: RoutePort[]; lines: RouteLine[]; vessel: RouteVessel | null }): LegText[] {
  const legs: LegText[] = [];
  for (let i = 0; i + 1 < route.ports.length; i++) {
    const from = route.ports[i]!;
    const to = route.ports[i + 1]!;
    const kinds = new Set(route.lines.filter((l) => l.sequence === i + 1).map((l) => l.kind));
    const state =
      to.ata !== null
        ? 'sailed'
        : kinds.has('past') || (from.atd !== null && route.vessel !== null)
          ? 'under way'
          : 'planned';
    legs.push({ from, to, state });
  }
  return legs;
}
