// Push on this phone (static/notifications/push.js) and the service worker's push
// handlers (static/frames/sw.js), against fakes: what the page offers on which browser,
// what it posts, and what the worker shows and opens.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import vm from "node:vm";
import { parseHTML } from "linkedom";

import { init, support, urlBase64ToBytes } from "../../static/notifications/push.js";

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Mobile/15E148 Safari/604.1";
const ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36";

function env({ ua = ANDROID, push = true, permission = "default", standalone = false, subscription = null } = {}) {
  const posted = [];
  const pushManager = {
    getSubscription: async () => subscription,
    subscribe: async (options) => {
      subscription = {
        endpoint: "https://push.example/new",
        options,
        toJSON: () => ({ endpoint: "https://push.example/new", keys: { p256dh: "P", auth: "A" } }),
        unsubscribe: async () => true,
      };
      return subscription;
    },
  };
  const registration = { pushManager };
  const e = {
    navigator: {
      userAgent: ua,
      standalone,
      ...(push ? { serviceWorker: { register: async () => registration, ready: Promise.resolve(registration) } } : {}),
    },
    matchMedia: () => ({ matches: standalone }),
    location: { reload: () => { e.reloaded = true; } },
    fetch: async (url, options) => { posted.push({ url, ...options }); return { ok: true, status: 201, json: async () => ({}) }; },
    posted,
  };
  if (push) {
    e.PushManager = function PushManager() {};
    e.Notification = { permission, requestPermission: async () => "granted" };
  }
  return e;
}

const PAGE = `<section id="push" data-push-api="/api/notifications/push/" data-push-sw="/sw.js" data-push-key="BAAB" data-csrf="tok">
  <p data-push-status></p><p data-push-ios hidden></p>
  <button data-push-on hidden></button><button data-push-off hidden></button>
  <ul><li data-endpoint="https://push.example/known"></li></ul></section>`;

test("urlBase64ToBytes reads the server's key", () => {
  assert.deepEqual([...urlBase64ToBytes("BAAB_w")], [4, 0, 1, 255]);
});

test("what each browser can do", () => {
  assert.equal(support(env()), "ok");
  assert.equal(support(env({ ua: IPHONE, push: false })), "ios"); // Safari, not from the home screen
  assert.equal(support(env({ ua: IPHONE, standalone: true })), "ok"); // the home-screen app
  assert.equal(support(env({ push: false })), "unsupported");
  assert.equal(support(env({ permission: "denied" })), "blocked");
});

test("an iPhone outside the home screen is told to add Marker there first", async () => {
  const { document } = parseHTML(`<html><body>${PAGE}</body></html>`);
  const page = init(document, env({ ua: IPHONE, push: false }));
  await page.ready;
  assert.equal(document.querySelector("[data-push-ios]").hidden, false);
  assert.match(document.querySelector("[data-push-status]").textContent, /home screen/);
  assert.equal(document.querySelector("[data-push-on]").hidden, true);
});

test("a phone already subscribed shows Turn off", async () => {
  const { document } = parseHTML(`<html><body>${PAGE}</body></html>`);
  const page = init(document, env({ subscription: { endpoint: "https://push.example/known" } }));
  assert.equal(await page.ready, "on");
  assert.equal(document.querySelector("[data-push-off]").hidden, false);
  assert.equal(document.querySelector("[data-push-on]").hidden, true);
});

test("Turn on subscribes with the server's key and posts the subscription", async () => {
  const { document } = parseHTML(`<html><body>${PAGE}</body></html>`);
  const e = env();
  const page = init(document, e);
  assert.equal(await page.ready, "off");
  await page.turnOn();
  const [post] = e.posted;
  assert.equal(post.url, "/api/notifications/push/");
  assert.equal(post.method, "POST");
  assert.equal(post.headers["X-CSRFToken"], "tok");
  assert.deepEqual(JSON.parse(post.body), { endpoint: "https://push.example/new", keys: { p256dh: "P", auth: "A" }, user_agent: ANDROID });
  assert.equal(e.reloaded, true);
});

function worker(clients = [], fetch = () => {}) {
  const listeners = {};
  const shown = [];
  const opened = [];
  const self = {
    MARKER_SW: {
      version: "t", precache: [], static_url: "/static/", pages: [], api: [], push_icon: "/static/i.png",
      push_api: "/api/notifications/push/", session_api: "/api/pad/session/",
    },
    navigator: { userAgent: "UA" },
    location: { origin: "https://marker.example" },
    addEventListener: (type, fn) => { listeners[type] = fn; },
    registration: { showNotification: async (title, options) => shown.push({ title, options }) },
    clients: {
      matchAll: async () => clients,
      openWindow: async (url) => opened.push(url),
    },
  };
  vm.runInNewContext(readFileSync(new URL("../../static/frames/sw.js", import.meta.url), "utf8"), { self, URL, caches: {}, fetch });
  const fire = async (type, event) => {
    let waited;
    listeners[type]({ ...event, waitUntil: (p) => { waited = p; } });
    await waited;
  };
  return { fire, shown, opened };
}

test("the worker shows a push message with its tag, page and icon", async () => {
  const sw = worker();
  const data = { json: () => ({ title: "Result: A 5–4 B", body: "It counts.", url: "https://marker.example/matches/3/", tag: "match_result:result:3" }) };
  await sw.fire("push", { data });
  assert.deepEqual(JSON.parse(JSON.stringify(sw.shown)), [{
    title: "Result: A 5–4 B",
    options: { body: "It counts.", tag: "match_result:result:3", data: { url: "https://marker.example/matches/3/" }, icon: "/static/i.png", badge: "/static/i.png" },
  }]);
});

test("a tap focuses an open Marker tab and takes it to the page, else opens one", async () => {
  const note = { data: { url: "https://marker.example/matches/3/" }, close: () => {} };
  const sw = worker();
  await sw.fire("notificationclick", { notification: note });
  assert.deepEqual(sw.opened, ["https://marker.example/matches/3/"]);

  const went = [];
  const tab = { url: "https://marker.example/tonight/", focus: async () => tab, navigate: async (url) => went.push(url) };
  const withTab = worker([tab]);
  await withTab.fire("notificationclick", { notification: note });
  assert.deepEqual(went, ["https://marker.example/matches/3/"]);
  assert.deepEqual(withTab.opened, []);
});

test("a renewed subscription is posted again with the session's CSRF token", async () => {
  const calls = [];
  const fetch = async (url, options = {}) => {
    calls.push({ url, ...options });
    return { json: async () => ({ authenticated: true, csrf_token: "fresh" }) };
  };
  const sw = worker([], fetch);
  const newSubscription = { toJSON: () => ({ endpoint: "https://push.example/renewed", keys: { p256dh: "P", auth: "A" } }) };
  await sw.fire("pushsubscriptionchange", { newSubscription });
  const post = calls.find((c) => c.method === "POST");
  assert.equal(post.url, "/api/notifications/push/");
  assert.equal(post.headers["X-CSRFToken"], "fresh");
  assert.deepEqual(JSON.parse(post.body), { endpoint: "https://push.example/renewed", keys: { p256dh: "P", auth: "A" }, user_agent: "UA" });
});
