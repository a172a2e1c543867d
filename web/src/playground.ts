// Playground: pick a virtual key (or none), browse the virtual files and stubs that caller's model
// would see, write a script and run it through executeToolCode, and read what it did.
import type { ExecutionView as Execution, PlaygroundAnswer, PlaygroundFiles, VirtualKeysView } from "../../src/api/types";
import { api } from "./api";
import { fill, formatDuration, h } from "./dom";

const SAMPLE = `# Each code-mode server is a global; browse its stub on the left.
print("hello from the sandbox")
RESULT = {"sum": sum(range(10))}
`;

let savedCode = SAMPLE;
let savedKey = "";

export function playgroundPage(root: HTMLElement): () => void {
  const keySelect = h("select#pg-key", { name: "key" }, h("option", { value: "" }, "none (unrestricted)"));
  const files = h("ul.files#pg-files");
  const stub = h("pre.stub#pg-stub", "Choose a file to see its stub.");
  const stubTitle = h("div.panel-title", "Stub");
  const code = h("textarea#pg-code", { spellcheck: false, name: "code", rows: 14 }, savedCode);
  const gutter = h("div.gutter");
  const run = h("button.primary#pg-run", { type: "button" }, "Run");
  const out = h("div#pg-output");
  const status = h("div.form-error");

  const syncGutter = () => {
    const lines = code.value.split("\n").length;
    fill(gutter, Array.from({ length: lines }, (_, i) => h("div", String(i + 1))));
    gutter.scrollTop = code.scrollTop;
  };
  code.addEventListener("input", () => {
    savedCode = code.value;
    syncGutter();
  });
  code.addEventListener("scroll", () => (gutter.scrollTop = code.scrollTop));
  code.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      run.click();
    } else if (e.key === "Tab") {
      e.preventDefault();
      code.setRangeText("    ", code.selectionStart, code.selectionEnd, "end");
      code.dispatchEvent(new Event("input"));
    }
  });
  syncGutter();

  const call = (tool: string, args: Record<string, unknown>) =>
    api<PlaygroundAnswer>("POST", "/api/ui/playground/call", { ...(keySelect.value ? { key: keySelect.value } : {}), tool, arguments: args });

  const loadFiles = async () => {
    status.textContent = "";
    fill(stub, "Choose a file to see its stub.");
    fill(stubTitle, "Stub");
    try {
      const query = keySelect.value ? `?key=${encodeURIComponent(keySelect.value)}` : "";
      const listing = await api<PlaygroundFiles>("GET", `/api/ui/playground/files${query}`);
      if (!listing.files.length) {
        fill(files, h("li.hint", "No tools visible: no code-mode client is connected, or this key grants none."));
        return;
      }
      fill(
        files,
        listing.files.map((f) => {
          const item = h(
            "li",
            h(
              "button.file",
              {
                type: "button",
                dataset: { path: f.path },
                onclick: async () => {
                  for (const b of files.querySelectorAll(".file.selected")) b.classList.remove("selected");
                  item.querySelector(".file")!.classList.add("selected");
                  fill(stubTitle, f.path);
                  try {
                    fill(stub, (await call("readToolFile", { fileName: f.path })).text);
                  } catch (e) {
                    fill(stub, (e as Error).message);
                  }
                },
              },
              h("span.path", f.path),
              h("span.hint", ` ${f.tools.length} tool${f.tools.length === 1 ? "" : "s"}`),
            ),
            h("div.tool-names", f.tools.join(", ")),
          );
          return item;
        }),
      );
    } catch (e) {
      status.textContent = (e as Error).message;
    }
  };

  keySelect.addEventListener("change", () => {
    savedKey = keySelect.value;
    fill(out);
    void loadFiles();
  });

  run.addEventListener("click", async () => {
    run.disabled = true;
    fill(out, h("p.hint", "Running..."));
    try {
      const answer = await call("executeToolCode", { code: code.value });
      fill(out, answer.execution ? renderExecution(answer.execution, code.value) : h("pre", answer.text));
    } catch (e) {
      fill(out, h("div.form-error", (e as Error).message));
    } finally {
      run.disabled = false;
    }
  });

  fill(
    root,
    h("div.page-head", h("h1", "Playground"), h("label.inline", "Virtual key ", keySelect)),
    h("p.lead", "What a model using this key would see, and a script run exactly as executeToolCode runs it (it is logged)."),
    status,
    h(
      "div.playground",
      h("section.panel.browse", h("div.panel-title", "Virtual files"), files, stubTitle, stub),
      h(
        "section.panel.work",
        h("div.panel-title", "Script ", h("span.hint", "Ctrl+Enter runs it")),
        h("div.editor", gutter, code),
        h("div.actions", run),
        out,
      ),
    ),
  );

  void (async () => {
    try {
      const { virtual_keys } = await api<VirtualKeysView>("GET", "/api/governance/virtual-keys");
      for (const k of virtual_keys.filter((k) => k.is_active)) keySelect.append(h("option", { value: k.id }, k.name));
      if ([...keySelect.options].some((o) => o.value === savedKey)) keySelect.value = savedKey;
    } catch (e) {
      status.textContent = (e as Error).message;
    }
    await loadFiles();
  })();
  return () => undefined;
}

function renderExecution(x: Execution, source: string): HTMLElement {
  const ok = x.error === null;
  const lines = source.split("\n");
  return h(
    "div.result",
    h(
      `div.outcome.${ok ? "ok" : "bad"}#pg-outcome`,
      ok ? "Completed" : `${x.error!.type}`,
      h("span.hint", ` in ${formatDuration(x.duration_seconds)}, ${x.stats.steps.toLocaleString("en")} step${x.stats.steps === 1 ? "" : "s"}, ${x.tool_calls.length} tool call${x.tool_calls.length === 1 ? "" : "s"}`),
    ),
    x.error
      ? h(
          "div.error-box#pg-error",
          h("div.message", `${x.error.type}: ${x.error.message}`, x.error.line !== null ? h("span.hint", ` (line ${x.error.line}${x.error.column !== null ? `, column ${x.error.column}` : ""})`) : null),
          x.error.line !== null
            ? h(
                "pre.listing",
                lines.map((text, i) => h(i + 1 === x.error!.line ? "div.line.hit" : "div.line", h("span.no", String(i + 1)), text || " ")),
              )
            : null,
          x.error.hints.length ? h("ul.hints", x.error.hints.map((t) => h("li", t))) : null,
        )
      : null,
    h("div.panel-title", "Print output"),
    h("pre#pg-stdout", x.stdout || h("span.hint", "(nothing printed)")),
    ok ? [h("div.panel-title", "Result"), h("pre#pg-result", x.result ?? h("span.hint", "None (set RESULT to return a value)"))] : null,
    h("div.panel-title", "Tool calls"),
    x.tool_calls.length
      ? h(
          "table.grid#pg-calls",
          h("thead", h("tr", h("th", "#"), h("th", "Tool"), h("th", "Outcome"), h("th.num", "Duration"))),
          h(
            "tbody",
            x.tool_calls.map((c, i) =>
              h("tr", h("td", String(i + 1)), h("td", h("code", `${c.server}.${c.tool}`)), h("td", c.ok ? h("span.pill.on", "ok") : h("span.bad", c.error ?? "failed")), h("td.num", formatDuration(c.duration_seconds))),
            ),
          ),
        )
      : h("p.hint", "No tool calls."),
  );
}
