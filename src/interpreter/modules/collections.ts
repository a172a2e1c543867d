// The collections module: Counter, defaultdict and OrderedDict (dict subclasses), deque (a ring
// buffer) and namedtuple (a factory of tuple classes). Each type lives in collections/.
import type { NativeFn } from "../native.js";
import type { Value } from "../values.js";
import { COUNTER } from "./collections/counter.js";
import { DEFAULTDICT } from "./collections/default-dict.js";
import { DEQUE } from "./collections/deque.js";
import { namedtuple } from "./collections/namedtuple.js";
import { ORDERED_DICT } from "./collections/ordered-dict.js";

export const COLLECTIONS_MODULE: Record<string, NativeFn | Value> = {
  Counter: COUNTER,
  OrderedDict: ORDERED_DICT,
  defaultdict: DEFAULTDICT,
  deque: DEQUE,
  namedtuple,
};
