/* Push on this phone (the choices page, templates/notifications/_push.html): turn Web
 * Push on or off for this browser. CSP-clean (a static module, no inline code).
 *
 * On: register the site's service worker (/sw.js, scope "/", the one the pad uses), ask
 * the push service for a subscription signed to the server's VAPID key, and POST it to
 * the push API; Off: unsubscribe and DELETE it. iPhones and iPads offer push only to a
 * site added to the home screen, which is what the page then says. */

export function urlBase64ToBytes(text) {
  const padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

/* What this browser can do: "ok", "ios" (push only from the home screen), "unsupported"
 * or "blocked" (the person refused notifications for this site). */
export function support(env) {
  const nav = env.navigator || {};
  const ios = /iPhone|iPad|iPod/.test(nav.userAgent || "") ||
    (nav.platform === "MacIntel" && nav.maxTouchPoints > 1);
  const standalone = nav.standalone === true ||
    Boolean(env.matchMedia && env.matchMedia("(display-mode: standalone)").matches);
  if (!("serviceWorker" in nav) || !("PushManager" in env) || !("Notification" in env)) {
    return ios && !standalone ? "ios" : "unsupported";
  }
  if (env.Notification.permission === "denied") return "blocked";
  return "ok";
}

const TEXT = {
  on: "Push is on for this phone.",
  off: "Push is off for this phone.",
  working: "Asking the browser…",
  ios: "Add Marker to your home screen to receive push messages on this iPhone or iPad.",
  unsupported: "This browser cannot receive push messages; they come by email instead.",
  blocked: "Notifications are blocked for this site: allow them in the browser's site settings, then reload.",
  refused: "Push stays off: the browser was not allowed to show notifications.",
  failed: "Push could not be turned on: ",
};

export function init(doc, env) {
  const box = doc.getElementById("push");
  if (!box || !box.dataset.pushApi) return null;
  const status = box.querySelector("[data-push-status]");
  const onButton = box.querySelector("[data-push-on]");
  const offButton = box.querySelector("[data-push-off]");
  const api = box.dataset.pushApi;
  const say = (text) => { status.textContent = text; };
  const show = (on) => { onButton.hidden = on; offButton.hidden = !on; };

  const send = (method, body) => env.fetch(api, {
    method,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": box.dataset.csrf },
    body: JSON.stringify(body),
  }).then(async (response) => {
    if (!response.ok && response.status !== 404) {
      const answer = await response.json().catch(() => ({}));
      throw new Error(answer.message || "the server answered " + response.status);
    }
    return response;
  });

  const registration = () => env.navigator.serviceWorker
    .register(box.dataset.pushSw, { scope: "/" })
    .then(() => env.navigator.serviceWorker.ready);

  async function refresh() {
    const can = support(env);
    if (can !== "ok") {
      say(TEXT[can]);
      box.querySelector("[data-push-ios]").hidden = can !== "ios";
      onButton.hidden = offButton.hidden = true;
      return can;
    }
    const reg = await registration();
    const current = await reg.pushManager.getSubscription();
    const known = current && [...box.querySelectorAll("[data-endpoint]")]
      .some((li) => li.dataset.endpoint === current.endpoint);
    say(known ? TEXT.on : TEXT.off);
    show(Boolean(known));
    return known ? "on" : "off";
  }

  async function turnOn() {
    onButton.disabled = true;
    say(TEXT.working);
    try {
      if (env.Notification.permission !== "granted" &&
          (await env.Notification.requestPermission()) !== "granted") {
        say(TEXT.refused);
        return;
      }
      const reg = await registration();
      const key = urlBase64ToBytes(box.dataset.pushKey);
      let subscription = await reg.pushManager.getSubscription();
      if (subscription) {
        // Subscribed before, perhaps to another key (the server's keys changed): renew.
        await subscription.unsubscribe();
      }
      subscription = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
      const body = subscription.toJSON();
      await send("POST", { endpoint: body.endpoint, keys: body.keys, user_agent: env.navigator.userAgent });
      env.location.reload();
    } catch (err) {
      say(TEXT.failed + (err && err.message ? err.message : err));
    } finally {
      onButton.disabled = false;
    }
  }

  async function turnOff() {
    offButton.disabled = true;
    try {
      const reg = await registration();
      const subscription = await reg.pushManager.getSubscription();
      if (subscription) {
        await send("DELETE", { endpoint: subscription.endpoint });
        await subscription.unsubscribe();
      }
      env.location.reload();
    } catch (err) {
      say(TEXT.failed + (err && err.message ? err.message : err));
    } finally {
      offButton.disabled = false;
    }
  }

  onButton.addEventListener("click", turnOn);
  offButton.addEventListener("click", turnOff);
  const ready = refresh().catch((err) => say(TEXT.failed + (err && err.message ? err.message : err)));
  return { refresh, turnOn, turnOff, ready };
}

if (typeof document !== "undefined") init(document, window);
