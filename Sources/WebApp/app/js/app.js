// The app: who is logged in, the tabs, and the view of the address's #/path. Views are in person/ (the
// seed 000 app: inbox, start, documents) and console/ (the operator's pages, administrators only).

import { logOut, onSessionEnded, session, sessionKey, whoAmI } from "./api.js";
import { serverConfiguration } from "./config.js";
import { h, replace } from "./dom.js";
import { language, t } from "./texts.js";
import { loginView } from "./person/login.js";
import { finishSignIn } from "./person/signin.js";
import { personRoutes, personTabs } from "./person/routes.js";
import { consoleRoutes, consoleTabs } from "./console/routes.js";
import {
  dismissRefused, flush, onRefusedChange, onWaitingChange, refusedAnswers, startOutbox,
} from "./offline/outbox.js";
import { notifyControl } from "./push.js";

const root = document.getElementById("app");
let me = null;
let leave = null;
let config = {};
/// Why the person is at the login (a sign-in at the issuer failed, the session ended), shown there once.
let signInProblem = null;
let started = false;

/// Shown while offline or while answers wait to be sent: kept across views.
const banner = h("div#offline-banner.banner", { role: "status", hidden: true });
let waitingCount = 0;
let unreachable = false;

/// The kept answers the server refused when they finally arrived: shown until the person dismisses them.
const refusedBanner = h("div#refused-answers.banner.refused", { role: "alert", hidden: true });

function drawRefused(refusals) {
  refusedBanner.hidden = refusals.length === 0;
  replace(
    refusedBanner,
    h("ul", {}, refusals.map((refusal) => h("li", {}, t("refusedAnswer", refusal)))),
    h("button.dismiss", { type: "button", onclick: dismissRefused }, t("dismissRefused")),
  );
}

function drawBanner() {
  const offline = !navigator.onLine || unreachable;
  banner.hidden = !offline && waitingCount === 0;
  replace(
    banner,
    offline ? h("span", {}, t("offline")) : null,
    waitingCount > 0 ? h("span#waiting-count", { dataset: { count: String(waitingCount) } }, t("queued", { count: waitingCount })) : null,
  );
}

/// Logged in as `who` (here, or in another tab): the page the address names, the inbox after the login's.
function loggedIn(who) {
  me = who;
  drawRefused(refusedAnswers());
  flush();
  if (!location.hash || location.hash === "#/login") location.hash = "#/inbox";
  else show();
}

/// The view for the address now: the first route whose pattern matches `#/…`.
async function show() {
  if (typeof leave === "function") leave();
  leave = null;
  if (!me) {
    replace(root, loginView(loggedIn, { config, problem: signInProblem }));
    signInProblem = null;
    return;
  }
  const hash = location.hash || "#/inbox";
  const routes = [...personRoutes, ...(me.isAdmin ? consoleRoutes : [])];
  const route = routes.map((r) => ({ r, match: hash.match(r.pattern) })).find(({ match }) => match);
  const main = h("main#main", { tabindex: "-1" });
  replace(root, banner, refusedBanner, header(hash), main);
  if (!route) {
    replace(main, h("p.notice", {}, t("notFound", { what: hash })));
    return;
  }
  try {
    leave = await route.r.render(main, route.match.slice(1), { me });
  } catch (error) {
    replace(main, h("p.error", { role: "alert" }, t("failed", { message: error.message })));
  }
}

function header(hash) {
  const tabs = [...personTabs, ...(me.isAdmin ? consoleTabs : [])];
  return h(
    "header.bar",
    {},
    h("span.brand", {}, t("appName")),
    h(
      "nav",
      { "aria-label": "Main" },
      tabs.map((tab) =>
        h("a", { href: tab.hash, "aria-current": hash.startsWith(tab.hash) ? "page" : undefined }, t(tab.label)),
      ),
    ),
    notifyControl(),
    accountMenu(),
  );
}

/// Who is logged in, and the way out: the name (its initial on a phone) opens a menu with "Log out".
function accountMenu() {
  const leaveApp = async () => {
    try {
      await logOut();
    } catch {
      // Offline or the session already gone: this browser forgets it all the same.
    }
    loggedOut();
  };
  return h(
    "details.who",
    {},
    h("summary", { "aria-label": t("account", { name: me.username }) },
      h("span.initial", { "aria-hidden": "true" }, me.username.slice(0, 1).toUpperCase()),
      h("span.name", {}, me.username)),
    h(
      "div.menu",
      {},
      h("a#profile", { href: "#/account/profile" }, t("profile")),
      h("a#sessions", { href: "#/account/sessions" }, t("sessions")),
      // Signed in at an issuer, the password is the issuer's to change.
      config.singleSignOn ? null : h("a#change-password", { href: "#/account/password" }, t("changePassword")),
      h("button#log-out.secondary", { type: "button", onclick: leaveApp }, t("logOut")),
    ),
  );
}

async function start() {
  document.documentElement.lang = language;
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
  // The session ended (refused by the server, or logged out in another tab): back to the login, saying so.
  const ended = () => {
    if (!me) return;
    me = null;
    signInProblem = t("sessionEnded");
    if (started) show();
  };
  onSessionEnded(ended);
  window.addEventListener("storage", (event) => {
    if (event.storageArea !== localStorage || (event.key !== null && event.key !== sessionKey)) return;
    if (event.newValue === null) ended();
    else if (!me && started) {
      // Logged in in another tab: this one follows.
      whoAmI().then((who) => {
        if (who && !me) loggedIn(who);
      }, () => {});
    }
  });
  config = await serverConfiguration();
  if (config.singleSignOn) {
    try {
      await finishSignIn(config.singleSignOn);
    } catch (error) {
      signInProblem = t("loginFailed", { message: error.message });
    }
  }
  if (session.get()) {
    try {
      me = await whoAmI();
    } catch (error) {
      // Offline: the kept session still says who this is; the views work from what they keep.
      if (error.isNetwork) me = { username: session.get().username, isAdmin: session.get().isAdmin };
      else {
        session.clear();
        signInProblem = error.status === 401 ? t("sessionEnded") : t("failed", { message: error.message });
      }
    }
  }
  window.addEventListener("hashchange", show);
  window.addEventListener("online", drawBanner);
  window.addEventListener("offline", drawBanner);
  onWaitingChange((count, serverUnreachable) => {
    waitingCount = count;
    unreachable = serverUnreachable;
    drawBanner();
  });
  onRefusedChange(drawRefused);
  startOutbox();
  started = true;
  show();
}

/// Logs out here and shows the login.
export function loggedOut() {
  me = null;
  location.hash = "#/login";
  show();
}

start();
