// The operator's console (administrators): composing and sending forms, where sends stand, areas on a map, people
// and their devices, the audit, settings, push delivery and geotriggers. One tab in the bar; the pages have their own
// navigation.

import { sendView } from "./send.js";
import { sendsView } from "./sends.js";
import { areasView } from "./areas.js";
import { peopleView } from "./people.js";
import { auditView } from "./audit.js";
import { settingsView } from "./settings.js";
import { pushView } from "./push.js";
import { geotriggersView } from "./geotriggers.js";

export const consoleTabs = [{ hash: "#/console", label: "console" }];

export const consoleRoutes = [
  { pattern: /^#\/console\/?$/, render: sendView },
  { pattern: /^#\/console\/send$/, render: sendView },
  { pattern: /^#\/console\/sends(?:\?(.*))?$/, render: sendsView },
  { pattern: /^#\/console\/areas$/, render: areasView },
  { pattern: /^#\/console\/people$/, render: peopleView },
  { pattern: /^#\/console\/audit(?:\?(.*))?$/, render: auditView },
  { pattern: /^#\/console\/settings$/, render: settingsView },
  { pattern: /^#\/console\/push$/, render: pushView },
  { pattern: /^#\/console\/geotriggers$/, render: geotriggersView },
];
