/**
 * One shipment and its containers, planned whole from (seed, label): the voyage, its revisions,
 * every milestone of every container, holds and free days.
 */
import { containerCheckDigit } from '../shared/identifiers';
import { railRoutes, type PortData } from './data/ports';
import type {
  ContainerPlan,
  EtaRevision,
  HoldPlan,
  Milestone,
  MilestoneKey,
  PartyRec,
  PortRec,
  ShipmentPlan,
  ShippingLineRec,
} from './model';
import { Random, stableUuid } from './random';
import type { Lanes, Reference } from './world-reference';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Owner codes seen on each carrier's boxes (their own and common lessors). */
export const ownerCodes: Readonly<Record<string, readonly string[]>> = {
  MSCU: ['MSCU', 'MEDU', 'MSDU', 'TGHU', 'FSCU'],
  MAEU: ['MSKU', 'MRKU', 'MAEU', 'MRSU', 'TCLU'],
  CMDU: ['CMAU', 'CGMU', 'TGHU', 'ECMU'],
  COSU: ['CSNU', 'CBHU', 'CCLU', 'TCNU'],
  EGLV: ['EGHU', 'EISU', 'EMCU', 'TCLU'],
  HLCU: ['HLXU', 'HLBU', 'HAMU', 'UACU'],
  ONEY: ['ONEU', 'TCNU', 'NYKU', 'KKFU'],
  OOLU: ['OOLU', 'OOCU', 'TCLU'],
  YMLU: ['YMLU', 'YMMU', 'TEMU'],
  ZIMU: ['ZIMU', 'ZCSU', 'TGHU'],
  HDMU: ['HMMU', 'HDMU', 'KOCU'],
};
const fallbackOwners = ['TGHU', 'TCLU', 'CAIU', 'SEGU', 'TEMU', 'TRHU', 'BMOU'];

const tagPool = ['hot', 'priority', 'reefer', 'exam', 'amazon', 'retail', 'Q4', 'bonded', 'hazmat', 'overweight'];
const holdKinds: { name: string; description: string | null; weight: number }[] = [
  { name: 'customs', description: 'Customs hold', weight: 5 },
  { name: 'freight', description: 'Freight charges unpaid', weight: 4 },
  { name: 'USDA', description: 'USDA inspection', weight: 1 },
  { name: 'TMF', description: 'Traffic mitigation fee unpaid', weight: 2 },
  { name: 'other', description: null, weight: 1 },
];

/**
 * How reliably each carrier arrives on its first ETA: >1 slips far less often, <1 more often (1
 * for a carrier not listed). Insights' figures differ by carrier because of it. Weights only: a
 * shipment draws the same random numbers whatever its carrier.
 */
const carrierReliability: Readonly<Record<string, number>> = {
  MAEU: 1.6,
  HLCU: 1.4,
  ONEY: 1.25,
  OOLU: 1.15,
  CMDU: 1,
  EGLV: 1,
  COSU: 0.85,
  MSCU: 0.75,
  HDMU: 0.7,
  YMLU: 0.6,
  ZIMU: 0.5,
};

/** A stable number in [0, 1) from a text: a terminal's character without a random draw of its own. */
function stableShare(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return (hash >>> 0) / 2 ** 32;
}

/**
 * Each terminal's pace, from its FIRMS code: how long boxes wait from discharge to available (a
 * multiplier of the usual hours) and how often they are picked up late (a multiplier of that
 * weight). Some terminals are quick, some congested: their dwell differs in the figures.
 */
export function terminalPace(firmsCode: string): { availableAfter: number; late: number } {
  const share = stableShare(firmsCode);
  if (share < 0.3) return { availableAfter: 0.5, late: 0.4 };
  if (share < 0.7) return { availableAfter: 1, late: 1 };
  if (share < 0.9) return { availableAfter: 2, late: 1.8 };
  return { availableAfter: 3.5, late: 3 };
}

/** Rounds to the minute: lines report minutes, not milliseconds. */
export function minute(ms: number): number {
  return Math.round(ms / MINUTE) * MINUTE;
}

