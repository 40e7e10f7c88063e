/**
 * The places a simulated shipment passes through: where it is loaded, where it may change ships,
 * the US port it is discharged at and the inland rail ramp it may end at. Coordinates are those of
 * the container port (or rail hub) rather than the city centre, to the precision a map needs.
 */

export type PortRole = 'origin' | 'us_gateway' | 'transshipment' | 'inland';

export interface PortData {
  /** UN/LOCODE: 2-letter country and 3-character location. */
  code: string;
  name: string;
  city: string | null;
  stateAbbr: string | null;
  /** ISO 3166-1 alpha-2. */
  countryCode: string;
  /** IANA zone the place's local times are given in. */
  timeZone: string;
  latitude: number;
  longitude: number;
  /** Each place plays one part in the generator's routes, even where it could play several. */
  role: PortRole;
}

function gateway(
  code: string,
  name: string,
  city: string,
  stateAbbr: string,
  timeZone: string,
  latitude: number,
  longitude: number,
): PortData {
  return { code, name, city, stateAbbr, countryCode: 'US', timeZone, latitude, longitude, role: 'us_gateway' };
}

function origin(
  code: string,
  name: string,
  city: string | null,
  countryCode: string,
  timeZone: string,
  latitude: number,
  longitude: number,
): PortData {
  return { code, name, city, stateAbbr: null, countryCode, timeZone, latitude, longitude, role: 'origin' };
}

function transshipment(
  code: string,
  name: string,
  city: string | null,
  countryCode: string,
  timeZone: string,
  latitude: number,
  longitude: number,
): PortData {
  return { code, name, city, stateAbbr: null, countryCode, timeZone, latitude, longitude, role: 'transshipment' };
}

/** An inland metro area (the service's `metro_area`, not a port): a rail ramp's city. */
function inland(
  code: string,
  city: string,
  stateAbbr: string,
  timeZone: string,
  latitude: number,
  longitude: number,
  countryCode = 'US',
): PortData {
  return { code, name: city, city, stateAbbr, countryCode, timeZone, latitude, longitude, role: 'inland' };
}

