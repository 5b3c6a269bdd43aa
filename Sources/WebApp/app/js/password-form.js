// Setting a password anew: one's own with the current one (the other sessions end, this one goes on), or, for an
// administrator, anyone's of the namespace (every session of theirs ends).

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./texts.js";
import { errorBox, labelled } from "./console/common.js";

/// The form for `user`'s password; `own` asks for the current one too. The first field is focused once shown.
export function passwordForm(user, { own }) {
  const fresh = h("input#new-password", { type: "password", required: true, minLength: 8, autocomplete: "new-password" });
  const current = own ? h("input#current-password", { type: "password", required: true, autocomplete: "current-password" }) : null;
  const outcome = h("div", { "aria-live": "polite" });
  const form = h(
    "form.password-form",
    {
      onsubmit: async (event) => {
        event.preventDefault();
        const json = { password: fresh.value, ...(own ? { currentPassword: current.value } : {}) };
        try {
          await api("PUT", `/api/v1/users/${encodeURIComponent(user)}/password`, { json });
          form.reset();
          replace(outcome, h("p.notice.changed", {}, t("consolePasswordChanged", { user })));
        } catch (error) {
          replace(outcome, errorBox(error));
        }
      },
    },
    h("h2", {}, t("consolePasswordOf", { user })),
    own ? labelled(t("consoleCurrentPassword"), current) : null,
    labelled(t("consoleNewPassword"), fresh, own ? t("consoleOwnPasswordHint") : t("consoleNewPasswordHint")),
    h("button", { type: "submit" }, t("consoleSetPassword")),
    outcome,
  );
  queueMicrotask(() => (current ?? fresh).focus());
  return form;
}
