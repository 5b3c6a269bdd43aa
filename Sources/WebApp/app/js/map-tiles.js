// The tiles under a map, from the server's tile source (/app/config.json). Their credit is shown once a tile has
// drawn: a map whose tiles never load (no network, a source that refuses) credits no one, and its container keeps
// the class `no-tiles` for a plain background.

/// Adds the server's tiles, if it names a source, to `map` in `container`; `{L, config}` as loaded by the caller.
export function addTiles(L, map, container, config) {
  container.classList.add("no-tiles");
  if (!config.mapTiles) return;
  const layer = L.tileLayer(config.mapTiles, { maxZoom: 19 });
  layer.once("tileload", () => {
    container.classList.remove("no-tiles");
    if (config.mapAttribution) L.control.attribution().addAttribution(config.mapAttribution).addTo(map);
  });
  layer.addTo(map);
}
