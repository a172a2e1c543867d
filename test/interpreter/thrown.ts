// What a native call raised, as the text a test compares: `TypeError: message`, or "no error".
import { PyException } from "../../src/interpreter/errors.js";

export function thrown(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof PyException) return `${e.type.name}: ${String(e.args[0])}`;
    throw e;
  }
  return "no error";
}