/** Rough ocean transit days between a region (by origin longitude) and a US coast. */
function transitDays(random: Random, origin: PortData, pod: PortData): number {
  const westCoast = pod.longitude < -100;
  const asia = origin.longitude > 60;
  if (asia) return westCoast ? random.int(12, 19) : random.int(27, 38);
  if (origin.longitude > -30) return westCoast ? random.int(24, 31) : random.int(9, 16); // Europe, Mediterranean
  return random.int(6, 14); // Latin America
}

export function containerNumber(random: Random, scac: string): string {
  const owner = random.pick(ownerCodes[scac] ?? fallbackOwners);
  const body = `${owner}${random.digits(6)}`;
  return `${body}${containerCheckDigit(body)}`;
}

function voyageNumber(random: Random): string {
  return `${random.int(0, 2)}${random.digits(2)}${random.pick(['E', 'W', 'N', 'S', 'A', 'R'])}`;
}

function revisions(random: Random, plannedAt: number, actualAt: number, from: number, until: number): EtaRevision[] {
  const list: EtaRevision[] = [{ from, eta: minute(plannedAt) }];
  if (Math.abs(actualAt - plannedAt) < HOUR || until <= from) return list;
  const steps = random.int(1, 3);
  for (let i = 1; i <= steps; i++) {
    const when = from + ((until - from) * i) / (steps + 1);
    const eta = i === steps ? actualAt : plannedAt + ((actualAt - plannedAt) * i) / steps + random.float(-6, 6) * HOUR;
    list.push({ from: minute(when), eta: minute(eta) });
  }
  return list;
}

interface ShipmentSeed {
  index: number;
  createdBefore: number;
  /** Centre of the departure spread, relative to which voyages are placed. */
  departureFrom: number;
  departureTo: number;
}

/**
 * One shipment and its containers, fully planned. Deterministic in (seed, label), so a
 * tracking request created at run time for a number gets the same shipment every time.
 */
