/**
 * Container ships the simulator puts shipments on, named the way each carrier names its fleet.
 * The best-known ships carry their own IMO numbers; the rest carry made-up ones that still pass
 * the IMO check digit, so nothing here should be looked up in a real ship register. MMSIs start
 * with the maritime identification digits of a flag the carrier commonly uses.
 */

export interface VesselData {
  name: string;
  /** 7-digit IMO ship number, check digit included. */
  imo: string;
  /** 9-digit AIS identity. */
  mmsi: string;
  /** SCAC of the carrier operating the ship; present in `shippingLines`. */
  carrierScac: string;
}

export const vessels: readonly VesselData[] = [
  { name: 'MSC GULSUN', imo: '9839430', mmsi: '255927476', carrierScac: 'MSCU' },
  { name: 'MSC OSCAR', imo: '9703291', mmsi: '355638157', carrierScac: 'MSCU' },
  { name: 'MSC ZOE', imo: '9703318', mmsi: '355598325', carrierScac: 'MSCU' },
  { name: 'MSC ANNA', imo: '9755933', mmsi: '636203875', carrierScac: 'MSCU' },
  { name: 'MSC IRINA', imo: '9930038', mmsi: '636977522', carrierScac: 'MSCU' },
  { name: 'MSC LORETO', imo: '9497854', mmsi: '636575347', carrierScac: 'MSCU' },
  { name: 'MSC TESSA', imo: '9717280', mmsi: '636097816', carrierScac: 'MSCU' },
  { name: 'MSC ISABELLA', imo: '9510436', mmsi: '255428159', carrierScac: 'MSCU' },
  { name: 'MSC AMBRA', imo: '9416123', mmsi: '352254502', carrierScac: 'MSCU' },

  { name: 'MAERSK MC-KINNEY MOLLER', imo: '9619907', mmsi: '219231335', carrierScac: 'MAEU' },
  { name: 'MADRID MAERSK', imo: '9778791', mmsi: '219843600', carrierScac: 'MAEU' },
  { name: 'EMMA MAERSK', imo: '9321483', mmsi: '220924177', carrierScac: 'MAEU' },
  { name: 'MAERSK ESSEN', imo: '9456783', mmsi: '219889027', carrierScac: 'MAEU' },
  { name: 'MAERSK EDMONTON', imo: '9659426', mmsi: '219833608', carrierScac: 'MAEU' },
  { name: 'MAERSK HANGZHOU', imo: '9743734', mmsi: '563830675', carrierScac: 'MAEU' },
  { name: 'LAURA MAERSK', imo: '9974072', mmsi: '219816488', carrierScac: 'MAEU' },
  { name: 'ANE MAERSK', imo: '9445447', mmsi: '219333763', carrierScac: 'MAEU' },

  { name: 'EVER GIVEN', imo: '9811000', mmsi: '353366540', carrierScac: 'EGLV' },
  { name: 'EVER FORWARD', imo: '9850551', mmsi: '563744038', carrierScac: 'EGLV' },
  { name: 'EVER ACE', imo: '9893890', mmsi: '353049472', carrierScac: 'EGLV' },
  { name: 'EVER ALOT', imo: '9893955', mmsi: '563165678', carrierScac: 'EGLV' },
  { name: 'EVER LUNAR', imo: '9596698', mmsi: '235054342', carrierScac: 'EGLV' },
  { name: 'EVER LOVELY', imo: '9793648', mmsi: '235478689', carrierScac: 'EGLV' },

  { name: 'CMA CGM JACQUES SAADE', imo: '9839131', mmsi: '228188171', carrierScac: 'CMDU' },
  { name: 'CMA CGM MARCO POLO', imo: '9454436', mmsi: '229794609', carrierScac: 'CMDU' },
  { name: 'CMA CGM ANTOINE DE SAINT EXUPERY', imo: '9776418', mmsi: '228042470', carrierScac: 'CMDU' },
  { name: 'CMA CGM BENJAMIN FRANKLIN', imo: '9430844', mmsi: '228247546', carrierScac: 'CMDU' },
  { name: 'CMA CGM TROCADERO', imo: '9544906', mmsi: '229213395', carrierScac: 'CMDU' },
  { name: 'CMA CGM CHAMPS ELYSEES', imo: '9949675', mmsi: '228197882', carrierScac: 'CMDU' },

  { name: 'COSCO SHIPPING UNIVERSE', imo: '9795610', mmsi: '477446392', carrierScac: 'COSU' },
  { name: 'COSCO SHIPPING TAURUS', imo: '9795646', mmsi: '477547539', carrierScac: 'COSU' },
  { name: 'COSCO SHIPPING ARIES', imo: '9500405', mmsi: '477449681', carrierScac: 'COSU' },
  { name: 'COSCO SHIPPING GALAXY', imo: '9493482', mmsi: '477177996', carrierScac: 'COSU' },
  { name: 'COSCO SHIPPING PLANET', imo: '9638680', mmsi: '477383232', carrierScac: 'COSU' },

  { name: 'ONE APUS', imo: '9806079', mmsi: '563669689', carrierScac: 'ONEY' },
  { name: 'ONE STORK', imo: '9741372', mmsi: '563596957', carrierScac: 'ONEY' },
  { name: 'ONE INNOVATION', imo: '9658977', mmsi: '563942933', carrierScac: 'ONEY' },
  { name: 'ONE MINATO', imo: '9558622', mmsi: '431872521', carrierScac: 'ONEY' },
  { name: 'ONE HARMONY', imo: '9601558', mmsi: '563492398', carrierScac: 'ONEY' },

  { name: 'HMM ALGECIRAS', imo: '9863297', mmsi: '440499007', carrierScac: 'HDMU' },
  { name: 'HMM COPENHAGEN', imo: '9863314', mmsi: '440887054', carrierScac: 'HDMU' },
  { name: 'HMM OSLO', imo: '9504085', mmsi: '441041623', carrierScac: 'HDMU' },
  { name: 'HMM ST PETERSBURG', imo: '9433389', mmsi: '441923286', carrierScac: 'HDMU' },

  { name: 'OOCL HONG KONG', imo: '9776171', mmsi: '477173695', carrierScac: 'OOLU' },
  { name: 'OOCL GERMANY', imo: '9776183', mmsi: '477100038', carrierScac: 'OOLU' },
  { name: 'OOCL UNITED KINGDOM', imo: '9776195', mmsi: '477545032', carrierScac: 'OOLU' },
  { name: 'OOCL SPAIN', imo: '9433884', mmsi: '477608868', carrierScac: 'OOLU' },

  { name: 'YM WELLNESS', imo: '9464182', mmsi: '416050793', carrierScac: 'YMLU' },
  { name: 'YM WARRANTY', imo: '9745689', mmsi: '636442969', carrierScac: 'YMLU' },
  { name: 'YM TRIUMPH', imo: '9844423', mmsi: '416017146', carrierScac: 'YMLU' },
  { name: 'YM TOTALITY', imo: '9725328', mmsi: '636859707', carrierScac: 'YMLU' },

  { name: 'UMM SALAL', imo: '9525857', mmsi: '218233963', carrierScac: 'HLCU' },
  { name: 'AL ZUBARA', imo: '9708784', mmsi: '218089036', carrierScac: 'HLCU' },
  { name: 'BERLIN EXPRESS', imo: '9309368', mmsi: '211531229', carrierScac: 'HLCU' },
  { name: 'HAMBURG EXPRESS', imo: '9603219', mmsi: '211736158', carrierScac: 'HLCU' },
  { name: 'TOKYO EXPRESS', imo: '9835783', mmsi: '218838125', carrierScac: 'HLCU' },
  { name: 'SEOUL EXPRESS', imo: '9579547', mmsi: '215207549', carrierScac: 'HLCU' },

  { name: 'ZIM KINGSTON', imo: '9608489', mmsi: '636581042', carrierScac: 'ZIMU' },
  { name: 'ZIM SAMMY OFER', imo: '9798521', mmsi: '538292289', carrierScac: 'ZIMU' },
  { name: 'ZIM MOUNT EVEREST', imo: '9613161', mmsi: '538129461', carrierScac: 'ZIMU' },
  { name: 'ZIM ROTTERDAM', imo: '9722778', mmsi: '636164360', carrierScac: 'ZIMU' },

  { name: 'APL CHANGI', imo: '9516715', mmsi: '563582898', carrierScac: 'APLU' },
  { name: 'APL RAFFLES', imo: '9839686', mmsi: '566131414', carrierScac: 'APLU' },
  { name: 'APL VANDA', imo: '9501980', mmsi: '563446806', carrierScac: 'APLU' },

  { name: 'ANL WANGARATTA', imo: '9955337', mmsi: '256027827', carrierScac: 'ANNU' },
  { name: 'ANL WINDARRA', imo: '9404883', mmsi: '215187564', carrierScac: 'ANNU' },

  { name: 'CAP SAN NICOLAS', imo: '9348003', mmsi: '255847447', carrierScac: 'SUDU' },
  { name: 'CAP SAN LORENZO', imo: '9475557', mmsi: '255042985', carrierScac: 'SUDU' },
  { name: 'CAP SAN MARCO', imo: '9538567', mmsi: '211083199', carrierScac: 'SUDU' },

  { name: 'KOTA PUSAKA', imo: '9629146', mmsi: '563212256', carrierScac: 'PCIU' },
  { name: 'KOTA PERWIRA', imo: '9353620', mmsi: '564965921', carrierScac: 'PCIU' },
  { name: 'KOTA RAJIN', imo: '9477696', mmsi: '563565240', carrierScac: 'PCIU' },

  { name: 'SAFMARINE NOKWANDA', imo: '9942483', mmsi: '219449868', carrierScac: 'SAFM' },
  { name: 'SAFMARINE MAFADI', imo: '9957725', mmsi: '563061299', carrierScac: 'SAFM' },

  { name: 'SEALAND MICHIGAN', imo: '9557678', mmsi: '338484370', carrierScac: 'SEAL' },
  { name: 'SEALAND ILLINOIS', imo: '9873876', mmsi: '338617947', carrierScac: 'SEAL' },

  { name: 'DANIEL K. INOUYE', imo: '9396464', mmsi: '367157987', carrierScac: 'MATS' },
  { name: 'KAIMANA HILA', imo: '9323003', mmsi: '367874110', carrierScac: 'MATS' },
  { name: 'MATSONIA', imo: '9305324', mmsi: '369924831', carrierScac: 'MATS' },

  { name: 'WAN HAI 352', imo: '9790309', mmsi: '563725859', carrierScac: 'WHLC' },
  { name: 'WAN HAI 611', imo: '9652480', mmsi: '416495856', carrierScac: 'WHLC' },
  { name: 'WAN HAI A12', imo: '9641065', mmsi: '563208236', carrierScac: 'WHLC' },

  { name: 'SEABOARD PRIDE', imo: '9522594', mmsi: '636368045', carrierScac: 'SMLU' },
  { name: 'SEABOARD GEMINI', imo: '9454137', mmsi: '636724776', carrierScac: 'SMLU' },

  { name: 'TAINO', imo: '9979149', mmsi: '367638960', carrierScac: 'CLAM' },
  { name: 'EL COQUI', imo: '9956783', mmsi: '367283251', carrierScac: 'CLAM' },
];
