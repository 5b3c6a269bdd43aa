// Every text the app shows, in one place; English first. A language the browser prefers is used where it has
// the text, English where not. t("key", {name: value}) fills {name} in.

const english = {
  appName: "Muster",
  loading: "Loading…",
  offline: "Offline: answers are kept and sent when the connection returns.",
  queued: "{count} answer(s) waiting to be sent",
  logIn: "Log in",
  logOut: "Log out",
  username: "User name",
  password: "Password",
  namespace: "Namespace (optional)",
  loginFailed: "Could not log in: {message}",
  inbox: "Inbox",
  start: "Start",
  documents: "Documents",
  console: "Console",
  emptyInbox: "Nothing to answer. New messages appear here as they arrive.",
  answered: "Answered",
  back: "Back",
  send: "Send",
  sentAnswer: "Your answer was sent.",
  queuedAnswer: "You are offline: your answer is kept and will be sent when the connection returns.",
  notFound: "Not found: {what}",
  failed: "Something went wrong: {message}",
  noRequests: "No requests to start.",
  noDocuments: "You have not uploaded any documents.",
  enableNotifications: "Notify me of new messages",
  notificationsOn: "Notifications are on for this browser.",
  notificationsBlocked: "Notifications are blocked for this site in the browser's settings.",
  sessionEnded: "Your session ended: log in again.",

  // The form (js/form/): field labels, validation messages, capture buttons.
  formBlockStart: "",

  // The person's side (js/person/, js/offline/, js/push.js).
  personBlockStart: "",
  startAnother: "Start another",
  answerRefused: "The answer was not accepted: {message}",
  notificationsFailed: "Notifications could not be turned on: {message}",
  download: "Download",
  kind_audio: "Audio",
  kind_image: "Photo",
  kind_video: "Video",

  // The operator's console (js/console/).
  consoleBlockStart: "",
};

const languages = { en: english };

function pick() {
  for (const tag of navigator.languages ?? [navigator.language ?? "en"]) {
    const language = tag.toLowerCase().split("-")[0];
    if (languages[language]) return languages[language];
  }
  return english;
}

const chosen = pick();

export function t(key, values = {}) {
  const text = chosen[key] ?? english[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

/// The language the app speaks, for `<html lang>`.
export const language = Object.entries(languages).find(([, texts]) => texts === chosen)?.[0] ?? "en";
