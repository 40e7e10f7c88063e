/** The route map's drawing and words for the vessel's estimated track. */
import { describe, expect, it } from 'vitest';
import type { RoutePort, RouteTrack } from '../../src/shared/routing';
import { drawRoute, latLonText, nextPositions } from '../../src/renderer/src/lib/route-map';

const port = (name: string, label: string, at: [number, number]): RoutePort => ({
  id: name,
  name,
  label,
  countryCode: null,
  timeZone: null,
  at,
  eta: null,
  ata: null,
  etd: null,
  atd: null,
});

const track = (n: number): RouteTrack => ({
  vesselName: 'MSC ANNA',
  toName: 'Savannah',
  fetchedAt: '2026-05-11T08:00:00Z',
  positions: Array.from({ length: n }, (_, i) => ({
    at: [-40 + i, 30 + i / 10] as [number, number],
    time: new Date(Date.parse('2026-05-11T08:00:00Z') + i * 3_600_000).toISOString(),
  })),
});

describe('the vessel’s estimated track', () => {
  it('says a position in words, hemispheres named, longitudes past the antimeridian wrapped', () => {
    expect(latLonText([-71.06, 37.14])).toBe('37.1° N, 71.1° W');
    expect(latLonText([151.2, -33.87])).toBe('33.9° S, 151.2° E');
    expect(latLonText([190, 10])).toBe('10.0° N, 170.0° W');
  });

  it('lists at most six positions ahead, evenly spaced, the arrival last', () => {
    const long = track(40);
    const next = nextPositions(long);
    expect(next).toHaveLength(6);
    expect(next.at(-1)).toBe(long.positions.at(-1));
    expect(next).not.toContain(long.positions[0]);
    const times = next.map((p) => Date.parse(p.time!));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // A short track lists every position after where the vessel is.
    expect(nextPositions(track(4))).toEqual(track(4).positions.slice(1));
  });

  it('draws the track as a path when there is one, and none otherwise', () => {
    const route = {
      ports: [port('Valencia', 'POL', [-0.3, 39.4]), port('Savannah', 'POD', [-81.1, 32.1])],
      lines: [],
      vessel: null,
    };
    expect(drawRoute({ ...route, track: track(12) }, 520, 290).track).toMatch(/^M[\d.-]+,[\d.-]+L/);
    expect(drawRoute({ ...route, track: null }, 520, 290).track).toBeNull();
    expect(drawRoute(route, 520, 290).track).toBeNull();
  });
});
