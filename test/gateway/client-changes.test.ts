// The rules of changing clients, through the gateway's own API (no HTTP): a renamed client keeps
// its virtual keys' grants, a deleted one takes them along, names and ids stay unique, an update
// keeps the connection, and changes run one at a time. Real servers: the edge server over stdio
// (test/fixtures/edge-server.ts, built to dist/), each child marked to tell whether it is alive.
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callerForKey } from "../../src/gateway/caller.js";
import { ClientConflictError, ClientInputError, ClientNotFoundError } from "../../src/gateway/client-changes.js";
import { Gateway } from "../../src/gateway/gateway.js";
import type { VirtualKey } from "../../src/gateway/virtual-keys.js";
import { processesMarked } from "../fixtures/marked-processes.js";

const EDGE = fileURLToPath(new URL("../../dist/test/fixtures/edge-server.js", import.meta.url));

/** The fields of an edge-server client; `mark` goes into its child's environment. */
function edge(name: string, mark = randomUUID(), extra: Record<string, unknown> = {}) {
  return {
    name,
    connection_type: "stdio",
    stdio_config: { command: process.execPath, args: [EDGE], env: { EDGE_MARK: mark } },
    tools_to_execute: ["*"],
    is_code_mode_client: true,
    ...extra,
  };
}

const TEAM: VirtualKey = {
  id: "team",
  name: "team",
  value: "sk-bf-team",
  is_active: true,
  mcp_configs: [
    { client_name: "edge", tools_to_execute: ["echo"] },
    { client_name: "other", tools_to_execute: ["*"] },
  ],
};

let gateway: Gateway;

beforeEach(async () => {
  gateway = new Gateway();
  gateway.keys.load([TEAM]);
});

afterEach(async () => {
  await gateway.close();
});

describe("grants follow their client", () => {
  it("a renamed client keeps its keys' grants, and the key can call it under its new name", async () => {
    await gateway.createClient(edge("edge"));
    await gateway.manager.settled(15_000);
    const renamed = await gateway.renameClient("edge", "edge2");
    expect(renamed.name).toBe("edge2");
    expect(gateway.keys.get("team")!.mcp_configs).toEqual([
      { client_name: "edge2", tools_to_execute: ["echo"] },
      { client_name: "other", tools_to_execute: ["*"] },
    ]);
    await gateway.manager.settled(15_000);
    const caller = callerForKey(gateway.keys, gateway.keys.get("team")!);
    const run = await gateway.callTool("executeToolCode", { code: "RESULT = edge2.echo(text='still mine')" }, caller);
    expect([run.isError, run.text]).toEqual([false, expect.stringContaining("still mine")]);
  }, 30_000);

  it("a deleted client takes its grants along, so a new client of its name inherits nothing", async () => {
    await gateway.createClient(edge("edge"));
    await gateway.deleteClient("edge");
    expect(gateway.keys.get("team")!.mcp_configs).toEqual([{ client_name: "other", tools_to_execute: ["*"] }]);
    await gateway.createClient(edge("edge"));
    const caller = callerForKey(gateway.keys, gateway.keys.get("team")!);
    expect(gateway.permitted(caller, "edge", "echo")).toBe(false);
  }, 30_000);

  it("an update that keeps the name leaves the grants as they are", async () => {
    await gateway.createClient(edge("edge"));
    await gateway.updateClient("edge", { tools_to_auto_execute: ["echo"] });
    expect(gateway.keys.get("team")!.mcp_configs).toEqual(TEAM.mcp_configs);
  }, 30_000);
});

describe("what a change may not do", () => {
  it("refuses a name another client has, in any case, or another client's id", async () => {
    await gateway.createClient(edge("edge", undefined, { client_id: "e1" }));
    await expect(gateway.createClient(edge("EDGE"))).rejects.toThrow(new ClientConflictError("a client named 'edge' already exists"));
    await expect(gateway.createClient(edge("e1"))).rejects.toThrow(new ClientConflictError("'e1' is already the name or id of client 'edge'"));
    await gateway.createClient(edge("two"));
    await expect(gateway.renameClient("two", "Edge")).rejects.toThrow(ClientConflictError);
    expect(gateway.clientConfigs().map((c) => c.name)).toEqual(["edge", "two"]);
  }, 30_000);

  it("refuses fields that are no client config, naming the field", async () => {
    await expect(gateway.createClient({ ...edge("x"), stdio_config: { command: "" } })).rejects.toThrow(ClientInputError);
    await expect(gateway.createClient({ ...edge("x"), tools: [] })).rejects.toThrow(/^tools: unknown field \(/);
    expect(gateway.clientConfigs()).toEqual([]);
  });

  it("keeps an update from moving the connection or the id", async () => {
    await gateway.createClient(edge("edge", undefined, { client_id: "e-1" }));
    await expect(gateway.updateClient("e-1", { stdio_config: { command: "sh", args: [] } })).rejects.toThrow(/^stdio_config cannot be changed/);
    await expect(gateway.updateClient("e-1", { client_id: "e-2" })).rejects.toThrow(new ClientInputError("client_id cannot be changed (it is 'e-1')"));
  }, 30_000);

  it("names a client that does not exist", async () => {
    await expect(gateway.deleteClient("nope")).rejects.toThrow(new ClientNotFoundError("no client with id 'nope'"));
  });
});

describe("changes run one at a time", () => {
  it("a change asked for while another runs waits for it, and sees what it left", async () => {
    const first = randomUUID();
    await gateway.createClient(edge("edge", first));
    await gateway.manager.settled(15_000);
    expect(processesMarked(first)).toHaveLength(1);
    const done: string[] = [];
    const second = randomUUID();
    // Deleting waits for the child to end; adding a client of the same name is asked for at once.
    const deleting = gateway.deleteClient("edge").then(() => done.push("delete"));
    const adding = gateway.createClient(edge("edge", second)).then(() => done.push("create"));
    await Promise.all([deleting, adding]);
    expect(done).toEqual(["delete", "create"]);
    expect(processesMarked(first)).toEqual([]);
    expect(gateway.clientConfigs().map((c) => c.stdio_config?.env.EDGE_MARK)).toEqual([second]);
    await gateway.manager.settled(15_000);
    expect(gateway.manager.get("edge")!.state).toBe("connected");
  }, 30_000);

  it("a change that fails does not hold up the next", async () => {
    const failing = gateway.updateClient("nope", { disabled: true });
    const adding = gateway.createClient(edge("edge"));
    await expect(failing).rejects.toThrow(ClientNotFoundError);
    await expect(adding).resolves.toMatchObject({ name: "edge" });
  }, 30_000);
});
