// The operator's console (administrators): composing and sending forms, users, areas, audit, settings.

export const consoleTabs = [];

export const consoleRoutes = [];
