import { scan } from "../grammar/lexer.js";
import { readFileSync } from "node:fs";
const src = readFileSync(new URL("../../bench/parse-quick.ts", import.meta.url), "utf8").split("`")[1]!;
for (let r = 0; r < 5; r++) {
  const n = 20000;
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) scan(src);
  console.log(`scan ${(Number(process.hrtime.bigint() - t) / n / 1000).toFixed(1)}us`);
}
