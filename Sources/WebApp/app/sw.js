// The service worker: keeps the app's files so it opens offline, and shows Web Push notifications.
const version = "{{version}}";
const files = {{files}};
const cacheName = `muster-${version}`;
/// The page and what it links at fixed addresses: fetched anew when online, from the cache offline.
const shell = ["/", "/manifest.webmanifest", "/icon.svg"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(cacheName).then((cache) => cache.addAll([...shell, ...files])).then(() => self.skipWaiting()),
  );
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
        if (response.ok && (shell.includes(url.pathname) || url.pathname.startsWith("/vendor/"))) {
          const copy = response.clone();
          caches.open(cacheName).then((cache) => cache.put(event.request, copy));
        }
        return response;
      })
      .catch(() => caches.match(event.request, { ignoreSearch: true }).then((hit) => hit ?? Response.error())),
  );
});

// A push from the server (PushProviders' Web Push plaintext): `{"title", "body", "muster": notice}`, the notice's
// `kind` "message" with the `messageId` (and, in a direct push, the whole `message`), "withdrawn" (that message was
// withdrawn by its sender), "areaNotice" (an area notification with its `noticeId`), "locationRequest" or "test".
// A message's notification is tagged with its id, so its withdrawal takes its place quietly: closing it alone would
// leave the push without a notification, which the browser answers with one of its own.
self.addEventListener("push", (event) => {
  let content = {};
  try {
    content = event.data?.json() ?? {};
  } catch {
    content = { body: event.data?.text() ?? "" };
  }
  const notice = content.muster ?? {};
  const messageId = notice.messageId ?? notice.message?.messageId ?? null;
  const title = content.title ?? notice.title ?? notice.message?.title ?? "Muster";
  const body = content.body ?? notice.body ?? notice.message?.body ?? "";
  const withdrawn = notice.kind === "withdrawn";
  event.waitUntil(
    self.registration.showNotification(title, {
      body,
      icon: "/icon.svg",
      tag: messageId ?? notice.noticeId ?? undefined,
      silent: withdrawn,
      data: { messageId: withdrawn ? null : messageId, kind: notice.kind ?? "message" },
    }),
  );
});

// A notification clicked: the app's window shows the message (focused if open, else opened), or the inbox for a
// withdrawn one.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const messageId = event.notification.data?.messageId;
  const hash = messageId ? `#/messages/${messageId}` : "#/inbox";
  const target = new URL(`/${hash}`, self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (!open) return self.clients.openWindow(target);
      // navigate() works for a window this worker controls; another one is opened anew.
      return open.focus().then(() => open.navigate(target)).catch(() => self.clients.openWindow(target));
    }),
  );
});