export const ports: readonly PortData[] = [
  // US ports of discharge: every port a terminal in `terminals` belongs to.
  gateway('USBAL', 'Baltimore', 'Baltimore', 'MD', 'America/New_York', 39.2514, -76.5549),
  gateway('USBOS', 'Boston', 'Boston', 'MA', 'America/New_York', 42.3436, -71.0255),
  gateway('USHOU', 'Houston', 'Houston', 'TX', 'America/Chicago', 29.6797, -95.0046),
  gateway('USJAX', 'Jacksonville', 'Jacksonville', 'FL', 'America/New_York', 30.4004, -81.5584),
  gateway('USLGB', 'Long Beach', 'Long Beach', 'CA', 'America/Los_Angeles', 33.7542, -118.2165),
  gateway('USLAX', 'Los Angeles', 'Los Angeles', 'CA', 'America/Los_Angeles', 33.7361, -118.2639),
  gateway('USMIA', 'Miami', 'Miami', 'FL', 'America/New_York', 25.7734, -80.1653),
  gateway('USMOB', 'Mobile', 'Mobile', 'AL', 'America/Chicago', 30.6568, -88.0384),
  gateway('USMSY', 'New Orleans', 'New Orleans', 'LA', 'America/Chicago', 29.9183, -90.1017),
  gateway('USNYC', 'New York / New Jersey', 'New York', 'NY', 'America/New_York', 40.6843, -74.1502),
  gateway('USOAK', 'Oakland', 'Oakland', 'CA', 'America/Los_Angeles', 37.7955, -122.2938),
  gateway('USPHL', 'Philadelphia', 'Philadelphia', 'PA', 'America/New_York', 39.9049, -75.1378),
  gateway('USPEF', 'Port Everglades', 'Fort Lauderdale', 'FL', 'America/New_York', 26.0887, -80.1165),
  // The service's code for Tampa; the UN/LOCODE list itself files Tampa as USTPA.
  gateway('USPOT', 'Tampa', 'Tampa', 'FL', 'America/New_York', 27.9266, -82.4413),
  gateway('USSAV', 'Savannah', 'Savannah', 'GA', 'America/New_York', 32.1235, -81.1432),
  gateway('USSEA', 'Seattle', 'Seattle', 'WA', 'America/Los_Angeles', 47.5804, -122.353),
  gateway('USTIW', 'Tacoma', 'Tacoma', 'WA', 'America/Los_Angeles', 47.2714, -122.4139),
  gateway('USORF', 'Norfolk', 'Norfolk', 'VA', 'America/New_York', 36.9108, -76.3296),

  // Ports of loading.
  origin('CNSHA', 'Shanghai', 'Shanghai', 'CN', 'Asia/Shanghai', 30.6206, 122.0656),
  origin('CNNGB', 'Ningbo', 'Ningbo', 'CN', 'Asia/Shanghai', 29.9398, 121.8621),
  origin('CNYTN', 'Yantian', 'Shenzhen', 'CN', 'Asia/Shanghai', 22.5729, 114.2715),
  origin('CNSHK', 'Shekou', 'Shenzhen', 'CN', 'Asia/Shanghai', 22.4754, 113.8826),
  origin('CNTAO', 'Qingdao', 'Qingdao', 'CN', 'Asia/Shanghai', 36.0178, 120.2065),
  origin('CNXMN', 'Xiamen', 'Xiamen', 'CN', 'Asia/Shanghai', 24.4798, 118.0723),
  origin('CNTXG', 'Tianjin Xingang', 'Tianjin', 'CN', 'Asia/Shanghai', 38.9758, 117.777),
  origin('HKHKG', 'Hong Kong', 'Hong Kong', 'HK', 'Asia/Hong_Kong', 22.3418, 114.1243),
  origin('KRPUS', 'Busan', 'Busan', 'KR', 'Asia/Seoul', 35.0776, 128.8313),
  origin('JPTYO', 'Tokyo', 'Tokyo', 'JP', 'Asia/Tokyo', 35.619, 139.7945),
  origin('JPYOK', 'Yokohama', 'Yokohama', 'JP', 'Asia/Tokyo', 35.4588, 139.6656),
  origin('JPUKB', 'Kobe', 'Kobe', 'JP', 'Asia/Tokyo', 34.6706, 135.2178),
  origin('TWKHH', 'Kaohsiung', 'Kaohsiung', 'TW', 'Asia/Taipei', 22.563, 120.3257),
  origin('VNSGN', 'Ho Chi Minh City', 'Ho Chi Minh City', 'VN', 'Asia/Ho_Chi_Minh', 10.7621, 106.7881),
  origin('VNHPH', 'Haiphong', 'Haiphong', 'VN', 'Asia/Ho_Chi_Minh', 20.8635, 106.717),
  origin('THLCH', 'Laem Chabang', 'Si Racha', 'TH', 'Asia/Bangkok', 13.087, 100.885),
  origin('IDJKT', 'Jakarta', 'Jakarta', 'ID', 'Asia/Jakarta', -6.1033, 106.8863),
  origin('PHMNL', 'Manila', 'Manila', 'PH', 'Asia/Manila', 14.6063, 120.952),
  origin('INNSA', 'Nhava Sheva', 'Navi Mumbai', 'IN', 'Asia/Kolkata', 18.95, 72.95),
  origin('INMUN', 'Mundra', 'Mundra', 'IN', 'Asia/Kolkata', 22.7394, 69.7046),
  origin('BDCGP', 'Chittagong', 'Chittagong', 'BD', 'Asia/Dhaka', 22.3085, 91.8003),
  origin('NLRTM', 'Rotterdam', 'Rotterdam', 'NL', 'Europe/Amsterdam', 51.9536, 4.0514),
  origin('DEHAM', 'Hamburg', 'Hamburg', 'DE', 'Europe/Berlin', 53.5357, 9.9349),
  origin('DEBRV', 'Bremerhaven', 'Bremerhaven', 'DE', 'Europe/Berlin', 53.5858, 8.5332),
  origin('BEANR', 'Antwerp', 'Antwerp', 'BE', 'Europe/Brussels', 51.2804, 4.3412),
  origin('FRLEH', 'Le Havre', 'Le Havre', 'FR', 'Europe/Paris', 49.4688, 0.18),
  origin('GBFXT', 'Felixstowe', 'Felixstowe', 'GB', 'Europe/London', 51.9543, 1.3138),
  origin('ESVLC', 'Valencia', 'Valencia', 'ES', 'Europe/Madrid', 39.4436, -0.3164),
  origin('ESBCN', 'Barcelona', 'Barcelona', 'ES', 'Europe/Madrid', 41.337, 2.1629),
  origin('ITGOA', 'Genoa', 'Genoa', 'IT', 'Europe/Rome', 44.4056, 8.8967),
  origin('BRSSZ', 'Santos', 'Santos', 'BR', 'America/Sao_Paulo', -23.967, -46.3),
  origin('ARBUE', 'Buenos Aires', 'Buenos Aires', 'AR', 'America/Argentina/Buenos_Aires', -34.5825, -58.3817),
  origin('CLSAI', 'San Antonio', 'San Antonio', 'CL', 'America/Santiago', -33.5889, -71.6147),
  origin('PECLL', 'Callao', 'Callao', 'PE', 'America/Lima', -12.05, -77.1453),
  origin('COCTG', 'Cartagena', 'Cartagena', 'CO', 'America/Bogota', 10.3925, -75.5269),
  origin('MXZLO', 'Manzanillo', 'Manzanillo', 'MX', 'America/Mexico_City', 19.0588, -104.3011),
  origin('ECGYE', 'Guayaquil', 'Guayaquil', 'EC', 'America/Guayaquil', -2.2806, -79.909),

  // Hubs where cargo changes ships between the origin and the US.
  transshipment('SGSIN', 'Singapore', 'Singapore', 'SG', 'Asia/Singapore', 1.2653, 103.82),
  transshipment('LKCMB', 'Colombo', 'Colombo', 'LK', 'Asia/Colombo', 6.9497, 79.8428),
  transshipment('MYPKG', 'Port Klang', 'Klang', 'MY', 'Asia/Kuala_Lumpur', 2.9994, 101.3922),
  transshipment('MYTPP', 'Tanjung Pelepas', 'Gelang Patah', 'MY', 'Asia/Kuala_Lumpur', 1.3621, 103.5485),
  transshipment('ESALG', 'Algeciras', 'Algeciras', 'ES', 'Europe/Madrid', 36.1371, -5.4386),
  transshipment('MAPTM', 'Tanger Med', null, 'MA', 'Africa/Casablanca', 35.884, -5.502),
  transshipment('PAMIT', 'Manzanillo International', 'Colón', 'PA', 'America/Panama', 9.365, -79.878),
  transshipment('PABLB', 'Balboa', 'Panama City', 'PA', 'America/Panama', 8.959, -79.569),

  // Metro areas with a rail ramp a container can travel to after discharge (served as `metro_area`).
  inland('USCHI', 'Chicago', 'IL', 'America/Chicago', 41.8781, -87.6298),
  inland('USMEM', 'Memphis', 'TN', 'America/Chicago', 35.1495, -90.049),
  inland('USDAL', 'Dallas', 'TX', 'America/Chicago', 32.7767, -96.797),
  inland('USMKC', 'Kansas City', 'MO', 'America/Chicago', 39.0997, -94.5786),
  inland('USSTL', 'St. Louis', 'MO', 'America/Chicago', 38.627, -90.1994),
  inland('USCMH', 'Columbus', 'OH', 'America/New_York', 39.9612, -82.9988),
  inland('USCLE', 'Cleveland', 'OH', 'America/New_York', 41.4993, -81.6944),
  inland('USDET', 'Detroit', 'MI', 'America/Detroit', 42.3314, -83.0458),
  inland('USIND', 'Indianapolis', 'IN', 'America/Indiana/Indianapolis', 39.7684, -86.1581),
  inland('USATL', 'Atlanta', 'GA', 'America/New_York', 33.749, -84.388),
  inland('USCLT', 'Charlotte', 'NC', 'America/New_York', 35.2271, -80.8431),
  inland('USDEN', 'Denver', 'CO', 'America/Denver', 39.7392, -104.9903),
  inland('CATOR', 'Toronto', 'ON', 'America/Toronto', 43.7315, -79.7624, 'CA'),
];