export function generateShipment(
  seed: string,
  label: string,
  reference: Reference,
  lanes: Lanes,
  parties: PartyRec[],
  spec: ShipmentSeed & { line?: ShippingLineRec; billOfLading?: string; createdAt?: number },
): ShipmentPlan {
  const random = new Random(`${seed}:${label}`);
  const line =
    spec.line ??
    random.weighted(
      lanes.linesSupported.map((l) => [
        l,
        ['MSCU', 'MAEU', 'CMDU', 'COSU', 'HLCU', 'ONEY'].includes(l.data.scac) ? 4 : 1,
      ]),
    );
  const pol = random.pick(lanes.origins);
  const pod = random.pick(lanes.gateways);
  const podTerminal = random.pick(lanes.terminalsByPort.get(pod.data.code)!);
  const routes = railRoutes.filter((r) => r.gateway === pod.data.code);
  const rail = routes.length > 0 && random.chance(0.22) ? random.pick(routes) : null;
  const destination = rail ? (lanes.portByCode.get(random.pick(rail.inland)) ?? pod) : pod;
  const transshipment = random.chance(0.3) && lanes.hubs.length > 0 ? random.pick(lanes.hubs) : null;
  const fleet = lanes.vesselsByScac.get(line.data.scac) ?? reference.vessels;
  const vessel = random.pick(fleet);
  const feederVessel = transshipment ? random.pick(reference.vessels.filter((v) => v !== vessel)) : null;

  const departedAt = minute(random.float(spec.departureFrom, spec.departureTo));
  const plannedTransit = transitDays(random, pol.data, pod.data) + (transshipment ? random.int(3, 6) : 0);
  const plannedArrival = departedAt + plannedTransit * DAY + random.float(-10, 10) * HOUR;
  // The carrier's reliability and the lane's (a transshipment or the long way round to the East
  // Coast): a long slip likelier and longer, an early arrival rarer. Exactly on time keeps its 40
  // in 100 whatever the carrier (the rest share the other 60), so a shipment that arrived on time
  // still does, and draws the same random numbers after it (its ETA has no revisions to draw).
  const reliability = carrierReliability[line.data.scac] ?? 1;
  const longWay = (transshipment ? 1.5 : 1) * (pod.data.longitude < -100 ? 1 : 1.25);
  const late = Math.min(45, (24 * longWay) / reliability);
  const early = Math.min(12, 8 * reliability);
  const delayDays = random.weighted<number>([
    [0, 40],
    [random.float(0.5, 2), 60 - late - early],
    [random.float(2, 8) * longWay, late],
    [-random.float(0.3, 1.2), early],
  ]);
  const arrivedAt = minute(plannedArrival + delayDays * DAY);
  const createdAt = minute(
    spec.createdAt ??
      Math.min(departedAt - random.float(1, 12) * DAY, spec.createdBefore - random.float(0.05, 4) * DAY),
  );
  const plannedDeparture =
    departedAt -
    random.weighted<number>([
      [0, 50],
      [random.float(0.2, 3), 50],
    ]) *
      DAY;

  const shipment: ShipmentPlan = {
    id: stableUuid(seed, `${label}:shipment`),
    createdAt,
    billOfLading: spec.billOfLading ?? `${line.data.bolPrefix}${random.digits(random.int(8, 10))}`,
    bookingNumber: random.digits(random.int(9, 10)),
    line,
    customer: parties.length > 0 && random.chance(0.85) ? random.pick(parties) : null,
    refNumbers: random.chance(0.6)
      ? Array.from({ length: random.int(1, 3) }, () => random.pick(['PO', 'HBL', 'REF', 'SO']) + '-' + random.digits(6))
      : [],
    tags: random.chance(0.35) ? [...new Set(Array.from({ length: random.int(1, 2) }, () => random.pick(tagPool)))] : [],
    pol,
    pod,
    destination,
    podTerminal,
    transshipment,
    vessel,
    voyage: voyageNumber(random),
    feederVessel,
    etdRevisions: revisions(random, plannedDeparture, departedAt, createdAt, departedAt - 6 * HOUR),
    departedAt,
    etaRevisions: revisions(random, plannedArrival, arrivedAt, createdAt, arrivedAt - DAY),
    arrivedAt,
    rail,
    destinationEtaRevisions: [],
    destinationArrivedAt: null,
    containers: [],
    stoppedByUserAt: null,
    resumedAt: null,
    bookingCancelledAt: null,
  };

  const count = random.weighted<number>([
    [1, 42],
    [2, 26],
    [3, 14],
    [4, 9],
    [5, 5],
    [6, 4],
  ]);
  for (let i = 0; i < count; i++) {
    shipment.containers.push(generateContainer(seed, `${label}:container:${i}`, shipment));
  }
  if (rail) {
    const arrivals = shipment.containers
      .map((c) => c.milestones.find((m) => m.key === 'rail_arrived')?.at)
      .filter((at): at is number => at !== undefined);
    const last = Math.max(...arrivals);
    const plannedInland = arrivedAt + random.float(5, 8) * DAY;
    shipment.destinationArrivedAt = last;
    shipment.destinationEtaRevisions = revisions(random, plannedInland, last, createdAt, last - DAY);
  }
  return shipment;
}

