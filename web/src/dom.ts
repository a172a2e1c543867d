// A tiny element builder: h("div.card", {onclick}, child, ...) — enough for a few pages without a framework.
type Child = Node | string | number | null | undefined | false | Child[];
type Props = Record<string, unknown>;

/** The tag name of "button.primary#run": "button". */
type TagOf<S extends string> = S extends `${infer T}.${string}` ? TagOf<T> : S extends `${infer T}#${string}` ? T : S;
type ElementOf<S extends string> = TagOf<S> extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[TagOf<S>] : HTMLElement;

export function h<S extends string>(tag: S, props?: Props | Child, ...children: Child[]): ElementOf<S> {
  const [name, ...rest] = tag.split(/(?=[.#])/);
  const el = document.createElement(name!) as ElementOf<S>;
  for (const part of rest) {
    if (part.startsWith(".")) el.classList.add(part.slice(1));
    else el.id = part.slice(1);
  }
  if (props !== undefined && (typeof props !== "object" || props === null || props instanceof Node || Array.isArray(props))) {
    children.unshift(props as Child);
  } else if (props) {
    for (const [key, value] of Object.entries(props)) {
      if (value === undefined || value === null || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value as EventListener);
      else if (key === "dataset") Object.assign(el.dataset, value);
      else if (key in el && key !== "list") (el as unknown as Record<string, unknown>)[key] = value;
      else el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's content. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** A labelled form field with a place for its error; `key` is the field's path in API messages. */
export function field(label: string, key: string, input: HTMLElement, hint?: string): HTMLElement {
  const id = `f-${key.replace(/[^a-z0-9_]/gi, "-")}`;
  if (!input.id) input.id = id;
  return h(
    "div.field",
    { dataset: { field: key } },
    h("label", { htmlFor: input.id }, label),
    input,
    hint ? h("div.hint", hint) : null,
    h("div.error", { role: "alert" }),
  );
}

/** Clears every error shown in `form`. */
export function clearErrors(form: Element): void {
  for (const el of form.querySelectorAll(".error")) el.textContent = "";
  for (const el of form.querySelectorAll(".field.invalid")) el.classList.remove("invalid");
}

/**
 * Shows an API message beside the field it names (the longest field path the message starts
 * with), or in the form's general error box.
 */
export function showError(form: Element, message: string): void {
  clearErrors(form);
  let best: HTMLElement | null = null;
  let bestKey = "";
  for (const el of form.querySelectorAll<HTMLElement>(".field[data-field]")) {
    const key = el.dataset.field!;
    if (key.length > bestKey.length && message.startsWith(key) && /^($|[\s:.[(])/.test(message.slice(key.length))) {
      best = el;
      bestKey = key;
    }
  }
  const box = best?.querySelector(".error") ?? form.querySelector(".form-error");
  if (box) box.textContent = best ? besideField(message, bestKey) : message;
  else alert(message);
  if (best) {
    best.classList.add("invalid");
    best.scrollIntoView({ block: "nearest" });
  } else if (box instanceof HTMLElement) {
    // A message about the whole form sits at its top, out of sight of the button just pressed.
    box.scrollIntoView({ block: "nearest" });
  }
}

/** A message shown beside its field needs no full path: "name: x" -> "x", "a.b.max_steps must" -> "max_steps must". */
function besideField(message: string, key: string): string {
  const rest = message.slice(key.length);
  if (rest.startsWith(": ")) return rest.slice(2);
  return key.split(".").pop()! + rest;
}

/** A text input that accepts a list, one entry per line. */
export function linesOf(text: string): string[] {
  return text.split("\n").map((l) => l.trim()).filter((l) => l !== "");
}

export function formatDuration(seconds: number): string {
  return seconds < 1 ? `${Math.round(seconds * 1000)} ms` : `${seconds.toFixed(2)} s`;
}

/** A row's small button: runs `run`, shows its error in `status`, then refreshes the table. */
export function actionButton(label: string, run: () => Promise<unknown>, refresh: () => Promise<void>, status: HTMLElement): HTMLElement {
  return h(
    "button.small",
    {
      type: "button",
      onclick: async () => {
        status.textContent = "";
        try {
          await run();
        } catch (e) {
          status.textContent = (e as Error).message;
        }
        await refresh();
      },
    },
    label,
  );
}

/**
 * A page's refresh: runs `load` unless the last run is still awaited (a poll skips a beat while an
 * answer, or the admin token, is awaited), and shows its error in `status` when it fails.
 */
export function refresher(status: HTMLElement, load: () => Promise<void>): () => Promise<void> {
  let busy = false;
  return async () => {
    if (busy) return;
    busy = true;
    try {
      await load();
    } catch (e) {
      status.textContent = (e as Error).message;
    } finally {
      busy = false;
    }
  };
}
