// Small DOM helpers for views that update the page in place: create an element once, then
// change only the text, attributes and classes that differ (so focus, open panels and
// scroll positions survive every event).

export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") element.className = value;
    else if (key === "text") element.textContent = value;
    else if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value === true ? "" : String(value));
  }
  element.append(...children.filter((child) => child !== null && child !== undefined));
  return element;
}

export function button(label, onClick, kind = "") {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = label;
  if (kind) element.className = kind;
  element.addEventListener("click", onClick);
  return element;
}

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export function setText(element, text) {
  const value = String(text);
  if (element.textContent !== value) element.textContent = value;
}

export function setAttr(element, name, value) {
  if (value === null || value === undefined || value === false) {
    if (element.hasAttribute(name)) element.removeAttribute(name);
    return;
  }
  const text = value === true ? "" : String(value);
  if (element.getAttribute(name) !== text) element.setAttribute(name, text);
}

// Put `element` in `parent` when `present`, take it out otherwise (selectors that look for
// a control, like the pass button, then find it only when it can be used).
export function place(parent, element, present, before = null) {
  if (present && element.parentNode !== parent) parent.insertBefore(element, before);
  else if (!present && element.parentNode) element.remove();
}

// Make `parent`'s children exactly `children`, in order, moving only what moved.
export function arrange(parent, children) {
  children.forEach((child, index) => {
    if (parent.children[index] !== child) parent.insertBefore(child, parent.children[index] || null);
  });
  while (parent.children.length > children.length) parent.lastElementChild.remove();
}
