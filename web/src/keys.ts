// Virtual keys: create one, grant it tools per client, revoke (deactivate) or delete it.
import type { ClientsView, VirtualKeysView, VirtualKeyView as VirtualKey } from "../../src/api/types";
import { api } from "./api";
import { actionButton, clearErrors, field, fill, h, showError } from "./dom";
import { openSheet } from "./sheet";
import { toolPicker, type ToolPicker } from "./tool-picker";

export function keysPage(root: HTMLElement): () => void {
  const body = h("tbody");
  const status = h("div.form-error");
  const refresh = async () => {
    try {
      const { virtual_keys } = await api<VirtualKeysView>("GET", "/api/governance/virtual-keys");
      fill(body, virtual_keys.length ? virtual_keys.map((k) => row(k, refresh, status)) : h("tr", h("td.empty", { colSpan: 5 }, "No virtual keys: callers without one see every tool.")));
    } catch (e) {
      status.textContent = (e as Error).message;
    }
  };
  fill(
    root,
    h("div.page-head", h("h1", "Virtual keys"), h("button.primary#create-key", { onclick: () => void editKey(null, refresh) }, "Create key")),
    h("p.lead", "A caller presenting a key (x-bf-vk header) sees and calls only the tools it grants."),
    status,
    h("table.grid#keys", h("thead", h("tr", h("th", "Name"), h("th", "Value"), h("th", "Status"), h("th", "Grants"), h("th", ""))), body),
  );
  void refresh();
  return () => undefined;
}

function row(k: VirtualKey, refresh: () => Promise<void>, status: HTMLElement): HTMLElement {
  const path = `/api/governance/virtual-keys/${encodeURIComponent(k.id)}`;
  const act = (label: string, run: () => Promise<unknown>) => actionButton(label, run, refresh, status);
  return h(
    "tr",
    { dataset: { key: k.name } },
    h("td", h("strong", k.name), k.description ? h("div.hint", k.description) : null),
    h("td", h("code.secret", k.value)),
    h("td", h(`span.pill.${k.is_active ? "on" : "off"}`, k.is_active ? "active" : "revoked")),
    h("td", k.mcp_configs.length ? k.mcp_configs.map((g) => h("div", h("strong", g.client_name), ": ", g.tools_to_execute.join(", ") || "(none)")) : h("span.hint", "no tools")),
    h(
      "td.row-actions",
      act("Edit", () => editKey(k, refresh)),
      k.is_active ? act("Revoke", () => api("PUT", path, { is_active: false })) : act("Activate", () => api("PUT", path, { is_active: true })),
      act("Delete", async () => {
        if (confirm(`Delete virtual key '${k.name}'? Callers presenting it are refused from now on.`)) await api("DELETE", path);
      }),
    ),
  );
}

async function editKey(key: VirtualKey | null, refresh: () => Promise<void>): Promise<void> {
  const { clients } = await api<ClientsView>("GET", "/api/mcp/clients");
  const name = h("input", { type: "text", name: "name", value: key?.name ?? "", autocomplete: "off" });
  const description = h("input", { type: "text", name: "description", value: key?.description ?? "" });
  const value = h("input", { type: "text", name: "value", value: key?.value ?? "", placeholder: "generated when empty", autocomplete: "off" });
  const grants: { client: string; on: HTMLInputElement; picker: ToolPicker }[] = clients.map((c) => {
    const grant = key?.mcp_configs.find((g) => g.client_name === c.name);
    return {
      client: c.name,
      on: h("input", { type: "checkbox", name: `grant-${c.name}`, checked: grant !== undefined }),
      picker: toolPicker(`grant-${c.name}`, c.tools, grant?.tools_to_execute ?? [], "All its tools (*)"),
    };
  });
  const form = h(
    "form.sheet-form#key-form",
    h("div.form-error", { role: "alert" }),
    field("Name", "name", name),
    field("Description", "description", description),
    field("Value", "value", value, "What callers send in the x-bf-vk header"),
    h("h3", "Tools granted, per client"),
    grants.length
      ? grants.map((g) => {
          const sync = () => (g.picker.el.hidden = !g.on.checked);
          g.on.addEventListener("change", sync);
          sync();
          return h("div.field.grant", { dataset: { field: `mcp_configs.${g.client}`, client: g.client } }, h("label.check", g.on, h("strong", g.client)), g.picker.el, h("div.error"));
        })
      : h("p.hint", "No clients yet: add one to grant its tools."),
    h("div.field", { dataset: { field: "mcp_configs" } }, h("div.error")),
    h("div.actions", h("button.primary", { type: "submit" }, key ? "Save changes" : "Create key")),
  );
  const sheet = openSheet(key ? `Virtual key ${key.name}` : "Create virtual key", form);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    clearErrors(form);
    const body: Record<string, unknown> = {
      name: name.value.trim(),
      description: description.value.trim() || undefined,
      mcp_configs: grants.filter((g) => g.on.checked).map((g) => ({ client_name: g.client, tools_to_execute: g.picker.value() })),
    };
    if (value.value.trim() !== "") body.value = value.value.trim();
    try {
      if (key) await api("PUT", `/api/governance/virtual-keys/${encodeURIComponent(key.id)}`, body);
      else await api("POST", "/api/governance/virtual-keys", body);
      sheet.close();
      await refresh();
    } catch (err) {
      showError(form, (err as Error).message);
    }
  });
  name.focus();
}
