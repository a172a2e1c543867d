// The `workspace` module: files in one folder the operator chose (`workspace_root` in the gateway
// config, `code-mode-exec --workspace DIR`), for outputs too large for RESULT and inputs prepared
// in advance. It is the sandbox's only I/O, so it is narrow:
//
// - Paths are relative, `/`-separated, without `..`, backslashes or NUL; absolute paths are
//   refused. Every existing component is checked with lstat, and a symbolic link is followed only
//   when its real path stays inside the folder (so a link to /etc is refused, one to a sibling
//   file is fine). Missing parent folders are created by the write functions.
// - Reading charges the file's size to max_memory_bytes (twice: bytes, then the string) and to
//   max_steps before it happens; a file larger than the memory left is refused unread.
// - Writing is capped per execution (`max_write_bytes`, default 16 MiB, all writes together):
//   exceeding it is a ResourceLimitError (workspace_max_write_bytes) the script cannot catch.
//   So is creating files and folders (`maxCreated`, default 1,000 per execution, both counted:
//   workspace_max_created), since a run of tiny writes fills a folder with inodes, not bytes; and
//   a path has at most 32 components (MAX_WORKSPACE_DEPTH), so no run nests folders without end.
//
// File operations are synchronous: natives cannot suspend, and the budgets keep each one small.
// The checks close the path tricks a script can play; the folder should still not be shared with
// processes that race to swap its folders for links while a script runs.
import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmdirSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";
import { PyException, pyError, ResourceLimitError } from "../errors.js";
import { bind, type Kwargs, type NativeContext, type NativeFn } from "../native.js";
import { after, type Pending } from "../objects.js";
import { waitable } from "../stepping.js";
import { cpLength } from "../strings.js";
import { PyDict, PyList, typeName, type Value } from "../values.js";
import { JSON_MODULE } from "./json.js";

export interface WorkspaceOptions {
  /** The folder (it must exist). */
  root: string;
  /** Bytes one execution may write in all (default DEFAULT_WORKSPACE_WRITE_BYTES). */
  maxWriteBytes?: number;
  /** Files and folders one execution may create in all (default DEFAULT_WORKSPACE_CREATED). */
  maxCreated?: number;
}

export const DEFAULT_WORKSPACE_WRITE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_WORKSPACE_CREATED = 1000;
/** Components a workspace path may have (`a/b/c` has 3). */
export const MAX_WORKSPACE_DEPTH = 32;

function osError(type: "OSError" | "FileNotFoundError" | "PermissionError", message: string): PyException {
  return pyError(type, message);
}

/** A checked relative path: its components, and how to show it. */
function components(fn: string, path: Value): string[] {
  if (typeof path !== "string") throw pyError("TypeError", `workspace.${fn}() path must be str, not ${typeName(path)}`);
  if (path.includes("\0")) throw pyError("ValueError", "a workspace path must not contain NUL");
  if (path.includes("\\")) throw pyError("ValueError", `workspace paths use '/' between folders, not '\\\\': ${JSON.stringify(path)}`);
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) {
    throw pyError("ValueError", `workspace paths are relative to the workspace folder; ${JSON.stringify(path)} is absolute`);
  }
  const parts = path.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.includes("..")) throw pyError("ValueError", `'..' is not allowed in workspace paths: ${JSON.stringify(path)}`);
  if (parts.length > MAX_WORKSPACE_DEPTH) {
    throw pyError("ValueError", `a workspace path has at most ${MAX_WORKSPACE_DEPTH} components; this one has ${parts.length}`);
  }
  return parts;
}

class Workspace {
  readonly root: string;
  readonly maxWrite: number;
  readonly maxCreated: number;
  written = 0;
  /** Files and folders this execution created. */
  created = 0;

  constructor(options: WorkspaceOptions) {
    try {
      this.root = realpathSync(options.root);
    } catch {
      throw osError("FileNotFoundError", `the workspace folder ${options.root} does not exist`);
    }
    this.maxWrite = options.maxWriteBytes && options.maxWriteBytes > 0 ? options.maxWriteBytes : DEFAULT_WORKSPACE_WRITE_BYTES;
    this.maxCreated = options.maxCreated && options.maxCreated > 0 ? options.maxCreated : DEFAULT_WORKSPACE_CREATED;
  }

