// The itertools module: lazy iterator building blocks, each a class whose instances pull from
// their inputs one item at a time (itertools/). batched is 3.12's, offered on this 3.11 dialect.
import type { NativeFn } from "../native.js";
import type { Value } from "../values.js";
import { COMBINATIONS, COMBINATIONS_WITH_REPLACEMENT, PERMUTATIONS, PRODUCT } from "./itertools/combinatoric.js";
import { COUNT, CYCLE, REPEAT } from "./itertools/infinite.js";
import { ACCUMULATE, BATCHED, CHAIN, COMPRESS, DROPWHILE, FILTERFALSE, GROUPBY, ISLICE, PAIRWISE, STARMAP, TAKEWHILE, TEE, ZIP_LONGEST } from "./itertools/terminating.js";

export const ITERTOOLS_MODULE: Record<string, NativeFn | Value> = {
  accumulate: ACCUMULATE,
  batched: BATCHED,
  chain: CHAIN,
  combinations: COMBINATIONS,
  combinations_with_replacement: COMBINATIONS_WITH_REPLACEMENT,
  compress: COMPRESS,
  count: COUNT,
  cycle: CYCLE,
  dropwhile: DROPWHILE,
  filterfalse: FILTERFALSE,
  groupby: GROUPBY,
  islice: ISLICE,
  pairwise: PAIRWISE,
  permutations: PERMUTATIONS,
  product: PRODUCT,
  repeat: REPEAT,
  starmap: STARMAP,
  takewhile: TAKEWHILE,
  tee: TEE,
  zip_longest: ZIP_LONGEST,
};
