// A side sheet over the page (a client's or a key's form); closing it removes it.
import { h } from "./dom";

export function openSheet(title: string, ...content: HTMLElement[]): { el: HTMLElement; close(): void } {
  const close = () => backdrop.remove();
  const panel = h("aside.sheet", { role: "dialog", "aria-label": title }, h("header", h("h2", title), h("button.icon", { type: "button", title: "Close", onclick: close }, "×")), ...content);
  const backdrop = h("div.sheet-backdrop", panel);
  backdrop.addEventListener("mousedown", (e) => {
    if (e.target === backdrop) close();
  });
  document.body.appendChild(backdrop);
  return { el: panel, close };
}
