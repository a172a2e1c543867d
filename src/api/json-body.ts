// JSON request bodies, parsed as Fastify does but refused when nested too deep. JSON.parse itself
// copes with `[[[[...]]]]` 100,000 deep, but what walks the value next (schema validation's
// messages, JSON.stringify, the SDK's checks) recurses and overflows the stack, which answered a
// 500. A linear scan of the text finds the depth before anything is built.
import { HttpError } from "./errors.js";
import { rootPlugin } from "./root-plugin.js";

/**
 * Deeper than any body the gateway takes: values crossing the sandbox's boundary are bounded by
 * max_nesting_depth (at most 1000), and the request's own wrapping adds a few levels.
 */
export const MAX_BODY_DEPTH = 1100;

/** Whether the JSON text `text` opens more than `max` arrays or objects inside each other. */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: jump to its closing quote, one not escaped by an odd run of backslashes.
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end < 0) return false; // unterminated: JSON.parse says so
        let k = end - 1;
        while (text.charCodeAt(k) === 0x5c) k--;
        if ((end - 1 - k) % 2 === 0) break;
      }
      i = end;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** Replaces the app's JSON body parser by one that refuses (400) a body nested deeper than `maxDepth`. */
export const jsonBody = rootPlugin<{ maxDepth?: number }>("json-body", async (app, options) => {
  const max = options.maxDepth ?? MAX_BODY_DEPTH;
  const parse = app.getDefaultJsonParser(app.initialConfig.onProtoPoisoning ?? "error", app.initialConfig.onConstructorPoisoning ?? "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (nestedDeeperThan(body as string, max)) {
      done(new HttpError(400, `the JSON body is nested more than ${max} levels deep (arrays and objects inside each other); send a flatter value`), undefined);
      return;
    }
    parse(request, body as string, done);
  });
});
