#!/usr/bin/env python3
"""The `use` graph between the files of one source folder, and its cycles.

usage: tools/ci/use_graph.py [FOLDER]      (default: src/engine)

Each path in a file's code (a `use` or a path in an expression: `crate::engine::x::Y`,
`super::x`, `self::x`, or a child module's name) that names a module of the folder is an
edge to the file defining that module; a name a folder's `mod.rs` re-exports (`pub use`)
counts as the file that defines it. Module declarations, a `mod.rs`'s own re-exports and
comments are not edges. Prints each file's edges, then each cycle (a strongly connected
component of more than one file), and exits 1 when there is one.
"""

import os
import re
import sys


def module_files(root):
    """Maps each module (a tuple of names below the folder) to its file."""
    modules = {}
    for dirpath, _, files in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        parts = () if rel == "." else tuple(rel.split(os.sep))
        for name in files:
            if name.endswith(".rs"):
                key = parts if name == "mod.rs" else parts + (name[:-3],)
                modules[key] = os.path.join(dirpath, name)
    return modules


def code_of(path):
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    text = "\n".join(line.split("//")[0] for line in text.splitlines())
    text = re.sub(r"^\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*;", "", text, flags=re.M)
    return flatten_inline_modules(text)


def flatten_inline_modules(text):
    """Inside an inline `mod name { ... }`, `super::` is the file's own `self::`."""
    out, pos = [], 0
    for m in re.finditer(r"\bmod\s+\w+\s*\{", text):
        if m.start() < pos:
            continue
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        out.append(text[pos : m.end()])
        out.append(re.sub(r"\bsuper::", "self::", text[m.end() : i]))
        pos = i
    out.append(text[pos:])
    return "".join(out)


def expand(tree):
    """`a::{b, c::{d, e as f}}` -> ['a::b', 'a::c::d', 'a::c::e']."""
    tree = re.sub(r"\s+as\s+\w+", "", tree)
    tree = re.sub(r"\s+", "", tree)
    brace = tree.find("{")
    if brace < 0:
        return [tree]
    prefix, inner = tree[:brace], tree[brace + 1 : tree.rfind("}")]
    items, depth, start = [], 0, 0
    for i, ch in enumerate(inner):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            items.append(inner[start:i])
            start = i + 1
    items.append(inner[start:])
    return [prefix + p for item in items if item for p in expand(item)]


def use_statements(code):
    return re.findall(r"\b(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", code, flags=re.S)


def absolute(path, here, modules, prefix):
    """The module-relative segments `path` names from module `here`, or None."""
    parts = [p for p in path.split("::") if p]
    if parts[: len(prefix)] == prefix:
        return list(parts[len(prefix) :])
    if parts and parts[0] in ("self", "super"):
        base = list(here)
        while parts and parts[0] in ("self", "super"):
            if parts[0] == "super":
                if not base:
                    return None
                base.pop()
            parts = parts[1:]
        return base + parts
    if parts and tuple(here) + (parts[0],) in modules:
        return list(here) + parts
    return None


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "src/engine"
    rel = os.path.relpath(root, "src")
    prefix = ["crate"] + ([] if rel == "." else rel.split(os.sep))
    modules = module_files(root)
    codes = {m: code_of(p) for m, p in modules.items()}

    reexports = {}  # (module, name) -> segments of the re-exported item
    for mod, code in codes.items():
        if modules[mod].endswith("mod.rs"):
            for vis, stmt in use_statements(code):
                if vis:
                    for p in expand(stmt):
                        segs = absolute(p, mod, modules, prefix)
                        if segs:
                            reexports[(mod, segs[-1])] = segs

    def target(segs):
        for _ in range(8):
            best = max(
                (n for n in range(len(segs) + 1) if tuple(segs[:n]) in modules), default=None
            )
            if best is None:
                return None
            mod = tuple(segs[:best])
            if best < len(segs) and (mod, segs[best]) in reexports:
                segs = reexports[(mod, segs[best])] + segs[best + 1 :]
                continue
            return mod
        return None

    graph = {}
    for mod, code in codes.items():
        is_folder = modules[mod].endswith("mod.rs")
        paths = [
            p for vis, stmt in use_statements(code) if not (vis and is_folder) for p in expand(stmt)
        ]
        body = re.sub(r"\buse\s+[^;]+;", "", code, flags=re.S)
        paths += re.findall(r"(?<![\w:])((?:crate|super|self|\w+)(?:::\w+)+)", body)
        edges = set()
        for p in paths:
            segs = absolute(p, mod, modules, prefix)
            t = target(segs) if segs is not None else None
            if t is not None and t != mod:
                edges.add(t)
        graph[mod] = edges

    name = lambda m: os.path.relpath(modules[m], root)
    for mod in sorted(graph, key=name):
        print(f"{name(mod)} -> {', '.join(sorted(name(t) for t in graph[mod])) or '(none)'}")
    found = strongly_connected(graph)
    for comp in found:
        print("cycle:", " <-> ".join(sorted(name(m) for m in comp)))
    print(f"{len(graph)} files, {sum(len(t) for t in graph.values())} edges, {len(found)} cycles")
    return 1 if found else 0


def strongly_connected(graph):
    """Tarjan's components of more than one node."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    sys.setrecursionlimit(10000)
    for v in list(graph):
        if v not in index:
            visit(v)
    return out


if __name__ == "__main__":
    sys.exit(main())
