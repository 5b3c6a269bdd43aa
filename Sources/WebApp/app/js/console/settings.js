// The namespace's settings: each shown with its value and its default, changed in place or put back to its default.

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { t } from "../texts.js";
import { consolePage, errorBox, row, table } from "./common.js";

export async function settingsView(main) {
  const page = consolePage(main, "#/console/settings", t("consoleSettings"));
  const settings = await api("GET", "/api/v1/settings");
  const outcome = h("div#settings-outcome", { "aria-live": "polite" });
  replace(
    page,
    table(
      t("consoleSettings"),
      [t("consoleSetting"), t("consoleValue"), ""],
      settings.map((setting) => {
        const input = h(`input#setting-${setting.key}`, {
          type: "text",
          value: setting.value ?? "",
          placeholder: setting.isDefault ? t("consoleDefault") : "",
          "aria-label": setting.key,
        });
        const marker = h("span.notice", {}, defaultMarker(setting));
        const path = `/api/v1/settings/${encodeURIComponent(setting.key)}`;
        const reset = h(
          "button.secondary.reset",
          { type: "button", hidden: setting.isDefault, dataset: { reset: setting.key } },
          t("consoleResetSetting"),
        );
        const store = async (request) => {
          try {
            const saved = await request();
            input.value = saved.value ?? "";
            marker.textContent = defaultMarker(saved);
            reset.hidden = saved.isDefault;
            // As the server has it: a value cleared here is unset, which is not the default.
            const value = saved.isDefault ? t("consoleDefault") : (saved.value ?? t("consoleUnset"));
            replace(outcome, h("p.ok", {}, t("consoleSettingSaved", { key: saved.key, value })));
          } catch (error) {
            replace(outcome, errorBox(error));
          }
        };
        const save = () => store(() => api("PUT", path, { json: { value: input.value } }));
        reset.addEventListener("click", () => store(() => api("DELETE", path)));
        input.addEventListener("keydown", (event) => {
          if (event.key === "Enter") save();
        });
        return row(
          [
            h("label", { for: input.id }, setting.key, marker),
            input,
            h(
              "span.actions",
              {},
              h("button.secondary", { type: "button", onclick: save, dataset: { setting: setting.key } }, t("consoleSave")),
              reset,
            ),
          ],
          { dataset: { setting: setting.key } },
        );
      }),
      "settings",
    ),
    outcome,
  );
}

// Beside the name: "(default)" while the setting holds its default, else what its default is.
function defaultMarker(setting) {
  if (setting.isDefault) return ` (${t("consoleDefault")})`;
  const text = setting.defaultValue == null ? t("consoleDefaultUnset") : t("consoleDefaultIs", { value: setting.defaultValue });
  return ` (${text})`;
}