export interface RailRoute {
  /** The US port the container is discharged at and loaded onto a train. */
  gateway: string;
  /** Ramps this pair of railroads serves from the gateway. */
  inland: string[];
  /** SCAC of the railroad that takes the container from the port. */
  podRailScac: string;
  /** SCAC of the railroad that delivers it at the inland ramp; differs when the train is interchanged on the way. */
  indRailScac: string;
}

/**
 * Rail service from US ports, one entry per pair of railroads. West coast boxes bound for the
 * plains and the Midwest ride Union Pacific or BNSF the whole way; those bound further east are
 * interchanged to CSX or Norfolk Southern, which is why the two SCACs can differ. East coast ports
 * load straight onto CSX or Norfolk Southern, Houston onto the western pair, and Mobile onto CN.
 * SCACs are the ones the service reports rail moves under (NSRR and CNRU rather than reporting
 * marks such as NS or CN).
 */
export const railRoutes: readonly RailRoute[] = [
  {
    gateway: 'USLAX',
    inland: ['USCHI', 'USDAL', 'USMKC', 'USSTL', 'USMEM', 'USDEN'],
    podRailScac: 'UPRR',
    indRailScac: 'UPRR',
  },
  { gateway: 'USLAX', inland: ['USCHI', 'USDAL', 'USMKC', 'USMEM', 'USDEN'], podRailScac: 'BNSF', indRailScac: 'BNSF' },
  { gateway: 'USLAX', inland: ['USCMH', 'USCLE', 'USIND', 'USATL', 'USDET'], podRailScac: 'UPRR', indRailScac: 'CSXT' },
  { gateway: 'USLAX', inland: ['USCMH', 'USCLE', 'USATL', 'USDET', 'USCLT'], podRailScac: 'BNSF', indRailScac: 'NSRR' },
  {
    gateway: 'USLGB',
    inland: ['USCHI', 'USDAL', 'USMKC', 'USSTL', 'USMEM', 'USDEN'],
    podRailScac: 'UPRR',
    indRailScac: 'UPRR',
  },
  { gateway: 'USLGB', inland: ['USCHI', 'USDAL', 'USMKC', 'USMEM', 'USDEN'], podRailScac: 'BNSF', indRailScac: 'BNSF' },
  { gateway: 'USLGB', inland: ['USCMH', 'USCLE', 'USIND', 'USATL'], podRailScac: 'BNSF', indRailScac: 'CSXT' },
  { gateway: 'USLGB', inland: ['USCMH', 'USDET', 'USCLT'], podRailScac: 'UPRR', indRailScac: 'NSRR' },
  { gateway: 'USOAK', inland: ['USCHI', 'USDAL', 'USMKC', 'USDEN'], podRailScac: 'UPRR', indRailScac: 'UPRR' },
  { gateway: 'USOAK', inland: ['USCHI', 'USMEM', 'USDAL'], podRailScac: 'BNSF', indRailScac: 'BNSF' },
  { gateway: 'USSEA', inland: ['USCHI', 'USMKC', 'USMEM'], podRailScac: 'BNSF', indRailScac: 'BNSF' },
  { gateway: 'USSEA', inland: ['USCHI', 'USMKC'], podRailScac: 'UPRR', indRailScac: 'UPRR' },
  { gateway: 'USTIW', inland: ['USCHI', 'USMEM', 'USDAL'], podRailScac: 'UPRR', indRailScac: 'UPRR' },
  { gateway: 'USTIW', inland: ['USCHI', 'USMKC', 'USSTL'], podRailScac: 'BNSF', indRailScac: 'BNSF' },
  { gateway: 'USTIW', inland: ['USCMH', 'USCLE'], podRailScac: 'BNSF', indRailScac: 'CSXT' },
  { gateway: 'USHOU', inland: ['USDAL', 'USMEM', 'USCHI'], podRailScac: 'UPRR', indRailScac: 'UPRR' },
  { gateway: 'USHOU', inland: ['USDAL', 'USCHI'], podRailScac: 'BNSF', indRailScac: 'BNSF' },
  { gateway: 'USNYC', inland: ['USCHI', 'USCMH', 'USCLE', 'USDET', 'USIND'], podRailScac: 'CSXT', indRailScac: 'CSXT' },
  { gateway: 'USNYC', inland: ['USCHI', 'USCMH', 'USCLE', 'USDET', 'USATL'], podRailScac: 'NSRR', indRailScac: 'NSRR' },
  { gateway: 'USORF', inland: ['USCHI', 'USCMH', 'USMEM'], podRailScac: 'NSRR', indRailScac: 'NSRR' },
  { gateway: 'USORF', inland: ['USCHI', 'USCMH'], podRailScac: 'CSXT', indRailScac: 'CSXT' },
  { gateway: 'USSAV', inland: ['USATL', 'USCLT', 'USMEM'], podRailScac: 'NSRR', indRailScac: 'NSRR' },
  { gateway: 'USSAV', inland: ['USATL', 'USCHI'], podRailScac: 'CSXT', indRailScac: 'CSXT' },
  { gateway: 'USBAL', inland: ['USCHI', 'USCMH'], podRailScac: 'CSXT', indRailScac: 'CSXT' },
  { gateway: 'USJAX', inland: ['USATL', 'USCHI'], podRailScac: 'CSXT', indRailScac: 'CSXT' },
  { gateway: 'USPHL', inland: ['USCHI'], podRailScac: 'CSXT', indRailScac: 'CSXT' },
  // CN's line runs on from Chicago to Toronto (Brampton) through Sarnia.
  { gateway: 'USMOB', inland: ['USMEM', 'USCHI', 'CATOR'], podRailScac: 'CNRU', indRailScac: 'CNRU' },
];
