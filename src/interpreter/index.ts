// The interpreter as the layers above see it: the one module they import (the architecture test
// holds them to it). Everything else under src/interpreter/ is the sandbox's own business.
//
// - running a script: execute, its options and result, the limits and the budget, and which
//   tier runs it (a one-shot process chooses the JavaScript tier from the start);
// - the values a host hands in and gets back: the Python value classes, errors and how they
//   print, the JSON boundary;
// - what a host that extends the sandbox implements: host methods, native functions, tensors,
//   the workspace module's options, and the json module (media decoding reuses its parser).
export type { Budget, Limits } from "./budget.js";
export { DEFAULT_LIMITS, LIMIT_FIELDS, resolveLimits } from "./budget.js";
export type { Hosts, SandboxResult } from "./execute.js";
export { execute, internalErrorResult } from "./execute.js";
export type { CodegenMode } from "./tiering.js";
export { codegenMode, setCodegen } from "./tiering.js";
export type { Value } from "./values.js";
export { PyBytes, PyDict, PyFloat, PyList, PySet, PyTuple, typeName } from "./values.js";
export { EXC, PyException, pyError, ResourceLimitError } from "./errors.js";
export { describeThrown } from "./error-text.js";
export { stringifyPlain } from "./boundary.js";
export type { HostCallContext, HostMethod } from "./objects.js";
export { HostMethodTable } from "./objects.js";
export type { NativeContext, NativeFn } from "./native.js";
export type { DType } from "./tensor.js";
export { DTYPES, dtypeOfStorage, MAX_DIMS, shapeSize, Tensor } from "./tensor.js";
export type { WorkspaceOptions } from "./modules/workspace.js";
export { readWorkspaceScript } from "./modules/workspace.js";
export { JSON_MODULE } from "./modules/json.js";
