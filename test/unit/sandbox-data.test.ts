import { describe, expect, it } from 'vitest';
import { isValidImo } from '../../src/shared/identifiers';
import { partyNames } from '../../src/sandbox/data/parties';
import { ports, railRoutes, type PortRole } from '../../src/sandbox/data/ports';
import { shippingLines } from '../../src/sandbox/data/shipping-lines';
import { terminals } from '../../src/sandbox/data/terminals';
import { vessels } from '../../src/sandbox/data/vessels';

const SCAC = /^[A-Z]{4}$/;

function duplicates(values: readonly string[]): string[] {
  return values.filter((value, index) => values.indexOf(value) !== index);
}

function acceptsTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const portsByCode = new Map(ports.map((port) => [port.code, port]));

function roleOf(code: string): PortRole | undefined {
  return portsByCode.get(code)?.role;
}

describe('shipping lines', () => {
  it('have 4-letter SCACs, each listed once', () => {
    const scacs = shippingLines.map((line) => line.scac);
    expect(scacs.filter((scac) => !SCAC.test(scac))).toEqual([]);
    expect(duplicates(scacs)).toEqual([]);
  });

  it('give every supported line a bill of lading prefix and keep some real lines unsupported', () => {
    expect(shippingLines.filter((line) => line.supported && !SCAC.test(line.bolPrefix))).toEqual([]);
    expect(shippingLines.filter((line) => !line.supported).length).toBeGreaterThanOrEqual(3);
  });
});

describe('vessels', () => {
  it('have valid IMO numbers, each used once', () => {
    const imos = vessels.map((vessel) => vessel.imo);
    expect(imos.filter((imo) => !/^9\d{6}$/.test(imo) || !isValidImo(imo))).toEqual([]);
    expect(duplicates(imos)).toEqual([]);
  });

  it('have unique names and 9-digit MMSIs', () => {
    expect(duplicates(vessels.map((vessel) => vessel.name))).toEqual([]);
    expect(duplicates(vessels.map((vessel) => vessel.mmsi))).toEqual([]);
    expect(vessels.filter((vessel) => !/^\d{9}$/.test(vessel.mmsi))).toEqual([]);
  });

  it('belong to known carriers and cover every supported one', () => {
    const scacs = new Set(shippingLines.map((line) => line.scac));
    expect(vessels.filter((vessel) => !SCAC.test(vessel.carrierScac) || !scacs.has(vessel.carrierScac))).toEqual([]);
    const operated = new Set(vessels.map((vessel) => vessel.carrierScac));
    expect(shippingLines.filter((line) => line.supported && !operated.has(line.scac))).toEqual([]);
  });
});

describe('terminals', () => {
  it('belong to US gateway ports', () => {
    expect(terminals.filter((terminal) => roleOf(terminal.portCode) !== 'us_gateway')).toEqual([]);
  });

  it('have unique FIRMS codes and 2-letter state and country codes', () => {
    expect(duplicates(terminals.map((terminal) => terminal.firmsCode))).toEqual([]);
    expect(terminals.filter((terminal) => !/^[A-Z]{2}$/.test(terminal.state))).toEqual([]);
    expect(terminals.filter((terminal) => !/^[A-Z]{2}$/.test(terminal.country))).toEqual([]);
  });

  it('share the time zone of their port', () => {
    expect(terminals.filter((terminal) => portsByCode.get(terminal.portCode)?.timeZone !== terminal.timeZone)).toEqual(
      [],
    );
  });
});

describe('ports', () => {
  it('have 5-character UN/LOCODEs that start with their country, each listed once', () => {
    expect(ports.filter((port) => !/^[A-Z]{2}[A-Z2-9]{3}$/.test(port.code))).toEqual([]);
    expect(ports.filter((port) => !port.code.startsWith(port.countryCode))).toEqual([]);
    expect(duplicates(ports.map((port) => port.code))).toEqual([]);
  });

  it('lie on the globe', () => {
    expect(ports.filter((port) => Math.abs(port.latitude) > 90 || Math.abs(port.longitude) > 180)).toEqual([]);
  });

  it('include every role the generator draws from', () => {
    const counts = new Map<PortRole, number>();
    for (const port of ports) counts.set(port.role, (counts.get(port.role) ?? 0) + 1);
    expect(counts.get('origin')).toBeGreaterThanOrEqual(25);
    expect(counts.get('transshipment')).toBeGreaterThanOrEqual(6);
    expect(counts.get('inland')).toBeGreaterThanOrEqual(10);
    expect(counts.get('us_gateway')).toBeGreaterThanOrEqual(new Set(terminals.map((t) => t.portCode)).size);
  });
});

describe('rail routes', () => {
  it('run from US gateways to inland ramps', () => {
    expect(railRoutes.filter((route) => roleOf(route.gateway) !== 'us_gateway')).toEqual([]);
    const misplaced = railRoutes.flatMap((route) => route.inland.filter((code) => roleOf(code) !== 'inland'));
    expect(misplaced).toEqual([]);
    expect(railRoutes.filter((route) => route.inland.length === 0)).toEqual([]);
  });

  it('name railroads by 4-letter SCAC', () => {
    const scacs = railRoutes.flatMap((route) => [route.podRailScac, route.indRailScac]);
    expect(scacs.filter((scac) => !SCAC.test(scac))).toEqual([]);
  });

  it('reach every inland ramp from some gateway', () => {
    const reached = new Set(railRoutes.flatMap((route) => route.inland));
    expect(ports.filter((port) => port.role === 'inland' && !reached.has(port.code))).toEqual([]);
  });
});

describe('time zones', () => {
  it('are all accepted by Intl.DateTimeFormat', () => {
    const zones = [...ports.map((port) => port.timeZone), ...terminals.map((terminal) => terminal.timeZone)];
    expect(zones.filter((zone) => !acceptsTimeZone(zone))).toEqual([]);
  });

  it('would catch a zone Intl rejects', () => {
    expect(acceptsTimeZone('America/Springfield')).toBe(false);
  });
});

describe('party names', () => {
  it('are 40 distinct names', () => {
    expect(partyNames).toHaveLength(40);
    expect(duplicates(partyNames)).toEqual([]);
  });
});
