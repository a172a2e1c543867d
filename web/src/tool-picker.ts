// Picks a tools_to_execute-style list: every tool ("*"), or some of the tools a server offers
// plus any other names typed in (a server that is not connected yet offers none).
import { h } from "./dom";

export interface ToolPicker {
  el: HTMLElement;
  value(): string[];
}

export function toolPicker(name: string, offered: readonly string[], current: readonly string[], allLabel = "All tools (*)"): ToolPicker {
  const all = h("input", { type: "checkbox", name: `${name}-all`, checked: current.includes("*") });
  const boxes = offered.map((tool) => h("input", { type: "checkbox", name: `${name}-tool`, value: tool, checked: current.includes(tool) }));
  const others = h("input", {
    type: "text",
    name: `${name}-other`,
    placeholder: offered.length ? "other tool names, comma-separated" : "tool names, comma-separated",
    value: current.filter((t) => t !== "*" && !offered.includes(t)).join(", "),
  });
  const list = h(
    "div.tool-list",
    boxes.map((box) => h("label.check", box, h("code", box.value))),
    others,
  );
  const sync = () => {
    list.classList.toggle("muted", all.checked);
    for (const b of boxes) b.disabled = all.checked;
    others.disabled = all.checked;
  };
  all.addEventListener("change", sync);
  sync();
  return {
    el: h("div.tool-picker", h("label.check", all, allLabel), list),
    value() {
      if (all.checked) return ["*"];
      const typed = others.value.split(",").map((t) => t.trim()).filter((t) => t !== "");
      return [...boxes.filter((b) => b.checked).map((b) => b.value), ...typed];
    },
  };
}
