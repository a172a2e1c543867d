// The collections module against CPython 3.11 (differential snippets), then what only the
// sandbox has: budgets, the event loop, and JavaScript names out of reach.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { measure } from "../stall.js";
import { agreesWithCPython } from "./differential.js";
import { expectBoundedStalls } from "./stalls.js";

const H = "from collections import Counter, defaultdict, OrderedDict, deque, namedtuple\n";

agreesWithCPython("Counter agrees with CPython", [
  H + "c = Counter('abracadabra')\nprint(c, repr(c), len(c), c['a'], c['zz'], 'zz' in c)",
  H + "print(Counter(), Counter([]), Counter({}), repr(Counter()))",
  H + "print(Counter({'a': 3, 'b': 1}), Counter(a=2, b=5), Counter({'a': 1}, a=5))",
  H + "print(Counter([1, 2, 2, (1, 2), (1, 2), None, True, 1.0]))",
  H + "c = Counter('mississippi')\nprint(c.most_common(), c.most_common(2), c.most_common(0), c.most_common(-3), c.most_common(None), c.most_common(100))",
  H + "c = Counter(a=1, b=2, c=2, d=1, e=3)\nprint(c.most_common(3), c)",
  H + "print(Counter(a=1, b=2, c=2, d=1))",
  H + "c = Counter({i: i % 7 for i in range(50)})\nprint(c.most_common(5), c.most_common(1), c.most_common(40)[:5], c.most_common(49)[-3:])",
  H + "c = Counter({i: -i for i in range(40)})\nprint(c.most_common(3), Counter(a=1.5, b=1, c=True, d=2).most_common(2))",
  H + "Counter(a=1, b='x', c=2).most_common(1)",
  H + "print(sorted(Counter(a=2, b=0, c=-1, d=3).elements()), list(Counter('aabc').elements()))",
  H + "e = Counter(a=2).elements()\nprint(next(e), list(e))",
  H + "print(list(Counter(a=2.0).elements()))",
  H + "c = Counter('aab')\nc.update('abc')\nprint(c)\nc.update({'a': 10, 'z': 1})\nprint(c)\nc.update(b=3)\nprint(c)\nc.update()\nprint(c)\nc.update(None)\nprint(c)",
  H + "c = Counter('aab')\nc.subtract('abbbc')\nprint(c)\nc.subtract({'a': 1})\nprint(c)\nc.subtract(z=2)\nprint(c, c.total())",
  H + "c = Counter()\nc.update(Counter(x=2))\nc.update(Counter(x=1))\nprint(c)",
  H + "print(Counter(a=2.5, b=1).total(), Counter().total())",
  H + "print(Counter(a=3, b=1) + Counter(a=1, b=-2, c=4))",
  H + "print(Counter(a=3, b=1) - Counter(a=1, b=2, c=-4))",
  H + "print(Counter(a=3, b=1) | Counter(a=1, b=2, c=4, d=-1))",
  H + "print(Counter(a=3, b=1, e=2) & Counter(a=1, b=2, c=4))",
  H + "print(+Counter(a=3, b=0, c=-1), -Counter(a=3, b=0, c=-1), +Counter(), -Counter())",
  H + "c = Counter(a=1)\nd = c\nc += Counter(b=2)\nprint(c, d is c)\nc -= Counter(a=5)\nprint(c)\nc |= Counter(b=1, z=3)\nprint(c)\nc &= Counter(b=1)\nprint(c, d is c)",
  H + "c = Counter(a=1)\nc += {'a': -1, 'b': 2}\nprint(c)",
  H + "c = Counter(a=1)\nc += 5",
  H + "c = Counter(a=2, b=1)\nc &= {'a': 1}",
  H + "c = Counter(a=2, b=1)\nc &= Counter(a=1)\nprint(c)\nc -= {'a': 1}\nprint(c)\nc *= 2",
  H + "Counter(a=1) & {'b': 1}",
  H + "Counter(a=1) + 1",
  H + "Counter(a=1) + {'a': 1}",
  H + "print(Counter(a=1) | {'a': 5}, {'a': 5} | Counter(a=1))",
  H + "~Counter(a=1)",
  H + "print(Counter(a=1, b=0) == Counter(a=1), Counter(a=1) == Counter(a=1.0), Counter(a=1) != Counter(a=2), Counter(a=1) == {'a': 1}, Counter(a=1, b=0) == {'a': 1})",
  H + "print(Counter(a=1) <= Counter(a=1, b=1), Counter(a=1) < Counter(a=1, b=0), Counter(a=2) >= Counter(a=1), Counter(a=1) > Counter(a=1), Counter() <= Counter())",
  H + "Counter(a=1) < {'a': 2}",
  H + "Counter(a=1) < 3",
  H + "hash(Counter())",
  H + "Counter(5)",
  H + "Counter([[1]])",
  H + "Counter('a', 'b')",
  H + "Counter().update('a', 'b')",
  H + "Counter().subtract(1, 2)",
  H + "Counter.fromkeys('ab')",
  H + "Counter(a=1).most_common('x')",
  H + "print(Counter(a='x', b=1))",
  H + "Counter(a='x', b=1).most_common()",
  H + "c = Counter('abc')\nd = c.copy()\nd['a'] += 5\nprint(c, d, type(d) is Counter)",
  H + "c = Counter('abc')\nc['z'] += 1\ndel c['a']\nprint(c, c.get('q'), c.get('q', 9), c.pop('b'), c.setdefault('y', 4), c)",
  H + "c = Counter('hello')\nprint(sorted(c.items()), sorted(c.keys()), sorted(c.values()), dict(c), list(c))",
  H + "c = Counter('hello')\nprint(isinstance(c, dict), isinstance(c, Counter), type(c), type(c) is Counter, Counter)",
  H + "words = 'the cat and the hat and the bat'.split()\nprint(Counter(words).most_common(2))\nRESULT = Counter(words)",
  H + "c = Counter(x=1)\nc.clear()\nprint(c, bool(c), bool(Counter(a=0)))",
  H + "print(str(Counter(a=1)), f'{Counter(b=2)}', [Counter(a=1)], {'k': Counter(a=1)})",
  H + "print(Counter({(1, 2): 3, 'x': 1}).most_common())",
  H + "c = Counter()\nfor w in ['a', 'b', 'a']:\n    c[w] += 1\nprint(c)\nRESULT = c",
]);

