# New texts of the same scripts for bench/interpreter.ts's "new script" scenario: every name the
# script binds (variables, functions, parameters, loop and comprehension targets) gets a suffix
# of its own per variant, so no engine's cache of parses, compiled code or call counts can
# recognise an earlier run. RESULT keeps its name. Reads {"workloads": [{name, source}],
# "first": N, "count": K} on stdin; prints {name: [K texts]}.
import ast
import json
import sys


def bound_names(tree):
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    names.discard("RESULT")
    return names


class Rename(ast.NodeTransformer):
    def __init__(self, names, functions, suffix):
        self.names = names
        self.functions = functions
        self.suffix = suffix

    def fresh(self, name):
        return name + self.suffix if name in self.names else name

    def visit_Name(self, node):
        node.id = self.fresh(node.id)
        return node

    def visit_arg(self, node):
        node.arg = self.fresh(node.arg)
        return node

    def visit_FunctionDef(self, node):
        node.name = self.fresh(node.name)
        self.generic_visit(node)
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Call(self, node):
        # A keyword names a parameter: renamed only in calls of the script's own functions.
        if isinstance(node.func, ast.Name) and node.func.id in self.functions:
            for keyword in node.keywords:
                if keyword.arg is not None:
                    keyword.arg = self.fresh(keyword.arg)
        self.generic_visit(node)
        return node


spec = json.load(sys.stdin)
out = {}
for w in spec["workloads"]:
    tree = ast.parse(w["source"])
    names = bound_names(tree)
    functions = {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    texts = []
    for n in range(spec["first"], spec["first"] + spec["count"]):
        tree = Rename(names, functions, f"_v{n}").visit(ast.parse(w["source"]))
        texts.append(ast.unparse(tree) + "\n")
    out[w["name"]] = texts
print(json.dumps(out))
