// Code mode settings: the binding level, the seven limits and the timeout. An empty field means
// the default; each change is checked by the API (a dry run) so its message shows before saving.
import type { ConfigView, LimitName, UiDefaults } from "../../src/api/types";
import { api } from "./api";
import { clearErrors, field, fill, h, showError } from "./dom";

const ABOUT: Record<LimitName, string> = {
  max_source_bytes: "bytes of a script, checked before parsing",
  max_steps: "interpreter steps, including work inside builtins",
  max_memory_bytes: "estimated allocation, charged before allocating",
  max_log_bytes: "bytes of printed output",
  max_tool_calls: "tool calls in one script",
  max_value_bytes: "bytes of each value crossing the boundary (0, or at least 1024)",
  max_nesting_depth: "nesting of those values (at most 1000)",
  tool_execution_timeout: "seconds, for each tool call and the whole run",
};

/** A field's text as the API gets it: a number when it reads as one, else the text (refused, by name). */
function valueOf(text: string): unknown {
  const t = text.trim();
  return /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(t) ? Number(t) : t;
}

export function settingsPage(root: HTMLElement): () => void {
  const status = h("div.status");
  const form = h("form.settings#settings-form", h("div.form-error", { role: "alert" }));
  const failed = h("div.form-error");
  fill(root, h("div.page-head", h("h1", "Code mode")), h("p.lead", "Applied to every execution that starts after saving; running ones keep the settings they began with."), failed, form);

  void (async () => {
    let defaults: UiDefaults;
    let current: ConfigView;
    try {
      [defaults, current] = await Promise.all([api<UiDefaults>("GET", "/api/ui/defaults"), api<ConfigView>("GET", "/api/config")]);
    } catch (e) {
      failed.textContent = (e as Error).message;
      return;
    }
    const config = current.client_config;
    const binding = h(
      "select",
      { name: "binding_level" },
      h("option", { value: "server", selected: config.mcp_code_mode_binding_level === "server" }, "server: one .pyi file per server"),
      h("option", { value: "tool", selected: config.mcp_code_mode_binding_level === "tool" }, "tool: one .pyi file per tool"),
    );
    // The limits in the server's order; the timeout, its own setting in the API, comes last.
    const limitFields = (Object.keys(defaults.limits) as LimitName[]).filter((f) => f !== "tool_execution_timeout");
    const inputs = new Map<LimitName, HTMLInputElement>();
    const shownValue = (f: LimitName) => {
      const v = f === "tool_execution_timeout" ? config.mcp_tool_execution_timeout : config.mcp_code_mode_limits[f];
      return v === defaults.limits[f] ? "" : String(v);
    };
    const rows = [...limitFields, "tool_execution_timeout" as const].map((f) => {
      const input = h("input", { type: "text", inputMode: "decimal", name: f, value: shownValue(f), placeholder: `default: ${defaults.limits[f]}`, autocomplete: "off" });
      inputs.set(f, input);
      const key = f === "tool_execution_timeout" ? "client_config.mcp_tool_execution_timeout" : `client_config.mcp_code_mode_limits.${f}`;
      return h("div.limit", field(f, key, input, `${ABOUT[f]}; default ${defaults.limits[f].toLocaleString("en")}`));
    });

    const update = () => {
      const limits: Record<string, unknown> = {};
      for (const f of limitFields) {
        const text = inputs.get(f)!.value;
        if (text.trim() !== "") limits[f] = valueOf(text);
      }
      const timeout = inputs.get("tool_execution_timeout")!.value;
      // The limits object replaces the current one (a missing limit takes its default); the
      // timeout is its own setting, where 0 means the default.
      return {
        client_config: {
          mcp_code_mode_binding_level: binding.value,
          mcp_code_mode_limits: limits,
          mcp_tool_execution_timeout: timeout.trim() === "" ? 0 : valueOf(timeout),
        },
      };
    };

    let checking = 0;
    const check = async () => {
      const mine = ++checking;
      try {
        await api("POST", "/api/ui/config/check", update());
        if (mine === checking) clearErrors(form);
        return true;
      } catch (e) {
        if (mine === checking) showError(form, (e as Error).message);
        return false;
      }
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    form.addEventListener("input", () => {
      status.textContent = "";
      clearTimeout(timer);
      timer = setTimeout(() => void check(), 200);
    });

    form.append(
      h("h3", "Binding level"),
      field("Virtual files", "client_config.mcp_code_mode_binding_level", binding),
      h("h3", "Limits", h("span.hint", " leave a field empty to use its default")),
      h("div.limits", rows),
      h(
        "div.actions",
        h("button.primary#save-settings", { type: "submit" }, "Save"),
        h(
          "button",
          {
            type: "button",
            onclick: () => {
              for (const input of inputs.values()) input.value = "";
              form.dispatchEvent(new Event("input"));
            },
          },
          "Clear all (defaults)",
        ),
        status,
      ),
    );
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      clearTimeout(timer);
      status.textContent = "";
      try {
        const saved = await api<ConfigView>("PUT", "/api/config", update());
        clearErrors(form);
        Object.assign(config, saved.client_config);
        for (const [f, input] of inputs) input.value = shownValue(f);
        status.textContent = "Saved.";
      } catch (err) {
        showError(form, (err as Error).message);
      }
    });
  })();
  return () => undefined;
}
