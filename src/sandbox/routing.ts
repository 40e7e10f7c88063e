/**
 * Routing (a paid feature of the service): a container's route as the service's map GeoJSON,
 * and a vessel's estimated positions to its next port. Derived from the plan at the simulated
 * instant like everything else: legs the vessel sailed are past, the leg it is on is cut at its
 * position (interpolated along the leg by time), the rest are estimated. Sea paths are great
 * circles through a few passages (Panama, Suez, Malacca, Gibraltar) so a leg does not cross a
 * continent on the map.
 */
import { geoDistance, geoInterpolate } from 'd3-geo';
import type { ContainerPlan, PortRec, VesselRec } from './model';
import { iso } from './entity';
import { knownUntil, shipmentState } from './state';

type LonLat = [number, number];

export interface RouteStop {
  port: PortRec;
  label: string;
  /** Arrival and departure, actual when known by `now`, else estimated (epoch ms or null). */
  ata: number | null;
  eta: number | null;
  atd: number | null;
  etd: number | null;
}

export interface RouteLeg {
  from: RouteStop;
  to: RouteStop;
  vessel: VesselRec;
  voyage: string | null;
  /** Planned departure and arrival (epoch ms), for the position along the leg. */
  departAt: number;
  arriveAt: number;
  path: LonLat[];
}

const PANAMA_PACIFIC: LonLat = [-79.55, 8.8];
const PANAMA_CARIBBEAN: LonLat = [-79.9, 9.45];
const MALACCA: LonLat = [100.3, 4.0];
const SRI_LANKA: LonLat = [80.6, 5.6];
const BAB_EL_MANDEB: LonLat = [43.4, 12.6];
const SUEZ: LonLat = [32.55, 29.9];
const PORT_SAID: LonLat = [32.3, 31.5];
const GIBRALTAR: LonLat = [-5.6, 35.95];
const BRITTANY: LonLat = [-5.5, 48.3];
const CUBA_EAST: LonLat = [-73.8, 20.0];
const SAO_ROQUE: LonLat = [-34.0, -5.5];
/** Off Mexico and Central America, north-west to south-east, to Panama's Pacific entrance. */
const OFF_CENTRAL_AMERICA: LonLat[] = [
  [-150, 22],
  [-118, 14],
  [-92, 11],
  [-85, 6.5],
  [-79.6, 7.0],
];

type Basin = 'pacific' | 'atlantic' | 'indian' | 'east_asia' | 'med';

/** Which sea a port opens on, as far as the paths between the sandbox's ports need. */
function basinOf({ latitude: lat, longitude: lon }: PortRec['data']): Basin {
  if (lon > 98) return lon < 104 && lat < 14 && lat > -1 ? 'indian' : 'east_asia';
  if (lon > 60) return 'indian';
  if (lon > -6 && lon < 36 && lat > 30 && lat < 46) return 'med';
  if (lon < -98 || (lon < -77 && lat < 8) || (lon < -70 && lat < -15)) return 'pacific';
  return 'atlantic';
}

/** Passages between two seas, in order from the first to the second. */
function passages(from: Basin, to: Basin): LonLat[] {
  const key = `${from}>${to}`;
  const asiaToAtlantic = [PANAMA_PACIFIC, PANAMA_CARIBBEAN];
  const indianToAtlantic = [SRI_LANKA, BAB_EL_MANDEB, SUEZ, PORT_SAID, GIBRALTAR];
  const table: Record<string, LonLat[]> = {
    'pacific>atlantic': asiaToAtlantic,
    'east_asia>atlantic': asiaToAtlantic,
    'indian>atlantic': indianToAtlantic,
    'indian>pacific': [MALACCA],
    'indian>east_asia': [MALACCA],
    'med>atlantic': [GIBRALTAR],
    'med>pacific': [GIBRALTAR, CUBA_EAST, PANAMA_CARIBBEAN, PANAMA_PACIFIC],
    'atlantic>pacific': [CUBA_EAST, PANAMA_CARIBBEAN, PANAMA_PACIFIC],
    'indian>med': [BAB_EL_MANDEB, SUEZ, PORT_SAID],
  };
  if (table[key]) return table[key];
  const back = table[`${to}>${from}`];
  return back ? [...back].reverse() : [];
}

