// The map field: markers (HSV hue colours), framed as the seed says, and — when the field has an id — a point
// the person sets by clicking the map or typing its latitude and longitude (the keyboard's way in). Leaflet
// (Debian's libjs-leaflet, served under /vendor/leaflet/) draws it when the server has it, over tiles when the
// server names a tile source (/app/config.json); without Leaflet an SVG of the markers stands in.

import { serverConfiguration } from "../config.js";
import { addTiles } from "../map-tiles.js";
import { h } from "../dom.js";
import { t } from "../texts.js";
import { domId, fieldBox, fieldLabel } from "./shell.js";
import { acceptsNull, initialValue, mapPoint, number, property, string } from "./rules.js";

/// The seed's marker colour names (MarkerColor.names) as hues.
const hueNames = {
  red: 0, orange: 30, yellow: 60, green: 120, cyan: 180, azure: 210, blue: 240, violet: 270, magenta: 300, rose: 330,
};

function hueOf(colour) {
  if (Number.isInteger(colour) && colour >= 0 && colour <= 359) return colour;
  if (typeof colour === "string" && colour.toLowerCase() in hueNames) return hueNames[colour.toLowerCase()];
  return 0;
}

const fill = (hue) => `hsl(${hue} 85% 45%)`;

let leafletLoading = null;

/// Leaflet's global `L`, loaded once; null when the server has no Leaflet.
function loadLeaflet() {
  leafletLoading ??= new Promise((resolve) => {
    if (window.L) {
      resolve(window.L);
      return;
    }
    document.head.append(h("link", { rel: "stylesheet", href: "/vendor/leaflet/leaflet.css" }));
    const script = h("script", { src: "/vendor/leaflet/leaflet.js" });
    script.addEventListener("load", () => resolve(window.L ?? null));
    script.addEventListener("error", () => resolve(null));
    document.head.append(script);
  });
  return leafletLoading;
}

function markersOf(field) {
  const raw = Array.isArray(field.markers) ? field.markers : [];
  return raw
    .map((marker) => ({ point: mapPoint(marker), label: typeof marker?.label === "string" ? marker.label : "",
      hue: hueOf(marker?.color) }))
    .filter((marker) => marker.point);
}

export function mapField(field, index, options) {
  const picks = typeof field.id === "string";
  const markers = markersOf(field);
  const location = mapPoint(property(field, "location"));
  const preset = initialValue(field) ?? null;
  const canvas = h("div.map", { role: "region", "aria-label": string(field, "label") ?? t("formMap") });
  const latitude = h("input", { id: domId(index, "latitude"), type: "number", step: "any", min: "-90", max: "90",
    inputmode: "decimal", value: preset ? String(preset.latitude) : "" });
  const longitude = h("input", { id: domId(index, "longitude"), type: "number", step: "any", min: "-180",
    max: "180", inputmode: "decimal", value: preset ? String(preset.longitude) : "" });
  const listeners = [];
  const current = () => {
    if (latitude.value === "" && longitude.value === "") return null;
    return { longitude: longitude.valueAsNumber, latitude: latitude.valueAsNumber };
  };
  const setPoint = (point) => {
    latitude.value = point ? String(Number(point.latitude.toFixed(6))) : "";
    longitude.value = point ? String(Number(point.longitude.toFixed(6))) : "";
    for (const listener of listeners) listener(current());
  };
  for (const input of [latitude, longitude]) {
    input.addEventListener("input", () => listeners.forEach((listener) => listener(current())));
  }

  const drawing = { markers, location, picks, onPick: picks && !options.preview ? setPoint : null, listeners,
    current };
  Promise.all([loadLeaflet(), serverConfiguration()]).then(([L, config]) => {
    if (L) leafletMap(L, canvas, config, field, drawing);
    else svgMap(canvas, drawing);
  });

  const picker = picks
    ? h(
      "div.map-point",
      {},
      h("p.notice", {}, t("formMapHint")),
      h("div.coordinates", {},
        h("label", { for: latitude.id }, t("formLatitude")), latitude,
        h("label", { for: longitude.id }, t("formLongitude")), longitude,
        acceptsNull(field) || preset ? h("button.secondary", { type: "button", onclick: () => setPoint(null) },
          t("formClearPoint")) : null),
    )
    : null;
  const labelId = domId(index, "label");
  return {
    element: fieldBox(field, index, fieldLabel(field, labelId, "p"), canvas, picker),
    value: picks ? current : undefined,
    focus: () => latitude.focus(),
    targets: [latitude, longitude],
  };
}