agreesWithCPython("defaultdict agrees with CPython", [
  H + "d = defaultdict(list)\nd['a'].append(1)\nd['a'].append(2)\nd['b']\nprint(d, d['a'], len(d), 'c' in d, d.get('c'), len(d))",
  H + "d = defaultdict(int)\nfor w in 'abca':\n    d[w] += 1\nprint(d, dict(d), d.default_factory)\nRESULT = d",
  H + "d = defaultdict(lambda: 'n/a')\nprint(d['x'], dict(d))",
  H + "n = [0]\ndef make():\n    n[0] += 1\n    return n[0]\nd = defaultdict(make)\nprint(d['a'], d['b'], d['a'], dict(d))",
  H + "print(defaultdict(), defaultdict(None), defaultdict(set, {'a': {1}}), defaultdict(list, [('a', 1)], b=2))",
  H + "d = defaultdict(None)\nd['x']",
  H + "d = defaultdict()\nprint(d.default_factory)\nd[1]",
  H + "defaultdict(5)",
  H + "defaultdict('list')",
  H + "defaultdict(list, {}, {})",
  H + "defaultdict(list, [1])",
  H + "defaultdict(list, 5)",
  H + "d = defaultdict(dict)\nd['a']['b'] = 1\nd['c']\nprint(d)",
  H + "tree = lambda: defaultdict(tree)\nt = tree()\nt['a']['b']['c'] = 1\nprint(t['a']['b']['c'], sorted(t['a'].keys()))",
  H + "d = defaultdict(list, a=[1])\ne = d.copy()\ne['b'].append(2)\nprint(d, e, type(e), e.default_factory)",
  H + "d = defaultdict(int, a=1)\nprint(d | {'b': 2}, {'b': 2} | d, d == {'a': 1}, {'a': 1} == d)",
  H + "d = defaultdict(int, a=1)\nd |= {'c': 3}\nprint(d)",
  H + "print(defaultdict.fromkeys('ab'), defaultdict.fromkeys('ab', 0))",
  H + "d = defaultdict(list)\nd['a'] = d\nprint(d)",
  H + "hash(defaultdict())",
  H + "defaultdict(list) < defaultdict(list)",
  H + "print(isinstance(defaultdict(list), dict), type(defaultdict(list)), defaultdict)",
  H + "d = defaultdict(list)\nd.nope",
  H + "d = defaultdict(list)\nd['k']\nprint(d.pop('k'), d.setdefault('j', 5), d, d.items(), list(d.values()))",
  H + "groups = defaultdict(list)\nfor name, team in [('ann', 'red'), ('bob', 'blue'), ('cy', 'red')]:\n    groups[team].append(name)\nRESULT = groups",
]);

