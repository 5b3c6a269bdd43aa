// The person's own profile (the account menu's "Profile"): names, email, phone and the time zone their daily
// quota counts in. Whether they administer is not theirs to change.

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { t } from "../texts.js";
import { errorBox, labelled } from "../console/common.js";

export async function profileView(main, _match, { me }) {
  const path = `/api/v1/users/${encodeURIComponent(me.username)}`;
  const user = await api("GET", path);
  const text = (id, value, autocomplete, type = "text") => h(`input#${id}`, { type, value: value ?? "", autocomplete });
  const firstName = text("profile-first-name", user.firstName, "given-name");
  const lastName = text("profile-last-name", user.lastName, "family-name");
  const email = text("profile-email", user.email, "email", "email");
  const phone = text("profile-phone", user.phone, "tel", "tel");
  const zones = Intl.supportedValuesOf?.("timeZone") ?? [];
  const timeZone = h(
    "select#profile-time-zone",
    {},
    [...new Set([user.timeZone, "UTC", ...zones])].map((zone) => h("option", { value: zone, selected: zone === user.timeZone }, zone)),
  );
  const outcome = h("div", { "aria-live": "polite" });
  const form = h(
    "form.profile-form",
    {
      onsubmit: async (event) => {
        event.preventDefault();
        // Every member is sent: an emptied one is cleared.
        const json = {
          firstName: firstName.value.trim(),
          lastName: lastName.value.trim(),
          email: email.value.trim(),
          phone: phone.value.trim(),
          timeZone: timeZone.value,
        };
        try {
          await api("PATCH", path, { json });
          replace(outcome, h("p.notice.saved", {}, t("profileSaved")));
        } catch (error) {
          replace(outcome, errorBox(error));
        }
      },
    },
    h("h2", {}, t("profileOf", { user: me.username })),
    labelled(t("profileFirstName"), firstName),
    labelled(t("profileLastName"), lastName),
    labelled(t("profileEmail"), email),
    labelled(t("profilePhone"), phone),
    labelled(t("profileTimeZone"), timeZone, t("profileTimeZoneHint")),
    h("button", { type: "submit" }, t("profileSave")),
    outcome,
  );
  replace(main, h("section.account", {}, form));
}
