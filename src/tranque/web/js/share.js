// «Compartir»: a share link handed to the phone's share sheet (the Web Share API) or, where
// there is none (most desktop browsers, headless ones), copied to the clipboard, and the
// player told so. The link is the server's share page (/partida/<id>, /torneo/<id>), whose
// Open Graph tags make a chat show the result's card (docs/sharing.md).
//
//   shareButton({ title, text, url }, toast, className) -> <button>
//   shareLink({ title, text, url }, toast) -> "shared" | "cancelled" | "copied" | "shown"

import { t, currentLang } from "./i18n.js";
import { button } from "./dom.js";

/** The share page of a finished game (`partida`) or a tournament (`torneo`); in English
 * (its card and tags) when the one sharing reads the site in English. */
export function shareUrl(kind, id) {
  const lang = currentLang() === "en" ? "?lang=en" : "";
  return `${location.origin}/${kind}/${encodeURIComponent(id)}${lang}`;
}

export async function shareLink({ title, text, url }, toast) {
  if (navigator.share) {
    try {
      await navigator.share({ title, text, url });
      return "shared";
    } catch (error) {
      if (error && error.name === "AbortError") return "cancelled"; // the player closed the sheet
      // refused (no permission, or data it will not share): the clipboard instead
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    toast(t("share_copied"));
    return "copied";
  } catch {
    toast(t("share_copy_this", { url })); // no clipboard here (an insecure page, or refused)
    return "shown";
  }
}

export function shareButton(data, toast, className = "") {
  const node = button(t("share"), () => shareLink(data, toast), `share-button ${className}`.trim());
  node.title = t("share_hint");
  node.dataset.url = data.url;
  return node;
}