function generateContainer(seed: string, label: string, shipment: ShipmentPlan): ContainerPlan {
  const random = new Random(`${seed}:${label}`);
  const { pol, pod, podTerminal, transshipment, vessel, feederVessel, voyage, departedAt, arrivedAt } = shipment;
  const milestones: Milestone[] = [];
  const add = (
    key: MilestoneKey,
    at: number,
    port: PortRec,
    extra: Partial<Pick<Milestone, 'terminal' | 'vessel' | 'voyage' | 'dataSource'>> = {},
  ) => {
    const when = minute(at);
    milestones.push({
      id: stableUuid(seed, `${label}:event:${key}`),
      rawId: stableUuid(seed, `${label}:raw:${key}`),
      key,
      at: when,
      reportedAt: minute(when + random.float(0.2, 8) * HOUR),
      port,
      terminal: extra.terminal ?? null,
      vessel: extra.vessel ?? null,
      voyage: extra.voyage ?? null,
      dataSource: extra.dataSource ?? 'shipping_line',
    });
  };

  const firstVessel = feederVessel ?? vessel;
  add('empty_out', departedAt - random.float(5, 10) * DAY, pol);
  add('full_in', departedAt - random.float(2, 4.5) * DAY, pol);
  add('vessel_loaded', departedAt - random.float(4, 30) * HOUR, pol, { vessel: firstVessel, voyage });
  add('vessel_departed', departedAt, pol, { vessel: firstVessel, voyage });
  if (transshipment) {
    const legShare = random.float(0.3, 0.55);
    const tsArrived = departedAt + (arrivedAt - departedAt) * legShare;
    add('transshipment_arrived', tsArrived, transshipment, { vessel: firstVessel, voyage });
    add('transshipment_discharged', tsArrived + random.float(6, 30) * HOUR, transshipment, { vessel: firstVessel });
    const loaded = tsArrived + random.float(2, 4) * DAY;
    add('transshipment_loaded', loaded, transshipment, { vessel, voyage });
    add('transshipment_departed', loaded + random.float(4, 14) * HOUR, transshipment, { vessel, voyage });
  }
  add('vessel_arrived', arrivedAt, pod, { vessel, voyage, terminal: podTerminal });
  add('vessel_berthed', arrivedAt + random.float(0.5, 10) * HOUR, pod, { vessel, voyage, terminal: podTerminal });
  const dischargedAt = arrivedAt + random.float(10, 70) * HOUR;
  add('vessel_discharged', dischargedAt, pod, { vessel, voyage, terminal: podTerminal, dataSource: 'terminal' });

  const holds: HoldPlan[] = [];
  if (random.chance(0.28)) {
    const kind = random.weighted(holdKinds.map((k) => [k, k.weight] as const));
    const released = random.chance(0.88) ? dischargedAt + random.float(6, 120) * HOUR : null;
    holds.push({
      name: kind.name,
      description: kind.description,
      releasedAt: released === null ? null : minute(released),
    });
  }
  const holdsClearAt = holds.reduce<number | null>(
    (latest, hold) => (hold.releasedAt === null || latest === null ? null : Math.max(latest, hold.releasedAt)),
    dischargedAt,
  );

  const freeDays = random.int(3, 5);
  let appointmentLeadMs: number | null = null;
  const pickupAfterAvailable = (pace: { late: number }) =>
    random.weighted<number>([
      [random.float(0.3, 2.5), 55], // picked up early
      [random.float(2.5, freeDays + 0.5), 30], // near the last free day
      [random.float(freeDays + 0.5, freeDays + 9), 15 * pace.late], // overdue: demurrage
    ]) * DAY;
  const podPace = terminalPace(podTerminal.data.firmsCode);

  if (shipment.rail && shipment.destination !== pod) {
    const railLoaded = dischargedAt + random.float(1, 4) * DAY;
    add('rail_loaded', railLoaded, pod, { terminal: podTerminal, dataSource: 'terminal' });
    const railDeparted = railLoaded + random.float(5, 26) * HOUR;
    add('rail_departed', railDeparted, pod, { dataSource: 'terminal' });
    const railArrived = railDeparted + random.float(3, 6.5) * DAY;
    add('rail_arrived', railArrived, shipment.destination);
    add('rail_unloaded', railArrived + random.float(3, 20) * HOUR, shipment.destination);
    const rampPace = terminalPace(`${shipment.destination.data.code} ramp`);
    const rampAvailable = railArrived + random.float(20, 40) * rampPace.availableAfter * HOUR;
    add('arrived_at_inland_destination', railArrived + random.float(1, 3) * HOUR, shipment.destination);
    add('available', rampAvailable, shipment.destination);
    const fullOut = rampAvailable + pickupAfterAvailable(rampPace);
    if (random.chance(0.5)) appointmentLeadMs = random.float(6, 48) * HOUR;
    add('full_out', fullOut, shipment.destination);
    add('empty_in', fullOut + random.float(2, 9) * DAY, shipment.destination);
  } else if (holdsClearAt !== null) {
    const available = Math.max(
      dischargedAt + random.float(2, 14) * podPace.availableAfter * HOUR,
      holdsClearAt + random.float(0.5, 4) * HOUR,
    );
    add('available', available, pod, { terminal: podTerminal, dataSource: 'terminal' });
    const fullOut = available + pickupAfterAvailable(podPace);
    if (random.chance(0.55)) appointmentLeadMs = random.float(6, 48) * HOUR;
    add('full_out', fullOut, pod, { terminal: podTerminal, dataSource: 'terminal' });
    add('empty_in', fullOut + random.float(2, 10) * DAY, pod, { terminal: podTerminal, dataSource: 'terminal' });
  }
  milestones.sort((a, b) => a.at - b.at);
  withdrawSome(seed, label, milestones);
  const live = liveExtras(new Random(`${seed}:${label}:live`), milestones);

  const equipmentType = random.weighted<ContainerPlan['equipmentType']>([
    ['dry', 86],
    ['reefer', 9],
    ['open top', 2],
    ['flat rack', 2],
    ['tank', 1],
  ]);
  const equipmentLength = random.weighted<ContainerPlan['equipmentLength']>([
    [40, 62],
    [20, 30],
    [45, 8],
  ]);
  return {
    id: stableUuid(seed, `${label}:container`),
    shipment,
    createdAt: shipment.createdAt + random.int(1, 90) * 1000,
    number: containerNumber(random, shipment.line.data.scac),
    equipmentType,
    equipmentLength,
    equipmentHeight: equipmentLength === 20 ? 'standard' : random.chance(0.8) ? 'high_cube' : 'standard',
    weightLbs: random.int(6000, equipmentLength === 20 ? 47000 : 58000),
    sealNumber: random.chance(0.5) ? random.digits(8) : `${random.letters(2)}${random.digits(7)}`,
    refNumbers: [],
    milestones,
    holds,
    freeDays,
    demurragePerDay: random.pick([125, 150, 175, 200, 250, 300]),
    customsExam: holds.some((h) => h.name === 'customs') && random.chance(0.4),
    chassisNumber: random.chance(0.7)
      ? `${random.pick(['APMZ', 'DCLZ', 'TRAC', 'FLXZ', 'NCNZ'])}${random.digits(6)}`
      : null,
    appointmentLeadMs,
    ...live,
  };
}

