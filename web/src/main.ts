// The page: a left nav and one page at a time, chosen by the URL's hash (#/clients, ...).
import { forgetToken, hasToken } from "./api";
import { clientsPage } from "./clients";
import { fill, h } from "./dom";
import { keysPage } from "./keys";
import { logsPage } from "./logs";
import { overviewPage } from "./overview";
import { playgroundPage } from "./playground";
import { settingsPage } from "./settings";

const PAGES: Record<string, { title: string; render: (root: HTMLElement) => () => void }> = {
  overview: { title: "Overview", render: overviewPage },
  clients: { title: "MCP clients", render: clientsPage },
  "code-mode": { title: "Code mode", render: settingsPage },
  keys: { title: "Virtual keys", render: keysPage },
  playground: { title: "Playground", render: playgroundPage },
  logs: { title: "Logs", render: logsPage },
};

const content = h("main.content");
const links = Object.entries(PAGES).map(([id, page]) => h("a", { href: `#/${id}`, dataset: { page: id } }, page.title));
const signOut = h(
  "button.link",
  {
    type: "button",
    onclick: () => {
      forgetToken();
      show();
    },
  },
  "Forget admin token",
);

fill(
  document.getElementById("app")!,
  h("nav.sidebar", h("div.brand", "code-mode", h("span", "gateway")), h("div.links", links), h("div.foot", signOut)),
  content,
);

let leave: () => void = () => undefined;

function show(): void {
  const id = location.hash.replace(/^#\/?/, "") || "overview";
  const page = PAGES[id] ?? PAGES.overview!;
  leave();
  // A sheet belongs to the page it was opened on.
  for (const el of document.querySelectorAll(".sheet-backdrop")) el.remove();
  for (const a of links) a.classList.toggle("active", a.dataset.page === id);
  signOut.hidden = !hasToken();
  document.title = `${page.title} - code-mode-gateway`;
  leave = page.render(content);
}

window.addEventListener("hashchange", show);
show();
