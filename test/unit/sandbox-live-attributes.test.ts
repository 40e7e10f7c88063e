/**
 * What the live service sends beyond its reference, as the sandbox generates it:
 * deterministic per seed, and consistent with each box's story.
 */
import { describe, expect, it } from 'vitest';
import { generateWorld } from '../../src/sandbox/generate';
import type { ContainerPlan } from '../../src/sandbox/model';
import { serialize } from '../../src/sandbox/serialize';

type Attributes = Record<string, unknown>;
const now = Date.parse('2026-03-02T09:30:00Z');

function world(seed: string) {
  return generateWorld({ seed, shipments: 300, now });
}
const attributesOf = (w: ReturnType<typeof world>, rec: ContainerPlan, at = now): Attributes =>
  (serialize({ type: 'container', rec }, { now: at, account: w.account }) as { attributes: Attributes }).attributes;
const ms = (value: unknown): number => Date.parse(value as string);

describe('sandbox: the live service’s extra attributes', () => {
  const w = world('live-attributes');
  const boxes = w.shipments.flatMap((s) => s.containers.map((rec) => ({ rec, a: attributesOf(w, rec) })));

  it('gives the same values for the same seed, and other values for another', () => {
    const again = world('live-attributes');
    const first = again.shipments[0]!.containers[0]!;
    expect(attributesOf(again, first)).toEqual(boxes[0]!.a);
    const other = world('live-attributes-2');
    expect(attributesOf(other, other.shipments[0]!.containers[0]!)).not.toEqual(boxes[0]!.a);
  });

  it('tells each box’s origin and delivery in the order they happen', () => {
    const origin = boxes.filter((b) => b.a.pol_vessel_departed_at);
    expect(origin.length).toBeGreaterThan(100);
    for (const { a } of origin) {
      expect(ms(a.empty_out_at)).toBeLessThan(ms(a.pol_full_in_at));
      expect(ms(a.pol_full_in_at)).toBeLessThan(ms(a.pol_vessel_loaded_at));
      expect(ms(a.pol_vessel_loaded_at)).toBeLessThan(ms(a.pol_vessel_departed_at));
    }
    const delivered = boxes.filter((b) => b.a.delivered_at);
    expect(delivered.length).toBeGreaterThan(20);
    for (const { a } of delivered) {
      const fullOut = ms(a.pod_full_out_at ?? a.final_destination_full_out_at);
      expect(ms(a.delivered_at)).toBeGreaterThan(fullOut);
      if (a.empty_terminated_at) expect(ms(a.delivered_at)).toBeLessThan(ms(a.empty_terminated_at));
    }
    // Not delivered before it left the terminal.
    for (const { a } of boxes.filter((b) => !b.a.pod_full_out_at && !b.a.final_destination_full_out_at)) {
      expect(a.delivered_at).toBeNull();
    }
  });

  it('gives rail boxes inland facility holds released before the box leaves, storage fees and a check time', () => {
    const rail = boxes.filter((b) => Array.isArray(b.a.ind_facility_holds));
    const ocean = boxes.filter((b) => !Array.isArray(b.a.ind_facility_holds));
    expect(rail.length).toBeGreaterThan(20);
    for (const { a } of ocean) {
      expect(a).toMatchObject({
        ind_facility_holds: null,
        ind_facility_fees: null,
        rail_last_tracking_request_at: null,
      });
    }
    const held = rail.filter((b) => (b.a.ind_facility_holds as unknown[]).length > 0);
    expect(held.length).toBeGreaterThan(0);
    for (const { rec, a } of held) {
      expect(a.ind_rail_unloaded_at).not.toBeNull();
      const fullOut = rec.milestones.find((m) => m.key === 'full_out')!.at;
      for (const hold of rec.facilityHolds) expect(hold.releasedAt).toBeLessThan(fullOut);
      if (a.final_destination_full_out_at) {
        expect((a.ind_facility_holds as { status: string }[]).every((h) => h.status === 'released')).toBe(true);
      }
    }
    // Storage at the ramp is owed at the ramp, not at the port terminal.
    const owing = rail.filter((b) => (b.a.ind_facility_fees as unknown[]).length > 0);
    expect(owing.length).toBeGreaterThan(0);
    for (const { a } of owing) {
      expect(a.ind_facility_fees).toContainEqual(expect.objectContaining({ type: 'total' }));
      expect(a.fees_at_pod_terminal).not.toContainEqual(expect.objectContaining({ type: 'demurrage' }));
    }
  });

  it('moves a rail box’s last check with the clock, from discharge until it leaves the ramp', () => {
    const waiting = boxes.find(
      (b) =>
        b.a.rail_last_tracking_request_at &&
        !b.a.final_destination_full_out_at &&
        b.rec.shipment.stoppedByUserAt === null,
    );
    expect(waiting).toBeDefined();
    const later = attributesOf(w, waiting!.rec, now + 90_000);
    expect(later.rail_last_tracking_request_at).not.toBe(waiting!.a.rail_last_tracking_request_at);
    expect(ms(later.rail_last_tracking_request_at)).toBeLessThanOrEqual(now + 90_000);
    const stillThere = boxes.filter((b) => b.a.rail_last_tracking_request_at);
    for (const { a } of stillThere) expect(a.pod_discharged_at).not.toBeNull();
  });

  it('leaves the import deadlines out on some boxes, and names the line’s last free day as its deadline', () => {
    expect(boxes.some((b) => b.a.import_deadlines === null)).toBe(true);
    expect(boxes.some((b) => b.a.import_deadlines !== null)).toBe(true);
    for (const { a } of boxes) {
      const deadlines = a.import_deadlines as Attributes | null;
      if (deadlines) expect(a.ssl_lfd).toBe(deadlines.pickup_lfd_line);
    }
  });

  it('sends the original departure and inland arrival plans beside the current ones', () => {
    for (const s of w.shipments) {
      const a = (serialize({ type: 'shipment', rec: s }, { now, account: w.account }) as { attributes: Attributes })
        .attributes;
      expect(a.pol_original_etd_at).not.toBeNull();
      if (s.rail) expect(a.destination_original_eta_at).not.toBeNull();
      else expect(a.destination_original_eta_at).toBeNull();
      // A revised plan: the original stays where it was.
      if (a.pol_etd_at && s.etdRevisions.length > 1)
        expect(a.pol_original_etd_at).toBe(new Date(s.etdRevisions[0]!.eta).toISOString().replace('.000Z', 'Z'));
    }
  });

  it('writes port positions as text, and gives terminals their codes and lines their pages', () => {
    const s = w.shipments[0]!;
    const ctx = { now, account: w.account };
    const port = (serialize({ type: 'port', rec: s.pod }, ctx) as { attributes: Attributes }).attributes;
    expect(port.latitude).toMatch(/^-?\d+(\.\d+)?$/);
    expect(Number(port.latitude)).toBe(s.pod.data.latitude);
    const terminal = (serialize({ type: 'terminal', rec: s.podTerminal }, ctx) as { attributes: Attributes })
      .attributes;
    expect(terminal.smdg_code).toMatch(/^[A-Z0-9]{3,5}$/);
    expect(terminal.bic_facility_code).toMatch(new RegExp(`^${s.pod.data.code}[A-Z0-9]{4}$`));
    const line = (serialize({ type: 'shipping_line', rec: s.line }, ctx) as { attributes: Attributes }).attributes;
    expect(line.tracking_url).toMatch(/^https:\/\/www\.[a-z0-9]+\.example\/tracking$/);
    expect(line.contact_url).toMatch(/^https:\/\/www\.[a-z0-9]+\.example\/contact$/);
  });
});
