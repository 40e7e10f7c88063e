// The bundled coastline (Natural Earth 1:110m land, from world-atlas): imported as JSON by Vite.
declare module 'world-atlas/land-110m.json' {
  import type { Topology, GeometryCollection } from 'topojson-specification';
  const land: Topology<{ land: GeometryCollection }>;
  export default land;
}
