// MCP clients: the table of upstream servers, and the sheet to add or edit one.
import type { ClientsView, ClientView as Client } from "../../src/api/types";
import { api } from "./api";
import { actionButton, clearErrors, field, fill, h, linesOf, refresher, showError } from "./dom";
import { openSheet } from "./sheet";
import { toolPicker } from "./tool-picker";

export function clientsPage(root: HTMLElement): () => void {
  const body = h("tbody");
  const status = h("div.form-error");
  const refresh: () => Promise<void> = refresher(status, async () => {
    const { clients } = await api<ClientsView>("GET", "/api/mcp/clients");
    fill(body, clients.length ? clients.map((c) => row(c, refresh, status)) : h("tr", h("td.empty", { colSpan: 6 }, "No clients yet: add one.")));
  });
  fill(
    root,
    h("div.page-head", h("h1", "MCP clients"), h("button.primary#add-client", { onclick: () => editClient(null, refresh) }, "Add client")),
    h("p.lead", "Upstream MCP servers. A code-mode client's tools reach the model as Python stubs and scripts, not as tool definitions."),
    status,
    h(
      "table.grid#clients",
      h("thead", h("tr", h("th", "Name"), h("th", "Connection"), h("th", "State"), h("th.num", "Tools"), h("th", "Code mode"), h("th", ""))),
      body,
    ),
  );
  void refresh();
  // Connection states change on their own (connecting, reconnecting): keep the table fresh.
  const timer = setInterval(() => void refresh(), 2000);
  return () => clearInterval(timer);
}

function row(c: Client, refresh: () => Promise<void>, status: HTMLElement): HTMLElement {
  const act = (label: string, run: () => Promise<unknown>) => actionButton(label, run, refresh, status);
  const where = c.connection_type === "stdio" ? [c.stdio_config?.command, ...(c.stdio_config?.args ?? [])].join(" ") : (c.connection_string ?? "");
  return h(
    "tr",
    { dataset: { client: c.name } },
    h("td", h("a", { href: "#", onclick: (e: Event) => (e.preventDefault(), editClient(c, refresh)) }, h("strong", c.name))),
    h("td", h("span.tag", c.connection_type), " ", h("code.where", { title: where }, where)),
    h("td", h(`span.state.${c.state}`, c.state), c.last_error ? h("div.hint.bad", c.last_error) : null),
    h("td.num.tools", String(c.tools.length)),
    h("td.code-mode", h(`span.pill.${c.is_code_mode_client ? "on" : "off"}`, c.is_code_mode_client ? "on" : "off")),
    h(
      "td.row-actions",
      act("Edit", async () => editClient(c, refresh)),
      act("Reconnect", () => api("POST", `/api/mcp/client/${encodeURIComponent(c.id)}/reconnect`)),
      act("Delete", async () => {
        if (confirm(`Delete client '${c.name}'? Virtual keys lose their grants on it.`)) await api("DELETE", `/api/mcp/client/${encodeURIComponent(c.id)}`);
      }),
    ),
  );
}