/// The framing of the seed: every marker and the location in view, with 50 pixels to spare, no narrower than
/// minMapWidth metres; the location alone centres the map; nothing at all, where the person is.
function leafletMap(L, element, config, field, { markers, location, onPick, listeners, current }) {
  const map = L.map(element, { attributionControl: false, zoomSnap: 0.25 });
  addTiles(L, map, element, config);
  for (const marker of markers) {
    const dot = L.circleMarker([marker.point.latitude, marker.point.longitude], {
      radius: 9, color: "#1b1f24", weight: 2, fillColor: fill(marker.hue), fillOpacity: 0.9,
    }).addTo(map);
    // Leaflet puts a string in as HTML: the label is the payload's text, so it goes in as a text node.
    if (marker.label) {
      dot.bindTooltip(() => h("span", {}, marker.label), { permanent: true, direction: "top", offset: [0, -8] });
    }
  }
  let chosen = null;
  const show = (point) => {
    chosen?.remove();
    chosen = null;
    if (point && mapPoint(point)) {
      chosen = L.circleMarker([point.latitude, point.longitude], {
        radius: 11, color: "#1d4f7a", weight: 4, fillColor: "#ffffff", fillOpacity: 0.6,
      }).addTo(map);
    }
  };
  listeners.push(show);
  show(current());
  if (onPick) {
    map.on("click", (event) => onPick({ latitude: event.latlng.lat, longitude: L.Util.wrapNum(event.latlng.lng,
      [-180, 180], true) }));
  }
  const points = [...markers.map((marker) => marker.point), ...(location ? [location] : [])];
  const chosenPoint = mapPoint(current());
  if (points.length === 0 && chosenPoint) points.push(chosenPoint);
  if (points.length > 1) {
    map.fitBounds(points.map((point) => [point.latitude, point.longitude]), { padding: [50, 50] });
  } else if (points.length === 1) {
    map.setView([points[0].latitude, points[0].longitude], 15);
  } else {
    map.setView([20, 0], 1);
    navigator.geolocation?.getCurrentPosition(
      (position) => map.setView([position.coords.latitude, position.coords.longitude], 14),
      () => {},
      { timeout: 10_000, maximumAge: 60_000 },
    );
  }
  const minWidth = number(field, "minMapWidth");
  if (minWidth && points.length > 0) {
    const centre = map.getCenter();
    const metresPerPixelAtZoom0 = 156543.03392 * Math.cos((centre.lat * Math.PI) / 180);
    const widest = Math.log2((metresPerPixelAtZoom0 * element.clientWidth) / minWidth);
    if (Number.isFinite(widest) && map.getZoom() > widest) map.setZoom(widest);
  }
  // The map was sized before the page laid it out: measure again once it is on screen.
  new ResizeObserver(() => map.invalidateSize()).observe(element);
}

/// Without Leaflet: the markers on a plain equirectangular drawing, framed like the map, still clickable.
function svgMap(element, { markers, location, onPick, listeners, current }) {
  const width = 360;
  const height = 240;
  const pad = 24;
  const points = [...markers.map((marker) => marker.point), ...(location ? [location] : [])];
  let [west, east, south, north] = [-180, 180, -85, 85];
  if (points.length > 0) {
    west = Math.min(...points.map((point) => point.longitude));
    east = Math.max(...points.map((point) => point.longitude));
    south = Math.min(...points.map((point) => point.latitude));
    north = Math.max(...points.map((point) => point.latitude));
    const spread = Math.max(east - west, north - south, 0.005);
    [west, east, south, north] = [west - spread * 0.1, east + spread * 0.1, south - spread * 0.1, north + spread * 0.1];
  }
  const squeeze = Math.cos((((north + south) / 2) * Math.PI) / 180) || 1;
  const scale = Math.min((width - 2 * pad) / ((east - west) * squeeze || 1), (height - 2 * pad) / (north - south || 1));
  const cx = (west + east) / 2;
  const cy = (south + north) / 2;
  const x = (longitude) => width / 2 + (longitude - cx) * squeeze * scale;
  const y = (latitude) => height / 2 - (latitude - cy) * scale;
  const svgNS = "http://www.w3.org/2000/svg";
  const make = (tag, attributes) => {
    const node = document.createElementNS(svgNS, tag);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
    return node;
  };
  const svg = make("svg", { viewBox: `0 0 ${width} ${height}`, class: "map-drawing", role: "img" });
  svg.append(make("rect", { width, height, class: "map-ground" }));
  for (const marker of markers) {
    const dot = make("circle", { cx: x(marker.point.longitude), cy: y(marker.point.latitude), r: 7, class: "marker" });
    dot.style.fill = fill(marker.hue);
    svg.append(dot);
    if (marker.label) {
      const label = make("text", { x: x(marker.point.longitude), y: y(marker.point.latitude) - 11, class: "marker-label" });
      label.textContent = marker.label;
      svg.append(label);
    }
  }
  const chosen = make("circle", { r: 9, class: "chosen", visibility: "hidden" });
  svg.append(chosen);
  const show = (point) => {
    const valid = mapPoint(point);
    chosen.setAttribute("visibility", valid ? "visible" : "hidden");
    if (valid) {
      chosen.setAttribute("cx", String(x(valid.longitude)));
      chosen.setAttribute("cy", String(y(valid.latitude)));
    }
  };
  listeners.push(show);
  show(current());
  if (onPick) {
    svg.addEventListener("click", (event) => {
      const box = svg.getBoundingClientRect();
      const px = ((event.clientX - box.left) * width) / box.width;
      const py = ((event.clientY - box.top) * height) / box.height;
      const longitude = cx + (px - width / 2) / (squeeze * scale);
      const latitude = cy - (py - height / 2) / scale;
      onPick({ longitude: Math.max(-180, Math.min(180, longitude)), latitude: Math.max(-90, Math.min(90, latitude)) });
    });
  }
  element.replaceChildren(svg);
}
