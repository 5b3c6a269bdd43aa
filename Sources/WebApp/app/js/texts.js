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
  formSubmit: "Submit",
  formSending: "Sending your answer…",
  formBackToInbox: "Back to the inbox",
  formAlreadyAnswered: "This message has been answered already.",
  formProblems: "{count} answer(s) need attention before this can be sent.",
  formRequired: "Enter a value: this field is not optional.",
  formChoiceRequired: "Choose one: this field is not optional.",
  formPhotoRequired: "Take or choose a photo: this field is not optional.",
  formRecordingRequired: "Record or choose a clip: this field is not optional.",
  formMarkupRequired: "Mark up the picture and press “Use this picture”: this field is not optional.",
  formPointRequired: "Pick a point on the map or type its latitude and longitude: this field is not optional.",
  formLocationRequired: "Your location is needed: allow this site to use your location and send again.",
  formBadDocument: "The upload did not finish: capture it again.",
  formNotText: "Enter text.",
  formNotBoolean: "Tick or untick the box.",
  formBadDate: "Enter a date like 1991-04-20.",
  formBadDateTime: "Enter a date and time like 1991-04-20 09:30.",
  formBadLocation: "Enter a latitude from -90 to 90 and a longitude from -180 to 180.",
  formNotInValues: "Choose one of the listed values.",
  formNotNumber: "Enter a number.",
  formNotInteger: "Enter a whole number.",
  formOutOfRange: "Enter a number from {min} to {max}.",
  formStillUploading: "Wait a moment: the upload is still under way.",
  formChoose: "Choose…",
  formNoChoice: "No answer",
  formCheckbox: "Check box",
  formBarcodeHint: "Type the code",
  formScan: "Scan",
  formScanTitle: "Scan a barcode",
  formScanning: "Hold the code in front of the camera.",
  formCancel: "Cancel",
  formNoCamera: "The camera is not available: {message}",
  formNoMicrophone: "Recording is not available: {message}",
  formTakePhoto: "Take Photo",
  formShoot: "Take the picture",
  formCapturedPhoto: "The photo taken",
  formChooseFile: "Choose a file",
  formRemove: "Remove",
  formStartRecording: "Start Recording",
  formStopRecording: "Stop recording",
  formRecordingClock: "{done} s of {of} s",
  formUploading: "Uploading…",
  formUploaded: "Uploaded.",
  formUploadFailed: "The upload failed: {message}",
  formPreviewNoUpload: "Preview: nothing is uploaded.",
  formMarkupCamera: "Take a photo and mark it up",
  formMarkupImage: "Mark up an image",
  formMarkupCanvas: "The picture to draw on",
  formPenRed: "Red pen",
  formPenYellow: "Yellow pen",
  formPenBlue: "Blue pen",
  formClearMarks: "Clear marks",
  formUseMarkup: "Use this picture",
  formNoSource: "There is no picture to mark up: take a photo or choose a file.",
  formSourceFailed: "The picture could not be opened: {message}",
  formImage: "Picture",
  formOpenImage: "Open the picture",
  formImageFailed: "The picture could not be shown.",
  formZoomImage: "{label}: show larger",
  formViewPDF: "View the PDF document",
  formViewWeb: "View the Web document",
  formViewImage: "View the picture",
  formPlayAudio: "Listen to the clip",
  formPlayVideo: "Play the video",
  formDocumentFailed: "The document could not be opened: {message}",
  formViewDashboard: "View the Dashboard",
  formMap: "Map",
  formMapHint: "Click the map to set your point, or type it.",
  formLatitude: "Latitude",
  formLongitude: "Longitude",
  formClearPoint: "Clear the point",
  formCurrentLocation: "Your location",
  formCurrentDateTime: "The time of sending",

  // The person's side (js/person/, js/offline/, js/push.js).
  personBlockStart: "",

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
