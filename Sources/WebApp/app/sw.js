// The service worker: keeps the app's files so it opens offline, and shows Web Push notifications.
const version = "{{version}}";
const files = {{files}};
const cacheName = `muster-${version}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(cacheName).then((cache) => cache.addAll(["/", ...files])).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name !== cacheName).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

// The app's own files come from the cache first; the shell and everything else from the network, the cache when
// offline. The API is never cached: the app keeps what it needs itself.
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  if (url.pathname.startsWith(`/app/${version}/`)) {
    event.respondWith(caches.match(event.request).then((hit) => hit ?? fetch(event.request)));
    return;
  }
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok && (url.pathname === "/" || url.pathname.startsWith("/vendor/"))) {
          const copy = response.clone();
          caches.open(cacheName).then((cache) => cache.put(event.request, copy));
        }
        return response;
      })
      .catch(() => caches.match(event.request, { ignoreSearch: true }).then((hit) => hit ?? Response.error())),
  );
});
