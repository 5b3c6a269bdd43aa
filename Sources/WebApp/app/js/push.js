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

/// Closes the notifications of messages no longer waiting (answered here or elsewhere, or withdrawn and its
/// withdrawal seen): those whose tag, the message's id, is not among `waiting`'s ids. Area notices' stay.
export async function closeSettledNotifications(waiting) {
  if (!("serviceWorker" in navigator)) return;
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration?.getNotifications) return;
  const open = new Set([...waiting].map((id) => id.toLowerCase()));
  for (const notification of await registration.getNotifications()) {
    const kind = notification.data?.kind;
    if ((kind === "message" || kind === "withdrawn") && !open.has(notification.tag.toLowerCase())) notification.close();
  }
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

/// Whether `error` is the server refusing an answer because this browser is not a registered device of the person
/// (the namespace's `requireRegisteredDevice`): a 400 naming `deviceId`.
export function unregisteredDevice(error) {
  return error?.status === 400 && (error.fields ?? []).some((field) => field.field === "deviceId");
}

/// What a person whose answer was refused by `unregisteredDevice` is told, in plain words, with the way to register
/// this browser where there is one: a web device is registered with its push subscription (Docs/HTTP.md), so
/// notifications are turned on, and `resend()` then sends the answer again.
export function registerDeviceNotice(resend) {
  const notice = h("div.device-notice", { role: "alert" }, h("p", {}, t("deviceNotRegistered")));
  if (!pushSupported() || Notification.permission === "denied") {
    notice.append(h("p", {}, t("deviceCannotRegister")));
    return notice;
  }
  const outcome = h("p.notice", { role: "status" });
  const button = h("button#register-device", {
    type: "button",
    onclick: async () => {
      button.disabled = true;
      outcome.textContent = "";
      try {
        if ((await enablePush()) === "on") {
          await resend();
          return;
        }
        // Notifications refused: asking again does nothing, so only the other ways are left.
        button.remove();
        outcome.textContent = t("deviceCannotRegister");
        return;
      } catch (error) {
        outcome.textContent = t("notificationsFailed", { message: error.message });
      }
      button.disabled = false;
    },
  }, t("deviceRegister"));
  // Without a Web Push source on the server there is no subscription to register with.
  api("GET", "/api/v1/push/vapid-public-key").then(
    () => notice.append(h("p", {}, t("deviceRegisterExplained")), button, outcome),
    () => notice.append(h("p", {}, t("deviceCannotRegister"))),
  );
  return notice;
}
