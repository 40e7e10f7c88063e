/**
 * The carriers the simulated service knows, keyed by SCAC. Rows the service tracks have
 * `supported: true`; the rest let the sandbox answer a tracking request for a real carrier with the
 * "not supported" error instead of "not found".
 */

export interface ShippingLineData {
  scac: string;
  name: string;
  shortName: string;
  /** What the carrier prints ahead of its bill of lading numbers; empty when none is on record. */
  bolPrefix: string;
  supported: boolean;
}

export const shippingLines: readonly ShippingLineData[] = [
  { scac: 'APLU', name: 'American President Lines', shortName: 'APL', bolPrefix: 'APLU', supported: true },
  { scac: 'ANNU', name: 'Australia National Line', shortName: 'ANL', bolPrefix: 'ANLC', supported: true },
  { scac: 'COSU', name: 'China Ocean Shipping Company', shortName: 'COSCO', bolPrefix: 'CCMJ', supported: true },
  { scac: 'CMDU', name: 'CMA CGM', shortName: 'CMA CGM', bolPrefix: 'CMDU', supported: true },
  { scac: 'EGLV', name: 'Evergreen', shortName: 'Evergreen', bolPrefix: 'EISU', supported: true },
  { scac: 'SUDU', name: 'Hamburg Sud', shortName: 'Hamburg Sud', bolPrefix: 'SUDU', supported: true },
  { scac: 'HLCU', name: 'Hapag-Lloyd', shortName: 'Hapag-Lloyd', bolPrefix: 'HLCU', supported: true },
  // Tracked by bill of lading and booking only: the service cannot look up HMM container numbers.
  { scac: 'HDMU', name: 'Hyundai Merchant Marine', shortName: 'Hyundai', bolPrefix: 'HDMU', supported: true },
  { scac: 'MAEU', name: 'Maersk', shortName: 'Maersk', bolPrefix: 'MAEU', supported: true },
  // The service lists Matson twice, once as tracked and once as on its roadmap; it is tracked.
  { scac: 'MATS', name: 'Matson Navigation Company', shortName: 'Matson', bolPrefix: 'MATS', supported: true },
  { scac: 'MSCU', name: 'Mediterranean Shipping Company', shortName: 'MSC', bolPrefix: 'MEDU', supported: true },
  { scac: 'ONEY', name: 'Ocean Network Express', shortName: 'ONE', bolPrefix: 'ONEY', supported: true },
  { scac: 'OOLU', name: 'Orient Overseas Container Line', shortName: 'OOCL', bolPrefix: 'OOLU', supported: true },
  { scac: 'PCIU', name: 'Pacific International Lines', shortName: 'PIL', bolPrefix: 'PABV', supported: true },
  { scac: 'SAFM', name: 'Safmarine Container Line', shortName: 'Safmarine', bolPrefix: 'SAFM', supported: true },
  { scac: 'SEAL', name: 'SeaLand', shortName: 'SeaLand', bolPrefix: 'SEAU', supported: true },
  { scac: 'YMLU', name: 'Yangming Marine Transport', shortName: 'Yangming', bolPrefix: 'YMLU', supported: true },

  // On the service's roadmap, not yet tracked.
  { scac: 'WHLC', name: 'Wan Hai Lines', shortName: 'Wan Hai', bolPrefix: '', supported: false },
  { scac: 'ZIMU', name: 'Zim', shortName: 'Zim', bolPrefix: '', supported: false },
  // The service's own list files Seaboard under Crowley's SCAC; SMLU is the code Seaboard uses.
  { scac: 'SMLU', name: 'Seaboard Marine', shortName: 'Seaboard', bolPrefix: '', supported: false },
  { scac: 'CLAM', name: 'Crowley', shortName: 'Crowley', bolPrefix: '', supported: false },

  // Real carriers absent from the service's list altogether.
  { scac: 'UALC', name: 'Universal Africa Lines', shortName: 'UAL', bolPrefix: '', supported: false },
  { scac: 'ACLU', name: 'Atlantic Container Line', shortName: 'ACL', bolPrefix: '', supported: false },
  { scac: 'TRKU', name: 'Turkon Line', shortName: 'Turkon', bolPrefix: '', supported: false },

  // More real carriers, not tracked: with them the list runs past one page at the default page
  // size (30), so a walk of it takes several pages, as on the live service.
  { scac: 'KMTU', name: 'Korea Marine Transport Company', shortName: 'KMTC', bolPrefix: '', supported: false },
  { scac: 'SKLU', name: 'Sinokor Merchant Marine', shortName: 'Sinokor', bolPrefix: '', supported: false },
  { scac: 'ESPU', name: 'Emirates Shipping Line', shortName: 'ESL', bolPrefix: '', supported: false },
  { scac: 'ARKU', name: 'Arkas Line', shortName: 'Arkas', bolPrefix: '', supported: false },
  { scac: 'REGU', name: 'Regional Container Lines', shortName: 'RCL', bolPrefix: '', supported: false },
  { scac: 'CHNJ', name: 'Swire Shipping', shortName: 'Swire', bolPrefix: '', supported: false },
  { scac: 'NYKS', name: 'Nippon Yusen Kaisha', shortName: 'NYK', bolPrefix: '', supported: false },
  { scac: 'MOLU', name: 'Mitsui O.S.K. Lines', shortName: 'MOL', bolPrefix: '', supported: false },
  { scac: 'KKLU', name: 'Kawasaki Kisen Kaisha', shortName: 'K Line', bolPrefix: '', supported: false },
  { scac: 'SMLM', name: 'SM Line', shortName: 'SM Line', bolPrefix: '', supported: false },
  { scac: 'ANRM', name: 'Alianca Navegacao e Logistica', shortName: 'Alianca', bolPrefix: '', supported: false },
  { scac: 'CULU', name: 'China United Lines', shortName: 'CU Lines', bolPrefix: '', supported: false },
];
