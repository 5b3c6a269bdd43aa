// The fields that only show something: text, sectionLabel, image, document and dashboard. Documents of this
// server (rcs/…) are fetched with the person's token (options.fetchDocument) and shown from a blob: URL; web
// addresses open in a new tab, since the page's Content-Security-Policy lets it frame nothing else.

import { serverConfiguration } from "../config.js";
import { h } from "../dom.js";
import { t } from "../texts.js";
import { applyLabelStyle, fieldBox, fieldLabel } from "./shell.js";
import { string } from "./rules.js";

const isWebAddress = (url) => /^https?:\/\//i.test(url);

export function textField(field, index) {
  return { element: fieldBox(field, index, applyLabelStyle(h("p.form-text", {}, string(field, "label") ?? ""), field)) };
}

/// The seed: a section label ignores the four styling properties.
export function sectionLabelField(field, index) {
  return { element: fieldBox(field, index, h("h2.section-label", {}, string(field, "label") ?? "")) };
}

export function imageField(field, index, { fetchDocument }) {
  const url = string(field, "url") ?? "";
  const alt = string(field, "label") ?? t("formImage");
  const label = fieldLabel(field, "", "p");
  // The page's policy loads pictures only from this server: one from another site is offered as a link.
  if (isWebAddress(url) && new URL(url).origin !== location.origin) {
    const link = h("a", { href: url, target: "_blank", rel: "noopener noreferrer" }, t("formOpenImage"));
    return { element: fieldBox(field, index, label, link) };
  }
  const image = h("img.form-image", { alt });
  const failed = h("p.notice", { hidden: true }, t("formImageFailed"));
  if (url && !url.startsWith("/") && !isWebAddress(url) && fetchDocument) {
    fetchDocument(url)
      .then((blob) => {
        image.src = URL.createObjectURL(blob);
      })
      .catch(() => image.dispatchEvent(new Event("error")));
  } else {
    image.src = url;
  }
  // Tapping the picture shows it at full size, as the seed's app does.
  const zoom = h("button.image-zoom", {
    type: "button", "aria-label": t("formZoomImage", { label: alt }), "aria-expanded": "false",
    onclick: () => {
      const wide = zoom.classList.toggle("zoomed");
      zoom.setAttribute("aria-expanded", String(wide));
    },
  }, image);
  image.addEventListener("error", () => {
    zoom.hidden = true;
    failed.hidden = false;
  });
  return { element: fieldBox(field, index, label, zoom, failed) };
}

export function documentField(field, index, { fetchDocument }) {
  const url = string(field, "url") ?? "";
  const flavor = string(field, "flavor");
  const placeholder = string(field, "placeholder")
    ?? (flavor === "pdf" ? t("formViewPDF") : { vaudio: t("formPlayAudio"), vimage: t("formViewImage"),
      vvideo: t("formPlayVideo") }[flavor] ?? t("formViewWeb"));
  const viewer = h("div.document-viewer");
  const status = h("p.capture-status", { role: "status" });
  const label = fieldLabel(field, "", "p");
  if (isWebAddress(url)) {
    const link = h("a.button.secondary", { href: url, target: "_blank", rel: "noopener noreferrer" }, placeholder);
    return { element: fieldBox(field, index, label, link) };
  }
  const open = h("button.secondary", {
    type: "button",
    "aria-expanded": "false",
    onclick: async () => {
      if (viewer.childElementCount > 0) {
        viewer.replaceChildren();
        open.setAttribute("aria-expanded", "false");
        return;
      }
      status.textContent = t("loading");
      try {
        const blob = await fetchDocument(url);
        viewer.replaceChildren(viewerFor(flavor, blob, string(field, "label") ?? placeholder));
        open.setAttribute("aria-expanded", "true");
        status.textContent = "";
      } catch (error) {
        status.textContent = t("formDocumentFailed", { message: error.message });
      }
    },
    disabled: !fetchDocument,
  }, placeholder);
  return { element: fieldBox(field, index, label, open, status, viewer) };
}

/// The element that shows a fetched document. Pages are framed sandboxed without scripts: a document cannot act
/// as the app. A PDF is typed as one so the browser's viewer, not its HTML parser, reads it.
function viewerFor(flavor, blob, title) {
  switch (flavor) {
    case "vaudio":
      return h("audio", { src: URL.createObjectURL(blob), controls: true });
    case "vvideo":
      return h("video", { src: URL.createObjectURL(blob), controls: true, playsInline: true });
    case "vimage":
      return h("img.form-image", { src: URL.createObjectURL(blob), alt: title });
    case "pdf":
      return h("iframe.document-frame", { src: URL.createObjectURL(new Blob([blob], { type: "application/pdf" })), title });
    default:
      return h("iframe.document-frame", { src: URL.createObjectURL(blob), title, sandbox: "" });
  }
}

/// Muster has no dashboards of its own: the field leads where the server says (`serve --dashboard-url`, `{tab}`
/// the start tab), in a new tab; without one it says so instead of offering a link that goes nowhere.
export function dashboardField(field, index) {
  const tab = string(field, "startTab") ?? "";
  const text = string(field, "placeholder") ?? t("formViewDashboard");
  const link = h("a.dashboard-link.button.secondary", { target: "_blank", rel: "noopener", hidden: true }, text);
  const none = h("p.dashboard-none.notice", {}, t("formNoDashboard"));
  serverConfiguration().then(({ dashboard }) => {
    if (!dashboard) return;
    link.href = dashboard.replaceAll("{tab}", encodeURIComponent(tab));
    link.hidden = false;
    none.remove();
  });
  return { element: fieldBox(field, index, fieldLabel(field, "", "p"), link, none) };
}