agreesWithCPython("OrderedDict agrees with CPython", [
  H + "o = OrderedDict()\no['b'] = 1\no['a'] = 2\nprint(o, repr(OrderedDict()), list(o), o['a'])",
  H + "print(OrderedDict([('a', 1), ('b', 2)]), OrderedDict(a=1, b=2), OrderedDict({'z': 0}, y=1))",
  H + "o = OrderedDict.fromkeys('abcde')\no.move_to_end('b')\nprint(list(o))\no.move_to_end('b', last=False)\nprint(list(o))\no.move_to_end('d', False)\nprint(''.join(o))",
  H + "o = OrderedDict(a=1)\no.move_to_end('x')",
  H + "o = OrderedDict(a=1)\no.move_to_end()",
  H + "o = OrderedDict.fromkeys('abc', 0)\nprint(o.popitem(), o.popitem(last=False), o.popitem(False), o)",
  H + "OrderedDict().popitem()",
  H + "OrderedDict(a=1).popitem(1, 2)",
  H + "print(OrderedDict(a=1, b=2) == OrderedDict(b=2, a=1), OrderedDict(a=1, b=2) == dict(b=2, a=1), dict(b=2, a=1) == OrderedDict(a=1, b=2), OrderedDict(a=1) == OrderedDict(a=1.0), OrderedDict(a=1) != OrderedDict(a=1))",
  H + "OrderedDict(a=1) < OrderedDict(a=2)",
  H + "hash(OrderedDict())",
  H + "OrderedDict({}, {})",
  H + "OrderedDict(5)",
  H + "o = OrderedDict(a=1)\np = o.copy()\np['b'] = 2\nprint(o, p, type(p))",
  H + "print(OrderedDict(a=1) | {'b': 2}, {'b': 2} | OrderedDict(a=1))",
  H + "o = OrderedDict(a=1)\no['a'] = 5\no['c'] = 3\ndel o['a']\nprint(o, list(reversed(o)), list(o.keys()), o.get('c'))",
  H + "o = OrderedDict()\no['self'] = o\nprint(o)",
  H + "o = OrderedDict([((1, 2), 'tuple'), (3, 'int')])\no.move_to_end((1, 2))\nprint(o)\no.move_to_end(3, last=False)\nprint(o)",
  H + "RESULT = OrderedDict(b=1, a=2)",
]);

