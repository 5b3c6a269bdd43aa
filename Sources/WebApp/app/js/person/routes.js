// The person's side of the app (seed 000): their inbox, a message as its form, the Start tab's requests and
// their documents.

import { inboxView } from "./inbox.js";
import { messageView } from "./message.js";
import { startFormView, startView } from "./start.js";
import { documentsView } from "./documents.js";
import { passwordView } from "./password.js";
import { profileView } from "./profile.js";
import { sessionsView } from "./sessions.js";

export const personTabs = [
  { hash: "#/inbox", label: "inbox" },
  { hash: "#/start", label: "start" },
  { hash: "#/documents", label: "documents" },
];

export const personRoutes = [
  { pattern: /^#\/inbox$/, render: inboxView },
  { pattern: /^#\/messages\/([0-9a-fA-F-]+)$/, render: messageView },
  { pattern: /^#\/start$/, render: startView },
  { pattern: /^#\/start\/([^/]+)$/, render: startFormView },
  { pattern: /^#\/documents$/, render: documentsView },
  { pattern: /^#\/account\/password$/, render: passwordView },
  { pattern: /^#\/account\/profile$/, render: profileView },
  { pattern: /^#\/account\/sessions$/, render: sessionsView },
];
