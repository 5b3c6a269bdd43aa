// Users, their devices, and groups: who the console can send to.

import { api } from "../api.js";
import { formatTime, h, replace } from "../dom.js";
import { passwordForm } from "../password-form.js";
import { t } from "../texts.js";
import { consolePage, errorBox, labelled, row, table } from "./common.js";

/// The page, for `me`; `notice`, when given, says what was just done (a user removed).
export async function peopleView(main, _match, { me, notice } = {}) {
  const page = consolePage(main, "#/console/people", t("consolePeople"));
  const [users, groups] = await Promise.all([api("GET", "/api/v1/users"), api("GET", "/api/v1/groups")]);
  const devices = h("section#devices.devices", { "aria-live": "polite" });

  /// `user`'s devices, each with "Unregister" (a lost phone gets no more pushes); `done` says what was just done.
  async function showDevices(user, done) {
    replace(devices, h("p.notice", {}, t("loading")));
    const path = (deviceId) =>
      `/api/v1/users/${encodeURIComponent(user)}/devices${deviceId ? `/${encodeURIComponent(deviceId)}` : ""}`;
    const unregister = async (deviceId) => {
      try {
        await api("DELETE", path(deviceId));
        await showDevices(user, t("consoleDeviceUnregistered", { device: deviceId, user }));
      } catch (error) {
        replace(devices, errorBox(error));
      }
    };
    try {
      const list = await api("GET", path());
      replace(
        devices,
        h("h2", {}, t("consoleDevicesOf", { user })),
        done ? h("p.ok", { role: "status" }, done) : "",
        list.length
          ? table(
              t("consoleDevicesOf", { user }),
              [t("consoleDeviceId"), t("consoleDeviceName"), t("consolePlatform"), t("consolePushToken"), ""],
              list.map((d) =>
                row([
                  d.deviceId, d.deviceName ?? "", d.platform, d.token ? t("consoleYes") : t("consoleNo"),
                  h("button.secondary", {
                    type: "button", dataset: { unregisterDevice: d.deviceId }, onclick: () => unregister(d.deviceId),
                  }, t("consoleUnregisterDevice")),
                ], { dataset: { deviceId: d.deviceId } }),
              ),
              "devices",
            )
          : h("p.notice", {}, t("consoleNoDevices", { user })),
      );
    } catch (error) {
      replace(devices, errorBox(error));
    }
  }

  const sessions = h("section#user-sessions.devices", { "aria-live": "polite" });

  /// Where `user` is logged in, each session with "End" but the console's own (a lost phone is logged out at its
  /// next request); `done` says what was just done.
  async function showSessions(user, done) {
    replace(sessions, h("p.notice", {}, t("loading")));
    const end = async (session) => {
      try {
        await api("DELETE", `/api/v1/sessions/${encodeURIComponent(session.sessionId)}`);
        await showSessions(user, t("consoleSessionEnded", { device: session.deviceId ?? t("sessionsNoDevice"), user }));
      } catch (error) {
        replace(sessions, errorBox(error));
      }
    };
    try {
      const list = await api("GET", `/api/v1/sessions?user=${encodeURIComponent(user)}`);
      replace(
        sessions,
        h("h2", {}, t("consoleSessionsOf", { user })),
        done ? h("p.ok", { role: "status" }, done) : "",
        list.length
          ? table(
              t("consoleSessionsOf", { user }),
              [t("consoleDeviceId"), t("consoleSessionEnds"), ""],
              list.map((s) =>
                row([
                  s.deviceId ?? t("sessionsNoDevice"),
                  formatTime(s.expiresAt),
                  s.isCurrent
                    ? h("em.current", {}, t("sessionsThisOne"))
                    : h("button.secondary", { type: "button", dataset: { endSession: s.sessionId }, onclick: () => end(s) },
                      t("sessionsEnd")),
                ], { dataset: { sessionId: s.sessionId } }),
              ),
              "sessions",
            )
          : h("p.notice", {}, t("consoleNoSessions", { user })),
      );
    } catch (error) {
      replace(sessions, errorBox(error));
    }
  }

  const password = h("section#password.password", { "aria-live": "polite" });

  /// A form to set `user`'s password anew; one's own takes the current one too.
  function showPassword(user) {
    replace(password, passwordForm(user, { own: me?.username === user }));
  }

  const removal = h("section#removal.removal", { "aria-live": "polite" });
  const groupRemoval = h("section#group-removal.removal", { "aria-live": "polite" });

  /// Asks in `section` before removing what `path` names, then shows the page again with `done` said.
  function askRemoval(section, { path, question, confirm, dataset, done }) {
    const remove = async () => {
      try {
        await api("DELETE", path);
        await peopleView(main, [], { me, notice: done });
      } catch (error) {
        replace(section, errorBox(error));
      }
    };
    replace(
      section,
      h("p", {}, question),
      h("button.danger", { type: "button", dataset, onclick: remove }, confirm),
      " ",
      h("button.secondary", { type: "button", onclick: () => replace(section) }, t("consoleCancel")),
    );
  }

  /// Makes `user` an administrator, or a user again; the page shows the outcome.
  async function setRole(user, isAdmin) {
    try {
      await api("PATCH", `/api/v1/users/${encodeURIComponent(user)}`, { json: { isAdmin } });
      await peopleView(main, [], { me, notice: t(isAdmin ? "consoleMadeAdministrator" : "consoleMadeUser", { user }) });
    } catch (error) {
      replace(removal, errorBox(error));
    }
  }

  const askUserRemoval = (user) =>
    askRemoval(removal, {
      path: `/api/v1/users/${encodeURIComponent(user)}`,
      question: t("consoleRemoveQuestion", { user }),
      confirm: t("consoleRemoveUser", { user }),
      dataset: { confirmRemoval: user },
      done: t("consoleUserRemoved", { user }),
    });

  const askGroupRemoval = (group) =>
    askRemoval(groupRemoval, {
      path: `/api/v1/groups/${encodeURIComponent(group)}`,
      question: t("consoleRemoveGroupQuestion", { group }),
      confirm: t("consoleRemoveGroup", { group }),
      dataset: { confirmGroupRemoval: group },
      done: t("consoleGroupRemoved", { group }),
    });

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
          peopleView(main, [], { me });
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
    notice ? h("p.ok", { role: "status" }, notice) : "",
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
              h("button.secondary", { type: "button", dataset: { sessionsOf: u.username }, onclick: () => showSessions(u.username) }, t("consoleSessions")),
              " ",
              h("button.secondary", { type: "button", dataset: { passwordOf: u.username }, onclick: () => showPassword(u.username) }, t("consoleSetPassword")),
              " ",
              h("a", { href: `#/console/audit?user=${encodeURIComponent(u.username)}` }, t("consoleAudit")),
              // Nobody leaves the role or is removed by their own hand: no buttons for it.
              u.username === me?.username
                ? ""
                : h(
                    "span",
                    {},
                    " ",
                    h(
                      "button.secondary",
                      { type: "button", dataset: { roleOf: u.username }, onclick: () => setRole(u.username, !u.isAdmin) },
                      t(u.isAdmin ? "consoleMakeUser" : "consoleMakeAdministrator"),
                    ),
                    " ",
                    h("button.secondary", { type: "button", dataset: { removeUser: u.username }, onclick: () => askUserRemoval(u.username) }, t("consoleRemove")),
                  ),
            ),
          ],
          { dataset: { user: u.username } },
        ),
      ),
      "users",
    ),
    removal,
    devices,
    sessions,
    password,
    table(
      t("consoleGroups", { count: groups.length }),
      [t("consoleGroupName"), t("consoleMembers"), ""],
      groups.map((g) =>
        row(
          [
            g.name,
            g.members.join(", "),
            h("button.secondary", { type: "button", dataset: { removeGroup: g.name }, onclick: () => askGroupRemoval(g.name) }, t("consoleRemove")),
          ],
          { dataset: { group: g.name } },
        ),
      ),
      "groups",
    ),
    groupRemoval,
    groupForm,
  );
}
