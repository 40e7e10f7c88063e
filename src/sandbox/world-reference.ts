/**
 * The reference data of a sandbox world (account, lines, ports, terminals, vessels), each with an
 * id stable in the seed, and the lanes shipments are drawn from.
 */
import { ports, type PortData } from './data/ports';
import { railTerminals } from './data/rail-terminals';
import { shippingLines } from './data/shipping-lines';
import { terminals } from './data/terminals';
import { vessels } from './data/vessels';
import type { AccountRec, PortRec, RailTerminalRec, ShippingLineRec, TerminalRec, VesselRec } from './model';
import { Random, stableUuid } from './random';

export interface Reference {
  account: AccountRec;
  shippingLines: ShippingLineRec[];
  ports: PortRec[];
  terminals: TerminalRec[];
  railTerminals: RailTerminalRec[];
  vessels: VesselRec[];
}

export function buildReference(seed: string): Reference {
  const portRecs = ports.map((data) => ({ id: stableUuid(seed, `port:${data.code}`), data }));
  const portByCode = new Map<string, PortRec>(portRecs.map((p) => [p.data.code, p]));
  const railTerminalRecs = railTerminals.map((data) => {
    const metroArea = portByCode.get(data.metroCode);
    if (metroArea?.data.role !== 'inland') throw new Error(`rail terminal ${data.name} names no metro area`);
    const rec: RailTerminalRec = { id: stableUuid(seed, `rail_terminal:${data.metroCode}`), data, metroArea };
    metroArea.ramp = rec;
    return rec;
  });
  const terminalRecs = terminals.map((data) => {
    const port = portByCode.get(data.portCode);
    if (!port) throw new Error(`terminal ${data.name} names unknown port ${data.portCode}`);
    return { id: stableUuid(seed, `terminal:${data.firmsCode}`), data, port };
  });
  const vesselRecs = vessels.map((data) => {
    const random = new Random(`${seed}:vessel:${data.imo}`);
    return {
      id: stableUuid(seed, `vessel:${data.imo}`),
      data,
      latitude: Number(random.float(-40, 55).toFixed(4)),
      longitude: Number(random.float(-170, 170).toFixed(4)),
    };
  });
  return {
    account: { id: stableUuid(seed, 'account'), companyName: 'Quayside Demo Forwarding' },
    shippingLines: shippingLines.map((data) => ({ id: stableUuid(seed, `shipping_line:${data.scac}`), data })),
    ports: portRecs,
    terminals: terminalRecs,
    railTerminals: railTerminalRecs,
    vessels: vesselRecs,
  };
}

export interface Lanes {
  origins: PortRec[];
  hubs: PortRec[];
  gateways: PortRec[];
  portByCode: Map<string, PortRec>;
  terminalsByPort: Map<string, TerminalRec[]>;
  linesSupported: ShippingLineRec[];
  vesselsByScac: Map<string, VesselRec[]>;
}

export function lanesOf(reference: Reference): Lanes {
  const byRole = (role: PortData['role']) => reference.ports.filter((p) => p.data.role === role);
  const terminalsByPort = new Map<string, TerminalRec[]>();
  for (const terminal of reference.terminals) {
    const list = terminalsByPort.get(terminal.port.data.code) ?? [];
    list.push(terminal);
    terminalsByPort.set(terminal.port.data.code, list);
  }
  const vesselsByScac = new Map<string, VesselRec[]>();
  for (const vessel of reference.vessels) {
    const list = vesselsByScac.get(vessel.data.carrierScac) ?? [];
    list.push(vessel);
    vesselsByScac.set(vessel.data.carrierScac, list);
  }
  return {
    origins: byRole('origin'),
    hubs: byRole('transshipment'),
    gateways: byRole('us_gateway').filter((p) => terminalsByPort.has(p.data.code)),
    portByCode: new Map(reference.ports.map((p) => [p.data.code, p])),
    terminalsByPort,
    linesSupported: reference.shippingLines.filter((l) => l.data.supported),
    vesselsByScac,
  };
}
