/**
 * The rail ramps (the service's `rail_terminal`) at each inland metro area a container can ride
 * a train to: one per metro area, named as the railroads name the intermodal facility. A ramp
 * belongs to its metro area (`metro_area` relationship) and to no port.
 */

export interface RailTerminalData {
  name: string;
  nickname: string;
  /** UN/LOCODE of the metro area (an `inland` place in `ports`). */
  metroCode: string;
}

export const railTerminals: readonly RailTerminalData[] = [
  { name: 'Logistics Park Chicago', nickname: 'LPC', metroCode: 'USCHI' },
  { name: 'Memphis Intermodal Facility', nickname: 'Memphis', metroCode: 'USMEM' },
  { name: 'Dallas Intermodal Terminal', nickname: 'DIT', metroCode: 'USDAL' },
  { name: 'Logistics Park Kansas City', nickname: 'LPKC', metroCode: 'USMKC' },
  { name: 'St. Louis Intermodal Terminal', nickname: 'St. Louis', metroCode: 'USSTL' },
  { name: 'Rickenbacker Intermodal Terminal', nickname: 'Rickenbacker', metroCode: 'USCMH' },
  { name: 'Cleveland Intermodal Terminal', nickname: 'Cleveland', metroCode: 'USCLE' },
  { name: 'Detroit Intermodal Terminal', nickname: 'Detroit', metroCode: 'USDET' },
  { name: 'Avon Intermodal Terminal', nickname: 'Avon', metroCode: 'USIND' },
  { name: 'Austell Intermodal Terminal', nickname: 'Austell', metroCode: 'USATL' },
  { name: 'Charlotte Regional Intermodal Facility', nickname: 'Charlotte', metroCode: 'USCLT' },
  { name: 'Denver Intermodal Terminal', nickname: 'Denver', metroCode: 'USDEN' },
  { name: 'Brampton Intermodal Terminal', nickname: 'Brampton', metroCode: 'CATOR' },
];
