// Tranque's service worker (its VERSION and SHELL are written above this by the server,
// tranque/server/http/pwa.py). It keeps the client's files of this deploy in one cache, so
// the page starts from them, and shows an offline page when the network is down. It never
// answers for /api or /ws: what the game says always comes from the server.

const CACHE = `tranque-${VERSION}`;
const OFFLINE_PAGE = "/static/offline.html";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

// A new deploy's worker takes over at once and drops the caches of the ones before it.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keys) => Promise.all(keys.filter((key) => key.startsWith("tranque-") && key !== CACHE).map((key) => caches.delete(key)))),
  );
});

function keptHere(url) {
  return url.pathname.startsWith("/static/") || url.pathname.startsWith("/avatars/");
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname === "/ws" || url.pathname.startsWith("/ws/")) return; // the network's
  if (request.mode === "navigate") {
    // The page always comes from the server (it names this deploy's files); without network,
    // the offline page says why nothing more can happen.
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE_PAGE)));
    return;
  }
  if (keptHere(url)) event.respondWith(cachedFirst(request));
});

// The client's files: from this deploy's cache when kept there, else from the network.
async function cachedFirst(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  return kept || fetch(request);
}

// A notification clicked (phones show them through the worker): the tab comes up at its page.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const hash = (event.notification.data && event.notification.data.hash) || "#/";
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        open.postMessage({ type: "open", hash });
        return open.focus();
      }
      return self.clients.openWindow(`/${hash}`);
    }),
  );
});
