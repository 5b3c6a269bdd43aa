// What the server tells the app (/app/config.json): where map tiles come from, and how people sign in when an
// OpenID Connect issuer vouches for them. Loaded once; `{}` when the server cannot be reached.

let loading = null;

/// `{mapTiles, mapAttribution, singleSignOn?}`; `mapTiles` null or "" when the server names no tiles.
export function serverConfiguration() {
  loading ??= fetch("/app/config.json")
    .then((response) => (response.ok ? response.json() : {}))
    .catch(() => ({}));
  return loading;
}
