// The syntax-diagram page is generated from the live grammar and works offline.
import { describe, expect, it } from "vitest";
import { diagramsHtml } from "../../grammar/diagrams.js";

describe("grammar diagrams", () => {
  it("draws every rule of the parser in a self-contained page", () => {
    const html = diagramsHtml();
    for (const rule of ["file", "statement", "expression", "operators", "primary", "fstring", "replacementField", "parameters"]) {
      expect(html).toContain(`"name": "${rule}"`);
    }
    expect(html).not.toMatch(/<script src=|<link rel='stylesheet' href=|unpkg\.com/);
    expect(html).toContain("drawDiagramsFromSerializedGrammar");
  });
});