  /** Counts one more file or folder made at `shown`, refused before it is made past the cap. */
  private create(what: "file" | "folder", shown: string): void {
    if (this.created >= this.maxCreated) {
      throw new ResourceLimitError("workspace_max_created", this.maxCreated, `creating the ${what} ${JSON.stringify(shown)} after ${this.created} files and folders created`);
    }
    this.created++;
  }

  private inside(real: string): boolean {
    return real === this.root || real.startsWith(this.root.endsWith(sep) ? this.root : this.root + sep);
  }

  /** `at` itself, or where the link at `at` really leads, refused when that is outside. */
  private follow(at: string, shown: string): string {
    let real: string;
    try {
      real = realpathSync(at);
    } catch {
      throw osError("FileNotFoundError", `${JSON.stringify(shown)} is a link to nothing`);
    }
    if (!this.inside(real)) throw osError("PermissionError", `${JSON.stringify(shown)} is a link that leaves the workspace (refused)`);
    return real;
  }

  /**
   * The real path of `path`. `create` makes missing parent folders (for writes); the last
   * component may be missing unless `mustExist`; `linkItself` names a final link, not its target.
   */
  resolve(fn: string, path: Value, options: { create?: boolean; mustExist?: boolean; linkItself?: boolean } = {}): { at: string; shown: string; exists: boolean } {
    const parts = components(fn, path);
    const shown = parts.join("/") || ".";
    let at = this.root;
    for (let i = 0; i < parts.length; i++) {
      const next = join(at, parts[i]!);
      const last = i === parts.length - 1;
      const soFar = parts.slice(0, i + 1).join("/");
      let stat;
      try {
        stat = lstatSync(next);
      } catch {
        stat = null;
      }
      if (stat === null) {
        if (last) {
          if (options.mustExist) throw osError("FileNotFoundError", `no such file in the workspace: ${JSON.stringify(shown)}`);
          return { at: next, shown, exists: false };
        }
        if (!options.create) throw osError("FileNotFoundError", `no such folder in the workspace: ${JSON.stringify(soFar)}`);
        this.create("folder", soFar);
        mkdirSync(next);
        at = next;
        continue;
      }
      if (last && options.linkItself) return { at: next, shown, exists: true };
      at = stat.isSymbolicLink() ? this.follow(next, soFar) : next;
      if (!last && !statSync(at).isDirectory()) throw osError("OSError", `${JSON.stringify(soFar)} is a file, not a folder`);
    }
    return { at, shown, exists: true };
  }

  read(ctx: NativeContext, fn: string, path: Value): string {
    const { at, shown } = this.resolve(fn, path, { mustExist: true });
    const stat = statSync(at);
    if (stat.isDirectory()) throw osError("OSError", `${JSON.stringify(shown)} is a folder; use workspace.list()`);
    ctx.budget.step(stat.size >> 6);
    ctx.budget.alloc(3 * stat.size);
    const bytes = readFileSync(at);
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw pyError("UnicodeDecodeError", `'utf-8' codec can't decode ${JSON.stringify(shown)}: it is not UTF-8 text`);
    }
  }

  write(ctx: NativeContext, fn: string, path: Value, text: string): void {
    const bytes = Buffer.byteLength(text);
    if (this.written + bytes > this.maxWrite) {
      throw new ResourceLimitError(
        "workspace_max_write_bytes",
        this.maxWrite,
        `writing ${bytes} bytes to ${JSON.stringify(typeof path === "string" ? path : "")} after ${this.written} already written`,
      );
    }
    const { at, shown, exists } = this.resolve(fn, path, { create: true });
    if (exists && statSync(at).isDirectory()) throw osError("OSError", `${JSON.stringify(shown)} is a folder`);
    if (!exists) this.create("file", shown);
    ctx.budget.step(bytes >> 6);
    this.written += bytes;
    writeFileSync(at, text);
  }
}

function args(fn: string, names: string[], required: number, a: Value[], kwargs: Kwargs | null): (Value | undefined)[] {
  return bind(fn, { names, required }, a, kwargs);
}

function text(fn: string, v: Value): string {
  if (typeof v !== "string") throw pyError("TypeError", `workspace.${fn}() data must be str, not ${typeName(v)}`);
  return v;
}

