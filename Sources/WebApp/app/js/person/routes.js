// The person's side of the app (seed 000): their inbox, a message as its form, the Start tab's requests and
// their documents.

import { inboxView } from "./inbox.js";
import { messageView } from "./message.js";

export const personTabs = [{ hash: "#/inbox", label: "inbox" }];

export const personRoutes = [
  { pattern: /^#\/inbox$/, render: inboxView },
  { pattern: /^#\/messages\/([0-9a-fA-F-]+)$/, render: messageView },
];
