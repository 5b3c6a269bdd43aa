// Users, their devices, and groups: who the console can send to.

import { api, whoAmI } from "../api.js";
import { h, replace } from "../dom.js";
import { passwordForm } from "../password-form.js";
import { t } from "../texts.js";
import { consolePage, errorBox, labelled, row, table } from "./common.js";

export async function peopleView(main) {
  const page = consolePage(main, "#/console/people", t("consolePeople"));
  const [users, groups] = await Promise.all([api("GET", "/api/v1/users"), api("GET", "/api/v1/groups")]);
  const devices = h("section#devices.devices", { "aria-live": "polite" });

  async function showDevices(user) {
    replace(devices, h("p.notice", {}, t("loading")));
    try {
      const list = await api("GET", `/api/v1/users/${encodeURIComponent(user)}/devices`);
      replace(
        devices,
        h("h2", {}, t("consoleDevicesOf", { user })),
        list.length
          ? table(
              t("consoleDevicesOf", { user }),
              [t("consoleDeviceId"), t("consoleDeviceName"), t("consolePlatform"), t("consolePushToken")],
              list.map((d) =>
                row([d.deviceId, d.deviceName ?? "", d.platform, d.token ? t("consoleYes") : t("consoleNo")], { dataset: { deviceId: d.deviceId } }),
              ),
              "devices",
            )
          : h("p.notice", {}, t("consoleNoDevices", { user })),
      );
    } catch (error) {
      replace(devices, errorBox(error));
    }
  }

  const password = h("section#password.password", { "aria-live": "polite" });

  /// A form to set `user`'s password anew; one's own takes the current one too.
  async function showPassword(user) {
    replace(password, passwordForm(user, { own: (await whoAmI())?.username === user }));
  }

  const groupName = h("input#group-name", { type: "text", required: true, autocomplete: "off" });
  const groupMembers = h("input#group-members", { type: "text", autocomplete: "off" });
  const groupOutcome = h("div", { "aria-live": "polite" });
  const groupForm = h(
    "form.group-form",
    {
      onsubmit: async (event) => {
        event.preventDefault();
        const members = groupMembers.value.split(",").map((s) => s.trim()).filter(Boolean);
        try {
          await api("PUT", `/api/v1/groups/${encodeURIComponent(groupName.value.trim())}`, { json: { members } });
          peopleView(main);
        } catch (error) {
          replace(groupOutcome, errorBox(error));
        }
      },
    },
    h("h2", {}, t("consoleDefineGroup")),
    labelled(t("consoleGroupName"), groupName),
    labelled(t("consoleMembers"), groupMembers, t("consoleCommaSeparated")),
    h("button", { type: "submit" }, t("consoleSaveGroup")),
    groupOutcome,
  );

  replace(
    page,
    table(
      t("consoleUsers", { count: users.length }),
      [t("consoleUser"), t("consoleName"), t("consoleEmail"), t("consoleRole"), t("consolePassword"), ""],
      users.map((u) =>
        row(
          [
            u.username,
            [u.firstName, u.lastName].filter(Boolean).join(" "),
            u.email ?? "",
            u.isAdmin ? t("consoleAdministrator") : t("consoleUser"),
            u.hasPassword === undefined ? "" : u.hasPassword ? t("consolePasswordSet") : t("consolePasswordNone"),
            h(
              "span.row-actions",
              {},
              h("button.secondary", { type: "button", dataset: { devicesOf: u.username }, onclick: () => showDevices(u.username) }, t("consoleDevices")),
              " ",
              h("button.secondary", { type: "button", dataset: { passwordOf: u.username }, onclick: () => showPassword(u.username) }, t("consoleSetPassword")),
              " ",
              h("a", { href: `#/console/audit?user=${encodeURIComponent(u.username)}` }, t("consoleAudit")),
            ),
          ],
          { dataset: { user: u.username } },
        ),
      ),
      "users",
    ),
    devices,
    password,
    table(
      t("consoleGroups", { count: groups.length }),
      [t("consoleGroupName"), t("consoleMembers")],
      groups.map((g) => row([g.name, g.members.join(", ")], { dataset: { group: g.name } })),
      "groups",
    ),
    groupForm,
  );
}
