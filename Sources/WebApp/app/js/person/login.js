// The login: the form of Internal accounts, or with single sign-on a button that sends people to the issuer.

import { logIn } from "../api.js";
import { h } from "../dom.js";
import { t } from "../texts.js";
import { signIn } from "./signin.js";

/// `config` is the server's (`singleSignOn` when an issuer signs people in); `problem` why the person is here (a
/// failed sign-in, a session that ended), in words to show.
export function loginView(onLoggedIn, { config = {}, problem } = {}) {
  if (config.singleSignOn) return singleSignOnView(config.singleSignOn, problem);
  const error = h("p.error", { role: "alert", hidden: !problem }, problem ?? "");
  const username = h("input", { id: "username", name: "username", autocomplete: "username", required: true });
  const password = h("input", {
    id: "password", name: "password", type: "password", autocomplete: "current-password", required: true,
  });
  const namespace = h("input", { id: "namespace", name: "namespace", autocomplete: "off", "aria-label": t("namespace") });
  const form = h(
    "form.login",
    {
      onsubmit: async (event) => {
        event.preventDefault();
        error.hidden = true;
        try {
          onLoggedIn(await logIn(username.value.trim(), password.value, namespace.value.trim()));
        } catch (failure) {
          error.textContent = t("loginFailed", { message: failure.message });
          error.hidden = false;
        }
      },
    },
    h("h1", {}, t("appName")),
    h("label", { for: "username" }, t("username")),
    username,
    h("label", { for: "password" }, t("password")),
    password,
    h("details", {}, h("summary", {}, t("namespace")), namespace),
    error,
    h("button", { type: "submit", id: "log-in" }, t("logIn")),
  );
  return h("main.center", {}, form);
}

function singleSignOnView(sso, problem) {
  const error = h("p.error", { role: "alert", hidden: !problem }, problem ?? "");
  const button = h("button", {
    type: "button", id: "sign-in",
    onclick: async () => {
      button.disabled = true;
      try {
        await signIn(sso);
      } catch (failure) {
        button.disabled = false;
        error.textContent = t("loginFailed", { message: failure.message });
        error.hidden = false;
      }
    },
  }, t("signIn"));
  return h("main.center", {}, h("div.login", {}, h("h1", {}, t("appName")), h("p", {}, t("signInExplained")), error, button));
}
