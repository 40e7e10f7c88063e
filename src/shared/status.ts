/** The container statuses Quayside shows, in the order a box moves through them. */
export const containerStatuses = [
  'booked',
  'in_transit',
  'arrived',
  'discharged',
  'available',
  'on_rail',
  'picked_up',
  'empty_returned',
] as const;
export type ContainerStatus = (typeof containerStatuses)[number];

export const containerStatusLabels: Record<ContainerStatus, string> = {
  booked: 'Booked, not departed',
  in_transit: 'In transit',
  arrived: 'Vessel arrived',
  discharged: 'Discharged, not available',
  available: 'Available for pickup',
  on_rail: 'On rail',
  picked_up: 'Picked up',
  empty_returned: 'Empty returned',
};

/**
 * The stages a forwarder thinks in, each one choice beside the detailed statuses (the
 * containers list's Stage filter, `export --stage`), kept by id so a saved "Not picked up yet"
 * stays that stage. Stages may share a status: they answer different questions.
 */
export const statusGroups = ['not_picked_up', 'at_sea', 'at_port', 'picked_up', 'returned'] as const;
export type StatusGroup = (typeof statusGroups)[number];

export const statusGroupLabels: Record<StatusGroup, string> = {
  not_picked_up: 'Not picked up yet',
  at_sea: 'At sea',
  at_port: 'At port',
  picked_up: 'Picked up',
  returned: 'Returned',
};

/** The detailed statuses each stage means. */
export const statusGroupMembers: Record<StatusGroup, readonly ContainerStatus[]> = {
  // Arrived and still to be collected: the boxes with a last free day to beat. A box on rail has
  // left the port but is picked up at the inland ramp, so it is still waiting; a box at sea
  // cannot be picked up yet and is not in this list.
  not_picked_up: ['arrived', 'discharged', 'available', 'on_rail'],
  // Still to arrive: a box booked but not yet sailed is on its way as much as one on the water.
  at_sea: ['booked', 'in_transit'],
  // At the terminal where it is picked up: the vessel in, discharged, or available. A box on
  // rail is between the port and the ramp, at neither.
  at_port: ['arrived', 'discharged', 'available'],
  // Out of the terminal and not yet back empty: the box the per diem clock runs on.
  picked_up: ['picked_up'],
  returned: ['empty_returned'],
};

/** The detailed statuses any of `groups` means, each once, in the order a box moves through them. */
export function statusesOfGroups(groups: readonly StatusGroup[]): ContainerStatus[] {
  const wanted = new Set(groups.flatMap((g) => statusGroupMembers[g]));
  return containerStatuses.filter((s) => wanted.has(s));
}
