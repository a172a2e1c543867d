"""Reads a JSON list of sources on stdin; prints, per source, CPython's AST in the shape of
grammar/ast.ts (see normalize.ts), or {"error": [type, message, line, column]}."""
import ast
import json
import struct
import sys

OPS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
    ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>", ast.BitAnd: "&", ast.BitOr: "|",
    ast.BitXor: "^", ast.MatMult: "@", ast.USub: "-", ast.UAdd: "+", ast.Invert: "~",
    ast.Not: "not", ast.And: "and", ast.Or: "or", ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<",
    ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.In: "in", ast.NotIn: "not in", ast.Is: "is",
    ast.IsNot: "is not",
}
RENAMES = {"kw_defaults": "kwDefaults", "format_spec": "formatSpec", "decorator_list": "decoratorList"}
SKIP = {"ctx", "type_comment", "type_ignores", "kind", "is_async", "simple"}
CONVERSIONS = {-1: None, 115: "s", 114: "r", 97: "a"}


def constant(v):
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, int):
        return "int:" + str(v)
    if isinstance(v, float):
        return "float:" + struct.pack(">d", v).hex()
    if isinstance(v, str):
        return "str:" + v
    if isinstance(v, bytes):
        return "bytes:" + v.hex()
    if v is Ellipsis:
        return "..."
    raise ValueError(type(v))


def norm(node, in_fstring=False):
    if isinstance(node, list):
        return [norm(n, in_fstring) for n in node]
    if not isinstance(node, ast.AST):
        return node
    if type(node) in OPS:
        return OPS[type(node)]
    kind = type(node).__name__
    out = {}
    if kind == "AsyncFunctionDef":
        kind = "FunctionDef"
        out["isAsync"] = True
    elif kind == "FunctionDef":
        out["isAsync"] = False
    if kind != "arguments":
        out["kind"] = kind
    fstring = in_fstring or kind == "JoinedStr"
    for field, value in ast.iter_fields(node):
        if field in SKIP:
            continue
        name = RENAMES.get(field, field)
        if kind == "Constant" and field == "value":
            out[name] = constant(value)
        elif kind == "FormattedValue" and field == "conversion":
            out[name] = CONVERSIONS[value]
        else:
            out[name] = norm(value, fstring)
    # CPython 3.11 gives parts of an f-string the span of the whole string; positions there differ.
    if "lineno" in node._attributes and not in_fstring and kind not in ("arguments",):
        out["pos"] = [node.lineno, node.col_offset + 1, node.end_lineno, node.end_col_offset + 1]
    return out


results = []
for source in json.load(sys.stdin):
    try:
        results.append(norm(ast.parse(source)))
    except SyntaxError as e:
        results.append({"error": [type(e).__name__, e.msg, e.lineno, e.offset]})
    except (ValueError, MemoryError, RecursionError) as e:
        results.append({"error": [type(e).__name__, str(e), 0, 0]})
print(json.dumps(results))
