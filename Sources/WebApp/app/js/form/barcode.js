// Scanning a UPC or QR code with the browser's BarcodeDetector where it has one (Chromium on Android, macOS and
// ChromeOS); elsewhere the barcode field is typed.

import { t } from "../texts.js";
import { withCamera } from "./camera.js";

export function canScanBarcodes() {
  return "BarcodeDetector" in window && Boolean(navigator.mediaDevices?.getUserMedia);
}

/// Looks at the camera until a code shows; resolves its text, or null when the person cancels.
export function scanBarcode() {
  return withCamera(t("formScanTitle"), async ({ video, dialog, status, done }) => {
    let detector;
    try {
      detector = new window.BarcodeDetector();
    } catch (error) {
      status.textContent = t("formNoCamera", { message: error.message });
      return;
    }
    status.textContent = t("formScanning");
    // One look per animation frame while the dialog is open: detect() is asynchronous, so looks never pile up.
    const look = async () => {
      if (!dialog.open) return;
      try {
        const [code] = await detector.detect(video);
        if (code?.rawValue) {
          done(code.rawValue);
          return;
        }
      } catch {
        // A frame not ready yet: look again.
      }
      requestAnimationFrame(look);
    };
    look();
  });
}
