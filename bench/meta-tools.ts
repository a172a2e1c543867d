// Tokens (o200k) of the meta-tool definitions as an OpenAI `tools` array: what every request
// carries in code mode. `npm run bench:meta-tools`.
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { metaToolDefinitions } from "../src/codemode/meta-tools.js";
import { writeSection } from "./results.js";

const asOpenAi = (d: { name: string; description: string; inputSchema: Record<string, unknown> }) => ({
  type: "function",
  function: { name: d.name, description: d.description, parameters: d.inputSchema },
});

const defs = metaToolDefinitions();
const rows = defs.map((d) => `| ${d.name} | ${encode(JSON.stringify(asOpenAi(d))).length} |`);
const total = encode(JSON.stringify(defs.map(asOpenAi))).length;
const table = ["| meta-tool | tokens |", "|---|---:|", ...rows, `| **all five, as one tools array** | **${total}** |`].join("\n");
console.log(table);
if (process.argv.includes("--write")) writeSection(
  "bench:meta-tools",
  "Meta-tool definitions: tokens per request",
  "npm run bench:meta-tools -- --write",
  `${table}\n\nTarget: all five under 1,200 tokens. Counted with gpt-tokenizer's o200k_base on the JSON of the OpenAI tools array.`,
);
