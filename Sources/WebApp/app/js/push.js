// Web Push in this browser: with the person's permission, a push subscription made with the server's VAPID key
// and registered as one of their devices (platform "web"); the service worker (sw.js) shows what arrives.

import { api, device } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./texts.js";

/// Whether this browser can receive Web Push at all (a secure context with a service worker and a PushManager).
export function pushSupported() {
  return window.isSecureContext && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/// The base64url application server key as the bytes `subscribe` takes.
function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function sameKey(subscription, key) {
  const current = subscription.options?.applicationServerKey;
  if (!current) return true;
  const a = new Uint8Array(current);
  return a.length === key.length && a.every((byte, i) => byte === key[i]);
}

/// Asks for permission, subscribes with the server's key and registers the subscription as this browser's device.
/// Resolves "on", or "blocked" when the person (or the browser's settings) said no.
export async function enablePush() {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return "blocked";
  const registration = await navigator.serviceWorker.ready;
  const { publicKey } = await api("GET", "/api/v1/push/vapid-public-key");
  const key = keyBytes(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const { deviceId, deviceName } = device();
  await api("POST", "/api/v1/devices", {
    json: { deviceId, deviceName, platform: "web", token: JSON.stringify(subscription.toJSON()) },
  });
  return "on";
}

/// The header's control: a "Notify me" button, or what the state is. Empty where push cannot work.
export function notifyControl() {
  const box = h("span.push");
  if (!pushSupported()) return box;
  // Short in the header; the whole sentence for pointers and screen readers.
  const say = (key) =>
    replace(box, h("span.notice", { role: "status", title: t(`${key}Explained`), "aria-label": t(`${key}Explained`) }, t(key)));
  if (Notification.permission === "denied") {
    say("notificationsBlocked");
    return box;
  }
  const button = h("button#notify-me.secondary", {
    type: "button", title: t("enableNotificationsExplained"), "aria-label": t("enableNotificationsExplained"),
    onclick: async () => {
      button.disabled = true;
      try {
        say((await enablePush()) === "on" ? "notificationsOn" : "notificationsBlocked");
      } catch (error) {
        button.disabled = false;
        replace(box, button, h("span.error", { role: "alert" }, t("notificationsFailed", { message: error.message })));
      }
    },
  }, t("enableNotifications"));
  replace(box, button);
  // Subscribed already in this browser: say so instead of offering it again.
  if (Notification.permission === "granted") {
    navigator.serviceWorker.getRegistration().then(async (registration) => {
      if (await registration?.pushManager.getSubscription()) say("notificationsOn");
    }).catch(() => {});
  }
  return box;
}
