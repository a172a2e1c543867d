#!/usr/bin/env node
// code-mode-gateway: the server. Until the gateway service lands (issue #6) it reports what is
// ready and exits cleanly, so `npm ci && npm start` works on a fresh checkout from day one.
import { parse } from "../../grammar/parse.js";

const sample = 'result = [x * 2 for x in range(3)]\nprint(f"{result=}")\n';
const module = parse(sample);
console.log("code-mode-gateway 0.1.0");
console.log(`  grammar: ready (parsed a ${module.body.length}-statement sample script)`);
console.log("  interpreter, upstream MCP connections, HTTP API: not built yet; see README.md");
