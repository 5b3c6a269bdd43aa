// Maps with Debian's Leaflet, which the server serves under /vendor/leaflet/ (never copied into the app). Tiles
// come from /app/config.json (map-tiles.js); without them the map still draws its circles and markers on a plain
// background.

import { serverConfiguration } from "../config.js";
import { addTiles } from "../map-tiles.js";

let leaflet = null;

/// Leaflet's ES module and its stylesheet, loaded once.
export async function loadLeaflet() {
  if (!leaflet) {
    if (!document.querySelector('link[data-leaflet]')) {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = "/vendor/leaflet/leaflet.css";
      link.dataset.leaflet = "";
      document.head.append(link);
    }
    leaflet = import("/vendor/leaflet/leaflet.esm.js").catch((error) => {
      leaflet = null;
      throw error;
    });
  }
  return leaflet;
}

/// A Leaflet map in `container` with the server's tiles, if any; `{L, map}`.
export async function createMap(container, { label }) {
  const [L, config] = await Promise.all([loadLeaflet(), serverConfiguration()]);
  container.setAttribute("role", "region");
  container.setAttribute("aria-label", label);
  const map = L.map(container, { zoomControl: true, attributionControl: false }).setView([48.8566, 2.3522], 12);
  addTiles(L, map, container, config);
  return { L, map };
}