/** "KEY=value" or "Name: value" lines as an object. */
function pairs(text: string, separator: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of linesOf(text)) {
    const at = line.indexOf(separator);
    if (at < 0) out[line] = "";
    else out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

/** The sheet for a new client (`client` null) or an existing one. */
function editClient(client: Client | null, refresh: () => Promise<void>): void {
  const adding = client === null;
  const name = h("input", { type: "text", name: "name", value: client?.name ?? "", placeholder: "e.g. github", autocomplete: "off" });
  const type = h("select", { name: "connection_type", disabled: !adding }, ["http", "sse", "stdio"].map((t) => h("option", { value: t, selected: client?.connection_type === t }, t)));
  const url = h("input", { type: "text", name: "connection_string", value: client?.connection_string ?? "", placeholder: "http://127.0.0.1:3001/mcp", disabled: !adding });
  const headers = h("textarea", { name: "headers", rows: 2, placeholder: adding ? "Authorization: Bearer ..." : "leave empty to keep the current ones" });
  const command = h("input", { type: "text", name: "command", value: client?.stdio_config?.command ?? "", placeholder: "npx", disabled: !adding });
  const args = h("textarea", { name: "args", rows: 3, placeholder: "one argument per line", disabled: !adding }, (client?.stdio_config?.args ?? []).join("\n"));
  const env = h("textarea", { name: "env", rows: 2, placeholder: "KEY=value, one per line", disabled: !adding });
  const codeMode = h("input", { type: "checkbox", name: "is_code_mode_client", checked: client?.is_code_mode_client ?? true });
  const disabled = h("input", { type: "checkbox", name: "disabled", checked: client?.disabled ?? false });
  const validate = h("input", { type: "checkbox", name: "validate_arguments", checked: client?.validate_arguments ?? true });
  const offered = client?.tools ?? [];
  const execute = toolPicker("tools_to_execute", offered, client?.tools_to_execute ?? ["*"]);
  const auto = toolPicker("tools_to_auto_execute", offered, client?.tools_to_auto_execute ?? []);

  const httpFields = h(
    "div",
    field("URL", "connection_string", url),
    field(
      "Headers",
      "headers",
      headers,
      adding || !client?.header_keys.length
        ? "Name: value, one per line; stored, never shown again"
        : `Set now: ${client.header_keys.join(", ")}. Lines typed here replace them all.`,
    ),
  );
  const stdioFields = h(
    "div",
    field("Command", "stdio_config.command", command),
    field("Arguments", "stdio_config.args", args),
    adding ? field("Environment", "stdio_config.env", env, "KEY=value, one per line") : client?.stdio_config?.env_keys.length ? h("p.hint", `Environment: ${client.stdio_config.env_keys.join(", ")}`) : null,
  );
  const showConnection = () => {
    httpFields.hidden = type.value === "stdio";
    stdioFields.hidden = type.value !== "stdio";
  };
  type.addEventListener("change", showConnection);
  showConnection();

  const form = h(
    "form.sheet-form#client-form",
    h("div.form-error", { role: "alert" }),
    h("h3", "Basic information"),
    field("Name", "name", name, "Becomes the Python global: letters, digits, underscores"),
    field("Connection type", "connection_type", type, adding ? undefined : "Fixed once added: delete and add again to change"),
    httpFields,
    stdioFields,
    h("div.field.toggle", { dataset: { field: "is_code_mode_client" } }, h("label.switch", codeMode, h("span.slider"), " Code Mode server"), h("div.hint", "Its tools are reached through listToolFiles, readToolFile and executeToolCode"), h("div.error")),
    adding ? null : h("div.field", { dataset: { field: "disabled" } }, h("label.check", disabled, "Disabled (keep the config, close the connection)"), h("div.error")),
    h("div.field", { dataset: { field: "validate_arguments" } }, h("label.check", validate, "Check arguments against each tool's schema"), h("div.error")),
    h("h3", "Tools", adding ? null : h("span.hint", ` ${offered.length} offered by the server`)),
    h("div.field", { dataset: { field: "tools_to_execute" } }, h("label", "Tools to execute"), execute.el, h("div.error")),
    h("div.field", { dataset: { field: "tools_to_auto_execute" } }, h("label", "Tools to auto-execute"), auto.el, h("div.hint", "A subset of the tools to execute"), h("div.error")),
    h("div.actions", h("button.primary", { type: "submit" }, adding ? "Add client" : "Save changes")),
  );
  const sheet = openSheet(adding ? "Add MCP client" : `Client ${client.name}`, form);

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    clearErrors(form);
    const body: Record<string, unknown> = {
      name: name.value.trim(),
      is_code_mode_client: codeMode.checked,
      validate_arguments: validate.checked,
      tools_to_execute: execute.value(),
      tools_to_auto_execute: auto.value(),
    };
    if (adding) {
      body.connection_type = type.value;
      if (type.value === "stdio") body.stdio_config = { command: command.value.trim(), args: linesOf(args.value), env: pairs(env.value, "=") };
      else {
        body.connection_string = url.value.trim();
        body.headers = pairs(headers.value, ":");
      }
    } else {
      body.disabled = disabled.checked;
      if (headers.value.trim() !== "") body.headers = pairs(headers.value, ":");
    }
    try {
      if (adding) await api("POST", "/api/mcp/client", body);
      else await api("PUT", `/api/mcp/client/${encodeURIComponent(client.id)}`, body);
      sheet.close();
      await refresh();
    } catch (err) {
      showError(form, (err as Error).message);
    }
  });
  name.focus();
}