agreesWithCPython("deque agrees with CPython", [
  H + "d = deque([1, 2, 3])\nd.append(4)\nd.appendleft(0)\nprint(d, len(d), d[0], d[-1], d[2], 3 in d, 9 in d)\nprint(d.pop(), d.popleft(), d)",
  H + "print(deque(), deque([]), deque('abc'), deque(range(3), maxlen=5), deque([], 0), deque('abcdef', 3), deque(maxlen=2))",
  H + "d = deque(maxlen=3)\nfor i in range(6):\n    d.append(i)\nprint(d, d.maxlen)\nd.appendleft(-1)\nprint(d)\nd.extend([7, 8])\nprint(d)\nd.extendleft('ab')\nprint(d)",
  H + "d = deque([1, 2, 3, 4, 5])\nd.rotate()\nprint(d)\nd.rotate(2)\nprint(d)\nd.rotate(-4)\nprint(d)\nd.rotate(12)\nprint(d)\nd.rotate(0)\nprint(d)",
  H + "d = deque()\nd.rotate(3)\nprint(d)",
  H + "d = deque('abc')\nd.rotate(10**12 + 1)\nprint(d)\nd.rotate(-10**12)\nprint(d)\nz = deque(maxlen=0)\nz.append(1)\nz.appendleft(2)\nz.extend('ab')\nprint(z, len(z))",
  H + "d = deque([1, 2, 3])\nd.extendleft([4, 5])\nprint(d)\nd.extend(d)\nprint(d)\nd.extendleft(d)\nprint(len(d))",
  H + "d = deque([3, 1, 2, 1])\nprint(d.count(1), d.count(9), d.index(1), d.index(1, 2), d.index(2, -2))\nd.remove(1)\nprint(d)\nd.reverse()\nprint(d)\nd.insert(1, 'x')\nprint(d)\nd.insert(-100, 'a')\nd.insert(100, 'z')\nprint(d)",
  H + "deque([1]).remove(5)",
  H + "deque([1, 2, 3]).index(3, 0, 2)",
  H + "deque().pop()",
  H + "deque().popleft()",
  H + "deque([1])[5]",
  H + "deque([1])[-2]",
  H + "deque([1])['a']",
  H + "deque([1])[0:1]",
  H + "deque(maxlen=-1)",
  H + "deque(maxlen=1.5)",
  H + "deque(5)",
  H + "deque([1], 2, 3)",
  H + "deque([1], maxlen=1).insert(0, 2)",
  H + "deque([1]).append()",
  H + "deque([1]).pop(0)",
  H + "deque([1]).rotate('a')",
  H + "deque([1]).rotate(1, 2)",
  H + "deque([1]).index()",
  H + "deque([1]) + [2]",
  H + "hash(deque())",
  H + "deque([1]).x",
  H + "deque([1]) < [2]",
  H + "d = deque([1, 2, 3])\nfor x in d:\n    d.append(x)",
  H + "d = deque([1, 2, 3])\ndel d[1]\nprint(d)\nd[0] = 'a'\nd[-1] = 'z'\nprint(d)\ndel d[0]\ndel d[-1]\nprint(d, bool(d), bool(deque()))",
  H + "d = deque([1, 2])\nd[5] = 0",
  H + "print(deque([1], maxlen=2) + deque([2, 3, 4]), deque([1, 2]) * 2, 2 * deque([1, 2]), deque([1, 2], maxlen=3) * 2, deque([1]) * 0, deque([1]) * -1)",
  H + "d = deque([1])\ne = d\nd += [2, 3]\nd += 'ab'\nprint(d, e is d)\nd *= 2\nprint(d, e is d)",
  H + "print(deque([1, 2]) == deque([1, 2]), deque([1, 2]) == [1, 2], deque([1]) != deque([2]), deque([1, 2]) < deque([1, 3]), deque([1]) <= deque([1]), deque([2]) > deque([1, 5]))",
  H + "d = deque([1, [2]])\ne = d.copy()\ne.append(3)\ne[1].append(9)\nprint(d, e, e.maxlen, deque([1], maxlen=4).copy())",
  H + "d = deque()\nd.append(d)\nprint(d)",
  H + "d = deque([1, 2, 3])\nprint(list(reversed(d)), list(d), sorted(d, reverse=True), sum(d), max(d), tuple(d), [x * 2 for x in d])",
  H + "d = deque(range(5))\nd.clear()\nprint(d, len(d))",
  H + "print(isinstance(deque(), deque), type(deque()), deque)",
  H + "window = deque(maxlen=3)\nsums = []\nfor x in range(10):\n    window.append(x)\n    sums.append(sum(window))\nprint(sums)",
  H + "q = deque([('a', 0)])\nseen = {'a'}\ngraph = {'a': ['b', 'c'], 'b': ['d'], 'c': ['d'], 'd': []}\norder = []\nwhile q:\n    node, depth = q.popleft()\n    order.append((node, depth))\n    for n in graph[node]:\n        if n not in seen:\n            seen.add(n)\n            q.append((n, depth + 1))\nprint(order)",
  H + "d = deque()\nfor i in range(100):\n    d.appendleft(i)\n    if i % 3 == 0:\n        d.pop()\nprint(list(d)[:10], len(d), d[33], d[-5])",
  H + "RESULT = deque([1, 2])",
]);

