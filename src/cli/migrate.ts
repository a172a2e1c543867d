// `code-mode-gateway migrate --from <sqlite file> --to <postgres url>`: the flags read and the
// outcome reported; gateway/migrate-store.ts does the copy. `--to` may be `env.NAME`, read from
// the environment as config.json's values are.
import { migratedText, migrateStore } from "../gateway/migrate-store.js";
import { StoreError } from "../gateway/store.js";

export const MIGRATE_USAGE = "usage: code-mode-gateway migrate --from ./data/gateway.db --to postgres://user:password@host:5432/database";

/** Runs the subcommand; answers the exit code (0 copied, 1 refused or failed, 2 bad flags). */
export async function migrateCommand(argv: string[], log: (message: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let from: string | undefined;
  let to: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if ((arg === "--from" || arg === "--to") && argv[i + 1] !== undefined) {
      if (arg === "--from") from = argv[++i];
      else to = argv[++i];
    } else {
      log(arg === "--from" || arg === "--to" ? `${arg} needs a value` : `unknown argument ${arg}`);
      process.stderr.write(MIGRATE_USAGE + "\n");
      return 2;
    }
  }
  if (from === undefined || to === undefined) {
    log(`migrate needs ${from === undefined ? "--from" : "--to"}`);
    process.stderr.write(MIGRATE_USAGE + "\n");
    return 2;
  }
  if (to.startsWith("env.")) {
    const name = to.slice(4);
    const value = env[name];
    if (value === undefined) {
      log(`--to refers to the environment variable ${name}, which is not set`);
      return 2;
    }
    to = value;
  }
  try {
    log(migratedText(await migrateStore(from, to), from, to));
    return 0;
  } catch (e) {
    if (!(e instanceof StoreError)) throw e;
    log(`migrate: ${e.message}`);
    return 1;
  }
}
