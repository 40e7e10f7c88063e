/** The sandbox plans last free days with the same zone arithmetic as the app derives them. */
export { localMidnightAfter, zoneOffsetMs } from '../shared/zoned-time';