agreesWithCPython("namedtuple agrees with CPython", [
  H + "P = namedtuple('P', 'x y')\np = P(1, 2)\nprint(p, repr(p), p.x, p.y, p[0], p[-1], len(p), p == (1, 2), (1, 2) == p, hash(p) == hash((1, 2)))",
  H + "P = namedtuple('P', 'x, y')\nQ = namedtuple('Q', ['a', 'b', 'c'])\nR = namedtuple('R', ('u',))\nprint(P(1, 2), Q(1, 2, 3), R(5), P._fields, Q._fields)",
  H + "P = namedtuple('P', 'x y')\nx, y = P(3, 4)\nprint(x, y, P(y=1, x=2), P(5, y=6), list(P(1, 2)), tuple(P(1, 2)), P(1, 2)[1:], P(1, 2) + (3,), P(1, 2) * 2)",
  H + "P = namedtuple('P', 'x y')\np = P(1, 2)\nprint(p._asdict(), p._replace(y=5), p, P._make([7, 8]), P._make(range(2)), p.count(1), p.index(2))",
  H + "P = namedtuple('P', 'x y z', defaults=[0, 1])\nprint(P(5), P(5, 6), P(5, 6, 7), P._field_defaults, P(x=9))",
  H + "P = namedtuple('P', 'a def class _x a', rename=True)\nprint(P._fields, P(1, 2, 3, 4, 5))",
  H + "P = namedtuple('P', 'x y')\nprint(type(P(1, 2)), P, isinstance(P(1, 2), tuple), isinstance(P(1, 2), P), type(P(1, 2)) is P, type(P))",
  H + "P = namedtuple('P', 'x y')\nd = {P(1, 2): 'a'}\nprint(d[(1, 2)], (1, 2) in {P(1, 2)}, sorted([P(2, 1), P(1, 2)]), max(P(1, 9), P(2, 0)))",
  H + "P = namedtuple('P', 'x y')\nP(1)",
  H + "P = namedtuple('P', 'x y z')\nP()",
  H + "P = namedtuple('P', 'x y')\nP(1, 2, 3)",
  H + "P = namedtuple('P', 'x y', defaults=[1])\nP(1, 2, 3)",
  H + "P = namedtuple('P', 'x y')\nP(1, x=2)",
  H + "P = namedtuple('P', 'x y')\nP(1, 2, z=3)",
  H + "P = namedtuple('P', 'x y')\nP._make([1])",
  H + "P = namedtuple('P', 'x y')\nP(1, 2)._replace(z=1)",
  H + "P = namedtuple('P', 'x y')\nP(1, 2)._replace(1)",
  H + "P = namedtuple('P', 'x y')\nP(1, 2).z",
  H + "P = namedtuple('P', 'x y')\nP(1, 2)._asdict(1)",
  H + "namedtuple('P', 'x x')",
  H + "namedtuple('P', 'x def')",
  H + "namedtuple('P', 'x nonlocal')",
  H + "namedtuple('await', 'x')",
  H + "P = namedtuple('P', 'match case type')\nprint(P(1, 2, 3), P._fields)",
  H + "P = namedtuple('P', 'x async _ yield', rename=True)\nprint(P._fields)",
  H + "namedtuple('P', '_x')",
  H + "namedtuple('1P', 'x')",
  H + "namedtuple('P', 'x 1')",
  H + "namedtuple('P', 'x-y')",
  H + "namedtuple('P', 'x y', defaults=[1, 2, 3])",
  H + "namedtuple('P', 5)",
  H + "namedtuple('P')",
  H + "namedtuple('P', 'x', True)",
  H + "namedtuple('P', 'x', nope=1)",
  H + "P = namedtuple('P', ['x', 'y'], defaults=(None,), module='geo')\nprint(P, P(1), P._make(i * 2 for i in range(2)), P._field_defaults)",
  H + "print(namedtuple('S', '')(), namedtuple('S', [])(), namedtuple('T', 'x')(1), namedtuple('P', 'x', module='geo'))",
  H + "P = namedtuple('P', 'x y')\np = P([], 1)\np.x.append(p)\nprint(p)",
  H + "P = namedtuple('Point', 'x y')\nRESULT = [P(1, 2), P(x='a', y=None)]",
  H + "Row = namedtuple('Row', 'name score')\nrows = [Row('a', 3), Row('b', 1), Row('c', 2)]\nprint(sorted(rows, key=lambda r: r.score), [r.name for r in rows if r.score > 1], {r.name: r.score for r in rows})",
  H + "import json\nP = namedtuple('P', 'x y')\nprint(json.dumps(P(1, [2])), json.dumps({'p': P(1, 2)}))",
]);

