/* Marker service worker: keeps the referee pad working with no network.
 *
 * Served by a view at /sw.js (scope "/"), which prepends `self.MARKER_SW` = {version,
 * precache, static_url, pages, api, ...}: `pages` and `api` are the URL shapes it caches,
 * regular expressions built from Django's URL patterns. It never touches POSTs: events travel through the pad's own
 * IndexedDB outbox, so nothing depends on Background Sync.
 *   - pad and live pages (navigations): network first, the cached copy when offline;
 *   - static files: cache first (their names change with their content in production);
 *   - the pad's API reads: network first, the cached copy when offline (requests made
 *     with cache: "no-store", such as the pad's polling, go straight to the network);
 *   - the offline engine: Pyodide's files (cache "marker-pyodide-<its version>") and the
 *     engine zip (its URL names its content hash; cache "marker-engine", only the current
 *     one kept): cache first. The pad asks for them to be kept once its engine has loaded.
 */
"use strict";

const CONFIG = self.MARKER_SW || { version: "dev", precache: [], static_url: "/static/", pages: [], api: [] };
const SHELL = "marker-shell-" + CONFIG.version;
const PAGES = "marker-pages-v1";
const PYODIDE = "marker-pyodide-" + (CONFIG.pyodide_version || "none");
const ENGINE = "marker-engine";
const API = "marker-api-v1";
const PAGE_PATHS = (CONFIG.pages || []).map((shape) => new RegExp(shape));
const API_PATHS = (CONFIG.api || []).map((shape) => new RegExp(shape));

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(CONFIG.precache)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) =>
        (k.startsWith("marker-shell-") && k !== SHELL) || (k.startsWith("marker-pyodide-") && k !== PYODIDE)).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

// The pad asks for the page it is on to be kept (the first visit is not yet controlled).
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "cache-page" && typeof data.url === "string") {
    const url = new URL(data.url, self.location.origin);
    if (url.origin === self.location.origin && PAGE_PATHS.some((re) => re.test(url.pathname))) {
      event.waitUntil(caches.open(PAGES).then((cache) => cache.add(url.pathname + url.search)).catch(() => {}));
    }
  } else if (data.type === "cache-engine" && Array.isArray(data.urls)) {
    event.waitUntil(Promise.all(data.urls.map((u) => {
      const path = new URL(u, self.location.origin).pathname;
      const name = engineCache(path);
      if (!name) return null;
      return caches.open(name).then(async (cache) => {
        if (!(await cache.match(path))) await cache.add(path);
        if (name === ENGINE) await keepOnly(cache, path);
      }).catch(() => {});
    })));
  }
});

// Which cache keeps an offline-engine file (null: not one).
function engineCache(path) {
  if (CONFIG.pyodide_prefix && path.startsWith(CONFIG.pyodide_prefix)) return PYODIDE;
  if (CONFIG.engine_prefix && path.startsWith(CONFIG.engine_prefix)) return ENGINE;
  return null;
}

// Only the current engine zip is kept (an old one belongs to an old page).
async function keepOnly(cache, path) {
  const keep = CONFIG.engine_zip ? [path, CONFIG.engine_zip] : [path];
  for (const request of await cache.keys()) {
    if (!keep.includes(new URL(request.url).pathname)) await cache.delete(request);
  }
}

async function engineFile(request, name) {
  const cache = await caches.open(name);
  const path = new URL(request.url).pathname;
  const cached = await cache.match(path);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.status === 200) {
    await cache.put(path, response.clone());
    if (name === ENGINE) await keepOnly(cache, path);
  }
  return response;
}

async function networkFirst(request, cacheName, key) {
  const cache = await caches.open(cacheName);
  try {
    const response = await fetch(request);
    if (response.ok && response.status === 200) cache.put(key || request, response.clone());
    return response;
  } catch (err) {
    const cached = await cache.match(key || request, { ignoreVary: true });
    if (cached) return cached;
    throw err;
  }
}

async function cacheFirst(request) {
  const cached = await caches.match(request, { ignoreSearch: false });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) (await caches.open(SHELL)).put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const engine = engineCache(url.pathname);
  if (engine) {
    event.respondWith(engineFile(request, engine));
  } else if (request.mode === "navigate" && PAGE_PATHS.some((re) => re.test(url.pathname))) {
    event.respondWith(networkFirst(request, PAGES, url.pathname + url.search));
  } else if (url.pathname.startsWith(CONFIG.static_url)) {
    event.respondWith(cacheFirst(request));
  } else if (API_PATHS.some((re) => re.test(url.pathname)) && request.cache !== "no-store"
             && !request.headers.has("If-None-Match")) {
    event.respondWith(networkFirst(request, API));
  }
});

/* ---- Web Push (notifications/delivery.py sends; docs/notifications.md) ----
 * The payload is JSON {title, body, url, tag}. A message with the same tag replaces the
 * last one (a result confirmed after it was to be confirmed). */

function pushMessage(data) {
  let message;
  try {
    message = data ? data.json() : {};
  } catch {
    message = { body: data ? data.text() : "" };
  }
  return {
    title: message.title || "Marker",
    options: {
      body: message.body || "",
      tag: message.tag || undefined,
      data: { url: message.url || "/" },
      icon: CONFIG.push_icon || undefined,
      badge: CONFIG.push_icon || undefined,
    },
  };
}

self.addEventListener("push", (event) => {
  const { title, options } = pushMessage(event.data);
  event.waitUntil(self.registration.showNotification(title, options));
});

// A tap opens the message's page: an open tab of Marker is focused (and sent there),
// else a new window.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  event.waitUntil(openPage(target));
});

async function openPage(target) {
  const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const same = open.find((c) => c.url === target.href) ||
    open.find((c) => new URL(c.url).origin === self.location.origin);
  if (same) {
    const focused = await same.focus();
    if (same.url !== target.href && target.origin === self.location.origin && focused.navigate) {
      return focused.navigate(target.href).catch(() => focused);
    }
    return focused;
  }
  return self.clients.openWindow(target.href);
}

// The push service renewed (or dropped) this browser's subscription: subscribe again
// with the server's key and tell the server (the old endpoint is dropped when it
// answers 410).
self.addEventListener("pushsubscriptionchange", (event) => {
  event.waitUntil(resubscribe(event));
});

async function resubscribe(event) {
  if (!CONFIG.push_api) return;
  let subscription = event.newSubscription;
  if (!subscription) {
    const state = await (await fetch(CONFIG.push_api, { credentials: "same-origin", cache: "no-store" })).json();
    if (!state.public_key) return;
    subscription = await self.registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: urlBase64ToBytes(state.public_key),
    });
  }
  const session = await (await fetch(CONFIG.session_api, { credentials: "same-origin", cache: "no-store" })).json();
  if (!session.authenticated) return;
  const body = subscription.toJSON();
  await fetch(CONFIG.push_api, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": session.csrf_token },
    body: JSON.stringify({ endpoint: body.endpoint, keys: body.keys, user_agent: self.navigator.userAgent }),
  });
}

function urlBase64ToBytes(text) {
  const padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}
