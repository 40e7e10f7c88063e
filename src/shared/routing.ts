/**
 * A container's route map as the renderer draws it (`containers:route`): read from the service's
 * map GeoJSON stored at the last sync, so it shows offline. Coordinates are [longitude, latitude].
 */
export type LonLat = [number, number];

export interface RoutePort {
  id: string | null;
  name: string;
  /** POL, TS1…, POD. */
  label: string;
  countryCode: string | null;
  timeZone: string | null;
  at: LonLat;
  /** Arrival and departure at this port, actual or estimated (ISO instants or null). */
  eta: string | null;
  ata: string | null;
  etd: string | null;
  atd: string | null;
}

/** One stretch of line: sailed (`past`) or still ahead (`estimated`), for the leg `sequence`. */
export interface RouteLine {
  sequence: number;
  kind: 'past' | 'estimated';
  coordinates: LonLat[];
}

export interface RouteVessel {
  name: string;
  imo: string | null;
  voyage: string | null;
  at: LonLat;
  heading: number | null;
  speedKnots: number | null;
  positionAt: string | null;
  fromName: string | null;
  toName: string | null;
  toEta: string | null;
}

/** Where the vessel under way is estimated to sail to its next port (`/vessels/{id}/future_positions`). */
export interface RouteTrack {
  vesselName: string | null;
  toName: string | null;
  fetchedAt: string;
  positions: { at: LonLat; time: string | null }[];
}

export type ContainerRoute =
  | {
      state: 'map';
      fetchedAt: string;
      ports: RoutePort[];
      lines: RouteLine[];
      vessel: RouteVessel | null;
      /** The vessel's estimated track, when the sync stored one (null: none). */
      track: RouteTrack | null;
    }
  /** Not asked for yet (or the service had none); `reason` says why in a sentence. */
  | { state: 'none'; reason: string }
  /** The account does not have the paid routing feature: one sentence, and the sync stopped asking. */
  | { state: 'not_entitled'; reason: string; since: string };
