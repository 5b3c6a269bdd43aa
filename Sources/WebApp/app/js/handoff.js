// What the last token refresh got, handed from the tab that refreshed to the next tab that takes the refresh lock.
// It is kept in IndexedDB, not with the session in localStorage: Chromium gives each tab's copy of localStorage the
// other tabs' changes a moment later, so a tab granted the lock can still read the refresh token another tab has
// just used — and a refresh token presented twice ends the whole session. An IndexedDB transaction sees every
// transaction committed before it began.

import { objectStore } from "./offline/database.js";

const key = "last";
const { transact } = objectStore("muster-session", "handoff");

/// The session that replaced the one holding `refreshToken`, or null (none, or no IndexedDB here).
export async function replacementOf(refreshToken) {
  try {
    const last = await transact("readonly", (store) => store.get(key));
    return last?.replaced === refreshToken ? last.session : null;
  } catch {
    return null;
  }
}

/// Records that `session` replaced the one holding `refreshToken`; resolves once it is committed.
export async function recordReplacement(refreshToken, session) {
  try {
    await transact("readwrite", (store) => store.put({ replaced: refreshToken, session }, key));
  } catch {
    // No IndexedDB (a private window may refuse it): the lock alone orders the refreshes.
  }
}

/// Forgets the hand-off: the session it was part of has ended.
export async function forgetReplacement() {
  try {
    await transact("readwrite", (store) => store.delete(key));
  } catch {
    // Nothing kept.
  }
}
