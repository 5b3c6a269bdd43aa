// The person's own password (the account menu's "Change password"): the current one, then the new one.

import { h, replace } from "../dom.js";
import { passwordForm } from "../password-form.js";

export async function passwordView(main, _match, { me }) {
  replace(main, h("section.account", {}, passwordForm(me.username, { own: true })));
}