/** Points every ~300 km along great circles through the passages, from one port to the next. */
export function seaPath(from: PortRec, to: PortRec): LonLat[] {
  const a: LonLat = [from.data.longitude, from.data.latitude];
  const b: LonLat = [to.data.longitude, to.data.latitude];
  const europeNorth = (p: PortRec) => p.data.longitude > -6 && p.data.longitude < 12 && p.data.latitude > 46;
  let via = passages(basinOf(from.data), basinOf(to.data));
  // From the North Pacific (Asia, the US West Coast, Mexico) to Panama, off Mexico and Central
  // America rather than across them.
  const northPacific = (p: PortRec) => ['east_asia', 'pacific'].includes(basinOf(p.data)) && p.data.latitude > 10;
  if (via[0] === PANAMA_PACIFIC && northPacific(from)) via = [...OFF_CENTRAL_AMERICA, ...via];
  if (via.at(-1) === PANAMA_PACIFIC && northPacific(to)) via = [...via, ...[...OFF_CENTRAL_AMERICA].reverse()];
  // South American Atlantic ports round Brazil's eastern cape to or from the north.
  const southAtlantic = (p: PortRec) => p.data.longitude > -70 && p.data.longitude < -30 && p.data.latitude < -5;
  if (southAtlantic(from) !== southAtlantic(to)) {
    const cape = SAO_ROQUE;
    via = southAtlantic(from) ? [cape, ...via] : [...via, cape];
  }
  // North European ports round Brittany to or from the Atlantic.
  if (europeNorth(from) && !europeNorth(to)) via = [BRITTANY, ...via];
  if (europeNorth(to) && !europeNorth(from)) via = [...via, BRITTANY];
  const corners = [a, ...via, b];
  const points: LonLat[] = [a];
  for (let i = 1; i < corners.length; i++) {
    const p = corners[i - 1]!;
    const q = corners[i]!;
    const steps = Math.max(1, Math.ceil((geoDistance(p, q) * 6371) / 300));
    const along = geoInterpolate(p, q);
    for (let s = 1; s <= steps; s++) points.push(round(along(s / steps)));
  }
  return points;
}

const round = ([lon, lat]: [number, number]): LonLat => [Math.round(lon * 1e5) / 1e5, Math.round(lat * 1e5) / 1e5];

/** The point a fraction of the way along a path (by distance), and the index of the point before it. */
function pointAlong(path: LonLat[], fraction: number): { at: LonLat; before: number } {
  const lengths = path.slice(1).map((p, i) => geoDistance(path[i]!, p));
  const total = lengths.reduce((s, l) => s + l, 0);
  let left = Math.min(1, Math.max(0, fraction)) * total;
  for (let i = 0; i < lengths.length; i++) {
    const l = lengths[i]!;
    if (left <= l) return { at: round(geoInterpolate(path[i]!, path[i + 1]!)(l === 0 ? 0 : left / l)), before: i };
    left -= l;
  }
  return { at: path[path.length - 1]!, before: path.length - 2 };
}

/** The stops and legs of a container's voyage, as known at `now`. */
export function routeOf(container: ContainerPlan, now: number): { stops: RouteStop[]; legs: RouteLeg[] } {
  const shipment = container.shipment;
  const at = knownUntil(shipment, now);
  const ms = (key: string) => container.milestones.find((m) => m.key === key);
  const actual = (key: string) => {
    const m = ms(key);
    return m && m.reportedAt <= at ? m.at : null;
  };
  const planned = (key: string) => ms(key)?.at ?? null;
  const state = shipmentState(shipment, now);
  const departed = actual('vessel_departed');
  const pol: RouteStop = {
    port: shipment.pol,
    label: 'POL',
    ata: null,
    eta: null,
    atd: departed,
    etd: departed === null ? state.etd : null,
  };
  const podArrived = actual('vessel_arrived');
  const pod: RouteStop = {
    port: shipment.pod,
    label: 'POD',
    ata: podArrived,
    eta: podArrived === null ? state.eta : null,
    atd: null,
    etd: null,
  };
  const legs: RouteLeg[] = [];
  const stops: RouteStop[] = [pol];
  const depart = planned('vessel_departed') ?? shipment.departedAt;
  const arrive = planned('vessel_arrived') ?? shipment.arrivedAt;
  if (shipment.transshipment) {
    const tsArrived = actual('transshipment_arrived');
    const tsDeparted = actual('transshipment_departed');
    const ts: RouteStop = {
      port: shipment.transshipment,
      label: 'TS1',
      ata: tsArrived,
      eta: tsArrived === null ? planned('transshipment_arrived') : null,
      atd: tsDeparted,
      etd: tsDeparted === null ? planned('transshipment_departed') : null,
    };
    stops.push(ts);
    const first = shipment.feederVessel ?? shipment.vessel;
    legs.push({
      from: pol,
      to: ts,
      vessel: first,
      voyage: shipment.voyage,
      departAt: depart,
      arriveAt: planned('transshipment_arrived') ?? arrive,
      path: seaPath(shipment.pol, shipment.transshipment),
    });
    legs.push({
      from: ts,
      to: pod,
      vessel: shipment.vessel,
      voyage: shipment.voyage,
      departAt: planned('transshipment_departed') ?? depart,
      arriveAt: arrive,
      path: seaPath(shipment.transshipment, shipment.pod),
    });
  } else {
    legs.push({
      from: pol,
      to: pod,
      vessel: shipment.vessel,
      voyage: shipment.voyage,
      departAt: depart,
      arriveAt: arrive,
      path: seaPath(shipment.pol, shipment.pod),
    });
  }
  stops.push(pod);
  return { stops, legs };
}

