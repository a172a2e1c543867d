// Calls to the gateway's API with the admin token, which the page asks for when a route refuses
// it and keeps for the browser session (sessionStorage: gone when the tab closes). The shapes of
// the answers are the server's own, from src/api/types.ts (types only: nothing of the server is
// bundled).
import { h } from "./dom";

const TOKEN_KEY = "code-mode-gateway.admin-token";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function forgetToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

export function hasToken(): boolean {
  return sessionStorage.getItem(TOKEN_KEY) !== null;
}

let asking: Promise<void> | null = null;

/** Asks for the admin token (once, however many calls were refused at the same time). */
function askToken(reason: string): Promise<void> {
  asking ??= new Promise<void>((resolve) => {
    const input = h("input", { type: "password", name: "token", autocomplete: "current-password", placeholder: "admin token" });
    const dialog = h(
      "div.modal-backdrop",
      h(
        "form.modal#token-form",
        {
          onsubmit: (e: Event) => {
            e.preventDefault();
            sessionStorage.setItem(TOKEN_KEY, input.value.trim());
            dialog.remove();
            asking = null;
            resolve();
          },
        },
        h("h2", "Admin token"),
        h("p", reason),
        h("p.hint", "It is kept for this browser session only."),
        input,
        h("div.actions", h("button.primary", { type: "submit" }, "Continue")),
      ),
    );
    document.body.appendChild(dialog);
    input.focus();
  });
  return asking;
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  for (;;) {
    const headers: Record<string, string> = {};
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const data = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    if (res.status === 401 && path.startsWith("/api/")) {
      await askToken(token ? "The gateway refused that token; enter it again." : "This gateway requires its admin token for the API.");
      continue;
    }
    if (!res.ok) throw new ApiError(res.status, data?.error?.message ?? `${res.status} ${res.statusText}`);
    return data as T;
  }
}
