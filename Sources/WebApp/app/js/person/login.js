// The login form (Internal accounts).

import { logIn } from "../api.js";
import { h } from "../dom.js";
import { t } from "../texts.js";

export function loginView(onLoggedIn) {
  const error = h("p.error", { role: "alert", hidden: true });
  const username = h("input", { id: "username", name: "username", autocomplete: "username", required: true });
  const password = h("input", {
    id: "password", name: "password", type: "password", autocomplete: "current-password", required: true,
  });
  const namespace = h("input", { id: "namespace", name: "namespace", autocomplete: "off" });
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