/** The vessel's position on a leg at an instant, when it is at sea on it. */
function positionOn(leg: RouteLeg, now: number): { at: LonLat; before: number; heading: number } | null {
  if (leg.from.atd === null || leg.to.ata !== null || now < leg.departAt) return null;
  const fraction = (now - leg.departAt) / Math.max(1, leg.arriveAt - leg.departAt);
  const found = pointAlong(leg.path, Math.min(0.99, fraction));
  const next = leg.path[found.before + 1] ?? leg.to.port.data;
  const [nx, ny] = Array.isArray(next) ? next : [next.longitude, next.latitude];
  const heading = (Math.round((Math.atan2(nx - found.at[0], ny - found.at[1]) * 180) / Math.PI) + 360) % 360;
  return { ...found, heading };
}

const portProps = (stop: RouteStop) => ({
  location_id: stop.port.id,
  name: stop.port.data.name,
  state_abbr: stop.port.data.stateAbbr,
  country_code: stop.port.data.countryCode,
  time_zone: stop.port.data.timeZone,
  label: stop.label,
});

const countries: Record<string, string> = { US: 'United States' };
const countryName = (code: string) =>
  countries[code] ?? new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;

/** `GET /containers/{id}/map_geojson`: the route as the service's FeatureCollection. */
export function mapGeoJson(container: ContainerPlan, now: number): unknown {
  const { stops, legs } = routeOf(container, now);
  const features: unknown[] = [];
  const line = (coordinates: LonLat[]) => ({ type: 'LineString', coordinates });
  stops.forEach((stop, i) => {
    const p = portProps(stop);
    features.push({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [stop.port.data.longitude, stop.port.data.latitude] },
      properties: {
        feature_type: 'port',
        ports_sequence: i + 1,
        ports_total: stops.length,
        location_id: p.location_id,
        location_type: 'Port',
        name: p.name,
        state_abbr: p.state_abbr,
        state: null,
        country_code: p.country_code,
        country: countryName(p.country_code),
        time_zone: p.time_zone,
        inbound_eta_at: iso(stop.eta),
        inbound_ata_at: iso(stop.ata),
        outbound_etd_at: iso(stop.etd),
        outbound_atd_at: iso(stop.atd),
        label: stop.label,
        updated_at: iso(Math.min(now, knownUntil(container.shipment, now))),
      },
    });
  });
  legs.forEach((leg, i) => {
    const sequence = i + 1;
    const position = positionOn(leg, now);
    if (leg.to.ata !== null || (leg.from.atd !== null && position === null)) {
      features.push({
        type: 'Feature',
        geometry: line(leg.path),
        properties: {
          feature_type: 'past_vessel_locations',
          ports_sequence: sequence,
          vessel_id: leg.vessel.id,
          start_time: iso(leg.from.atd ?? leg.departAt),
          end_time: iso(leg.to.ata ?? leg.arriveAt),
          point_count: leg.path.length,
          outbound_atd_at: iso(leg.from.atd),
          inbound_ata_at: iso(leg.to.ata),
          inbound_eta_at: iso(leg.to.eta),
        },
      });
    } else if (position) {
      const past = [...leg.path.slice(0, position.before + 1), position.at];
      const ahead = [position.at, ...leg.path.slice(position.before + 1)];
      features.push({
        type: 'Feature',
        geometry: line(past),
        properties: {
          feature_type: 'past_vessel_locations',
          ports_sequence: sequence,
          vessel_id: leg.vessel.id,
          start_time: iso(leg.from.atd),
          end_time: iso(now),
          point_count: past.length,
          outbound_atd_at: iso(leg.from.atd),
          inbound_ata_at: null,
          inbound_eta_at: iso(leg.to.eta),
        },
      });
      const from = portProps(leg.from);
      const to = portProps(leg.to);
      features.push({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: position.at },
        properties: {
          feature_type: 'current_vessel',
          ports_sequence: sequence,
          vessel_id: leg.vessel.id,
          vessel_name: leg.vessel.data.name,
          vessel_imo: leg.vessel.data.imo,
          voyage_number: leg.voyage,
          vessel_location_timestamp: iso(now - 40 * 60_000),
          vessel_location_heading: position.heading,
          vessel_location_speed: 17.5,
          departure_port_id: from.location_id,
          departure_port_name: from.name,
          departure_port_state_abbr: from.state_abbr,
          departure_port_state: null,
          departure_port_country_code: from.country_code,
          departure_port_country: countryName(from.country_code),
          departure_port_label: from.label,
          departure_port_atd: iso(leg.from.atd),
          departure_port_time_zone: from.time_zone,
          arrival_port_id: to.location_id,
          arrival_port_name: to.name,
          arrival_port_state_abbr: to.state_abbr,
          arrival_port_state: null,
          arrival_port_country_code: to.country_code,
          arrival_port_country: countryName(to.country_code),
          arrival_port_label: to.label,
          arrival_port_eta: iso(leg.to.eta),
          arrival_port_time_zone: to.time_zone,
        },
      });
      features.push({
        type: 'Feature',
        geometry: line(ahead),
        properties: {
          feature_type: 'estimated_partial_leg',
          ports_sequence: sequence,
          current_port_id: from.location_id,
          next_port_id: to.location_id,
          point_count: ahead.length,
        },
      });
    } else {
      features.push({
        type: 'Feature',
        geometry: line(leg.path),
        properties: {
          feature_type: 'estimated_full_legs',
          ports_sequence: sequence,
          previous_port_id: leg.from.port.id,
          next_port_id: leg.to.port.id,
          point_count: leg.path.length,
        },
      });
    }
  });
  return { type: 'FeatureCollection', features };
}

