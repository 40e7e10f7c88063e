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
