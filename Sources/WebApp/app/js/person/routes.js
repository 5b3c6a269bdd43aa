// The person's side of the app (seed 000): their inbox, a message as its form, the Start tab's requests and
// their documents.

import { inboxView } from "./inbox.js";

export const personTabs = [{ hash: "#/inbox", label: "inbox" }];

export const personRoutes = [{ pattern: /^#\/inbox$/, render: inboxView }];
