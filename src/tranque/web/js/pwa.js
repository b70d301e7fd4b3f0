// The installable app: registers the service worker (/sw.js, server/http/pwa.py) once the
// page has loaded, and offers «Instalar Tranque» on the home page when the browser says the
// site can be installed (`beforeinstallprompt`, phones' Chromium). The offer can be declined
// for good (remembered in this browser) and goes once the app is installed.

import { t } from "./i18n.js";
import { el, button } from "./dom.js";

const DISMISSED_KEY = "tranque.install.dismissed";
let prompt = null; // the browser's deferred install prompt, while it may be shown
const offers = new Set(); // the home pages' install cards on screen

export function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const register = () => navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
  // A notification clicked on a phone: the worker asks this tab to go to its page.
  navigator.serviceWorker.addEventListener("message", (event) => {
    const data = event.data || {};
    if (data.type === "open" && typeof data.hash === "string" && data.hash.startsWith("#/")) location.hash = data.hash;
  });
}

window.addEventListener("beforeinstallprompt", (event) => {
  event.preventDefault(); // no banner of the browser's own: the home page offers it
  prompt = event;
  for (const offer of offers) show(offer);
});

window.addEventListener("appinstalled", () => {
  prompt = null;
  for (const offer of offers) offer.hidden = true;
});

function show(offer) {
  offer.hidden = !prompt || localStorage.getItem(DISMISSED_KEY) === "1";
}

// The home page's card: hidden until the browser offers to install, and after «No, gracias».
export function installOffer() {
  const offer = el("section", { class: "install-offer", "aria-label": t("pwa_install") });
  const install = button(t("pwa_install"), async () => {
    if (!prompt) return;
    const asked = prompt;
    prompt = null;
    offer.hidden = true;
    asked.prompt();
    const choice = await asked.userChoice.catch(() => null);
    if (choice && choice.outcome === "dismissed") localStorage.setItem(DISMISSED_KEY, "1");
  }, "primary install-app");
  const dismiss = button(t("pwa_install_dismiss"), () => {
    localStorage.setItem(DISMISSED_KEY, "1");
    offer.hidden = true;
  }, "link dismiss-install");
  offer.append(el("p", { text: t("pwa_install_hint") }), el("div", { class: "actions" }, install, dismiss));
  // Forget the cards of pages left behind.
  for (const old of offers) if (!old.isConnected) offers.delete(old);
  offers.add(offer);
  show(offer);
  return offer;
}