/** A failure of the file system itself (EACCES, ENOSPC...) as OSError, without host paths. */
function guarded(fn: NativeFn): NativeFn {
  return (ctx, a, kw) => {
    try {
      return fn(ctx, a, kw);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException | null)?.code;
      if (typeof code === "string" && e instanceof Error) throw pyError("OSError", `the file system refused (${code})`);
      throw e;
    }
  };
}

/** The module's functions, over one folder; one Workspace (and one write allowance) per execution. */
export function workspaceModule(options: WorkspaceOptions): Record<string, NativeFn> {
  const ws = new Workspace(options);
  const dumps = JSON_MODULE.dumps as NativeFn;
  const loads = JSON_MODULE.loads as NativeFn;
  const fns: Record<string, NativeFn> = {
    read_text: (ctx, a, kw) => {
      const [path] = args("read_text", ["path"], 1, a, kw);
      return ws.read(ctx, "read_text", path!);
    },
    write_text: (ctx, a, kw) => {
      const [path, data] = args("write_text", ["path", "data"], 2, a, kw);
      const s = text("write_text", data!);
      ws.write(ctx, "write_text", path!, s);
      return cpLength(s);
    },
    read_json: (ctx, a, kw) => {
      const [path] = args("read_json", ["path"], 1, a, kw);
      return loads(ctx, [ws.read(ctx, "read_json", path!)], null);
    },
    write_json: (ctx, a, kw) => {
      const [path, value, indent] = args("write_json", ["path", "obj", "indent"], 2, a, kw);
      const options: Kwargs = new Map();
      if (indent !== undefined) options.set("indent", indent);
      // dumps() of a long value pauses on the way (a Pending of the text).
      return waitable(
        after(dumps(ctx, [value!], options) as string | Pending, (s: string) => {
          ws.write(ctx, "write_json", path!, s);
          return cpLength(s);
        }),
      );
    },
    list: (ctx, a, kw) => {
      const [path] = args("list", ["path"], 0, a, kw);
      const { at, shown } = ws.resolve("list", path ?? ".", { mustExist: true });
      if (!statSync(at).isDirectory()) throw osError("OSError", `${JSON.stringify(shown)} is a file, not a folder`);
      const entries = readdirSync(at, { withFileTypes: true });
      ctx.budget.step(entries.length);
      ctx.budget.alloc(entries.reduce((n, e) => n + 24 + 2 * e.name.length, 16));
      const names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
      return new PyList(names);
    },
    exists: (_ctx, a, kw) => {
      const [path] = args("exists", ["path"], 1, a, kw);
      try {
        return ws.resolve("exists", path!).exists;
      } catch (e) {
        if (e instanceof PyException && e.type.name === "FileNotFoundError") return false;
        throw e;
      }
    },
    remove: (_ctx, a, kw) => {
      const [path] = args("remove", ["path"], 1, a, kw);
      const { at, shown } = ws.resolve("remove", path!, { mustExist: true, linkItself: true });
      if (at === ws.root) throw osError("PermissionError", "the workspace folder itself cannot be removed");
      const stat = lstatSync(at);
      if (stat.isDirectory()) {
        if (readdirSync(at).length > 0) throw osError("OSError", `the folder ${JSON.stringify(shown)} is not empty`);
        rmdirSync(at);
      } else unlinkSync(at);
      return null;
    },
    usage: (_ctx, a, kw) => {
      args("usage", [], 0, a, kw);
      return PyDict.fromStringRecord({ written_bytes: ws.written, max_write_bytes: ws.maxWrite, created: ws.created, max_created: ws.maxCreated });
    },
  };
  return Object.fromEntries(Object.entries(fns).map(([name, fn]) => [name, guarded(fn)]));
}

/**
 * The text of a file in the workspace, under the module's path rules (for executeToolScript).
 * A file over `maxBytes` is refused unread (max_source_bytes).
 */
export function readWorkspaceScript(options: WorkspaceOptions, path: string, maxBytes: number): string {
  const ws = new Workspace(options);
  const { at, shown } = ws.resolve("script", path, { mustExist: true });
  const stat = statSync(at);
  if (!stat.isFile()) throw osError("OSError", `${JSON.stringify(shown)} is not a file`);
  if (stat.size > maxBytes) throw new ResourceLimitError("max_source_bytes", maxBytes, `${JSON.stringify(shown)} has ${stat.size} bytes`);
  return readFileSync(at, "utf8");
}