/**
 * `GET /vessels/{id}/future_positions`: the vessel's estimated positions from where it is (or
 * from the previous port) to the port, one per hour at the leg's planned pace (the service spaces
 * them a minute apart; an hour keeps the answer small and draws the same line).
 */
export function futurePositions(
  vessel: VesselRec,
  from: PortRec,
  to: PortRec,
  containers: readonly ContainerPlan[],
  now: number,
): { latitude: number; longitude: number; heading: number | null; timestamp: string; estimated: boolean }[] {
  let path = seaPath(from, to);
  let start = now;
  let end = now + hoursAtSea(geoDistance(path[0]!, path[path.length - 1]!)) * 3_600_000;
  const sails = (c: ContainerPlan) => c.shipment.vessel === vessel || c.shipment.feederVessel === vessel;
  for (const c of containers) {
    if (!sails(c)) continue;
    const leg = routeOf(c, now).legs.find((l) => l.vessel === vessel && l.from.port === from && l.to.port === to);
    const position = leg && positionOn(leg, now);
    if (leg && position) {
      path = [position.at, ...leg.path.slice(position.before + 1)];
      end = leg.arriveAt;
      break;
    }
    if (leg && leg.from.atd === null) {
      start = Math.max(now, leg.departAt);
      end = leg.arriveAt;
      break;
    }
  }
  return positionsAlong(path, start, end);
}

type FuturePosition = ReturnType<typeof futurePositions>[number];

/** Hours to sail an arc of `radians` at 17.5 knots. */
function hoursAtSea(radians: number): number {
  return (radians * 6_371_000) / (17.5 * 1852);
}

/**
 * `GET /vessels/{id}/future_positions_with_coordinates`: as `futurePositions`, from a position the
 * caller gives: from there onto the sea path between the ports at the point nearest it, then on to
 * the port, at the usual 17.5 knots from now.
 */
export function futurePositionsFrom(at: LonLat, from: PortRec, to: PortRec, now: number): FuturePosition[] {
  const sea = seaPath(from, to);
  let nearest = 0;
  sea.forEach((point, i) => {
    if (geoDistance(point, at) < geoDistance(sea[nearest]!, at)) nearest = i;
  });
  const path: LonLat[] = [at, ...sea.slice(nearest + 1)];
  if (path.length === 1) path.push(sea[sea.length - 1]!);
  let radians = 0;
  for (let i = 1; i < path.length; i++) radians += geoDistance(path[i - 1]!, path[i]!);
  return positionsAlong(path, now, now + hoursAtSea(radians) * 3_600_000);
}

/** One position an hour along `path`, from `start` to `end`. */
function positionsAlong(path: LonLat[], start: number, end: number) {
  const hours = Math.max(1, Math.ceil((end - start) / 3_600_000));
  return Array.from({ length: hours + 1 }, (_, h) => {
    const { at, before } = pointAlong(path, h / hours);
    const next = path[before + 1] ?? at;
    const heading = (Math.round((Math.atan2(next[0] - at[0], next[1] - at[1]) * 180) / Math.PI) + 360) % 360;
    return {
      latitude: at[1],
      longitude: at[0],
      heading,
      timestamp: iso(start + h * 3_600_000)!,
      estimated: true,
    };
  });
}