const facilityHoldKinds: { name: string; description: string | null; weight: number }[] = [
  { name: 'freight', description: 'Rail freight charges unpaid', weight: 4 },
  { name: 'customs', description: 'Customs hold at the inland port of entry', weight: 3 },
  { name: 'other', description: null, weight: 1 },
];

/**
 * What only the live service reports (delivery, inland facility holds), drawn from a Random of
 * its own so the rest of the plan is what it was before these existed. A facility hold is
 * released before the box leaves the ramp; delivery falls between full out and the empty return.
 */
function liveExtras(
  random: Random,
  milestones: Milestone[],
): Pick<ContainerPlan, 'deliveredAfterMs' | 'facilityHolds'> {
  const at = (key: MilestoneKey) => milestones.find((m) => m.key === key)?.at;
  const fullOut = at('full_out');
  const emptyIn = at('empty_in');
  const lead = random.float(2, 30) * HOUR;
  const deliveredAfterMs = minute(
    fullOut !== undefined && emptyIn !== undefined ? Math.min(lead, (emptyIn - fullOut) / 2) : lead,
  );
  const unloaded = at('rail_unloaded');
  const facilityHolds: HoldPlan[] = [];
  if (unloaded !== undefined && fullOut !== undefined && random.chance(0.5)) {
    const kind = random.weighted(facilityHoldKinds.map((k) => [k, k.weight] as const));
    const releasedAt = minute(unloaded + random.float(0.1, 0.95) * (fullOut - HOUR - unloaded));
    facilityHolds.push({ name: kind.name, description: kind.description, releasedAt: Math.max(releasedAt, unloaded) });
  }
  return { deliveredAfterMs, facilityHolds };
}

/** The share of containers whose departure or discharge the carrier first reports wrongly. */
export const WITHDRAWN_SHARE = 0.05;

/**
 * Gives a few containers a withdrawn event: the carrier reports the departure or the discharge
 * at a wrong time, withdraws it hours later and sends the right time as a correction. Drawn from
 * a random of its own, so every other draw of the container stays as it was.
 */
function withdrawSome(seed: string, label: string, milestones: Milestone[]): void {
  const random = new Random(`${seed}:${label}:withdrawal`);
  if (!random.chance(WITHDRAWN_SHARE)) return;
  const candidates = milestones.filter((m) => m.key === 'vessel_departed' || m.key === 'vessel_discharged');
  if (candidates.length === 0) return;
  const milestone = random.pick(candidates);
  milestone.withdrawn = {
    id: stableUuid(seed, `${label}:event:${milestone.key}:withdrawn`),
    at: minute(milestone.at - random.float(2, 20) * HOUR),
    withdrawnAt: minute(milestone.reportedAt + random.float(2, 30) * HOUR),
  };
}
