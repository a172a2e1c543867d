// The project's layers, checked on the compiled JavaScript (dist/) by test/architecture.test.ts
// and `npm run check:layers`. Lowest first: grammar, interpreter (the sandbox), upstream (MCP
// connections), codemode (stubs, search, the bridge), gateway (the domain: clients, keys,
// visibility), agent (agent mode), api (HTTP), telemetry (traces and metrics: it follows the
// gateway's events and gives buildServer its hooks), cli (the binaries; src/open-gateway.ts,
// beside the layers, composes them for the CLI, embedders and tests). A module may import its
// own layer and the layers below it, never one above: the rules below forbid each upward edge.
const LAYERS = ["grammar", "src/interpreter", "src/upstream", "src/codemode", "src/gateway", "src/agent", "src/api", "src/telemetry", "src/cli"];

/** Which lower layers each layer may not import although they are below it (kept apart on purpose). */
const APART = {
  // Upstream connections know nothing of the sandbox.
  "src/upstream": ["grammar", "src/interpreter"],
};

/**
 * Modules a layer may import although the rules above keep it apart: a client's name becomes a
 * Python global, so upstream config checks it against the grammar's one keyword list.
 */
const EXCEPT = {
  "src/upstream": ["grammar/tokens\\.js"],
};

const forbidden = [];
LAYERS.forEach((layer, i) => {
  const above = LAYERS.slice(i + 1);
  const apart = APART[layer] ?? [];
  const targets = [...above, ...apart];
  if (targets.length === 0) return;
  forbidden.push({
    name: `layer-${layer.replace("src/", "")}`,
    comment: `${layer} may not import ${targets.join(", ")}`,
    severity: "error",
    from: { path: `^dist/${layer}/` },
    to: { path: `^dist/(${targets.join("|")})/`, ...(EXCEPT[layer] ? { pathNot: `^dist/(${EXCEPT[layer].join("|")})$` } : {}) },
  });
});

// The composition of every layer (src/open-gateway.ts) is for the CLI, embedders and tests only.
forbidden.push({
  name: "composition-from-cli",
  comment: "only src/cli may import src/open-gateway.js, which composes every layer",
  severity: "error",
  from: { path: "^dist/(grammar/|src/(?!cli/))" },
  to: { path: "^dist/src/open-gateway\\.js$" },
});

// The layers above the interpreter see it through one module.
forbidden.push({
  name: "interpreter-through-index",
  comment: "outside src/interpreter, import the interpreter only through src/interpreter/index.js",
  severity: "error",
  from: { path: "^dist/src/", pathNot: "^dist/src/interpreter/" },
  to: { path: "^dist/src/interpreter/", pathNot: "^dist/src/interpreter/index\\.js$" },
});

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "\\.map$" },
  },
};