describe("collections in the sandbox", () => {
  it("keeps JavaScript names out of its classes and instances", async () => {
    const names = ["constructor", "toString", "valueOf", "hasOwnProperty", "pyRepr", "cls", "ring", "map", "ctx", "factory"];
    const values = ["Counter('ab')", "defaultdict(list)", "OrderedDict(a=1)", "deque([1])", "namedtuple('P', 'x')(1)", "Counter", "deque", "namedtuple('P', 'x')"];
    for (const v of values) {
      for (const name of names) {
        const r = await execute(`${H}x = ${v}\nx.${name}`);
        expect(r.error?.type, `${v}.${name}`).toBe("AttributeError");
      }
      const proto = await execute(`${H}getattr(${v}, '__proto__')`);
      expect(proto.error?.type).toBe("AttributeError");
    }
  });

  it("stops a hostile Counter, deque or defaultdict at the budget without holding the event loop", async () => {
    await expectBoundedStalls(H, [
      "c = Counter(range(10**9))",
      "c = Counter(a=10**12)\nn = 0\nfor _ in c.elements():\n    n += 1",
      "d = deque(range(10**9))",
      "d = deque(maxlen=3)\nd.extend(range(10**9))",
      "d = deque(range(100000))\nwhile True:\n    d.rotate(50000)",
      "d = deque([1] * 1000)\nwhile True:\n    d *= 2",
      "d = defaultdict(list)\ni = 0\nwhile True:\n    d[i]\n    i += 1",
      "c = Counter(range(200000))\nwhile True:\n    c.most_common(1)",
      "P = namedtuple('P', ['f%d' % i for i in range(100000)])\nwhile True:\n    P._make(range(100000))",
    ]);
  });

  it("runs a defaultdict factory that is a Python function, and refuses one that waits on a tool", async () => {
    const ok = await execute(`${H}def f():\n    return [0]\nd = defaultdict(f)\nd['a'][0] += 1\nRESULT = d`);
    expect(ok.result).toEqual({ a: [1] });
    const hosts = { srv: { make: async () => 5 } };
    const waits = await execute(`${H}d = defaultdict(lambda: srv.make())\nd['a']`, { hosts });
    expect(waits.error?.type).toBe("RuntimeError");
  });

  it("pops at the left of a long deque in constant time", async () => {
    const { result, wallMs } = await measure(`${H}d = deque(range(200000))\nn = 0\nwhile d:\n    n += d.popleft()\nRESULT = n`, { limits: { max_steps: 5_000_000 } });
    expect(result.error).toBeNull();
    expect(result.result).toBe((200000 * 199999) / 2);
    expect(wallMs).toBeLessThan(3000);
  });
});
