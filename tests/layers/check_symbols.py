#!/usr/bin/env python3
"""The layers, checked on the symbols the object files define and use.

The include roots (check_layer.cmake) keep a layer from including a higher
layer's header; a declaration written by hand (`extern void xg_gas_x(void);`)
steps around them.  This script reads the symbol tables of the objects of
every layer (nm) and fails when an object uses an xg_* symbol that only a
layer it does not see defines.

The manifest (written by tests/layers/CMakeLists.txt into the build tree)
lists the layers, lowest first:

    layer <folder> sees <folder>,<folder>,... [library <name>]
    object <path of an object file, or of a saved `nm -P` table (.nm)>

(a relative path is relative to the manifest's folder).  A layer packed in a
library of its own on libxgas (libarmci: `library armci`; the default is
xgas) is a client of libxgas like a program: it may also use what libxgas
exports (--exports xgas=<libxgas.so>), its public interface.  A symbol no
layer defines (a weak hook a program may provide, a system library's) is
not the layers' business.

Modes:
    check_symbols.py MANIFEST            the layer check (exit 1 on a wrong use)
    check_symbols.py MANIFEST --cycles F the call cycles between the files of
                                         source folder F (and its sub-folders):
                                         the strongly connected components of
                                         "file A uses an xg_* symbol defined in
                                         file B", largest first
"""

import argparse
import os
import re
import subprocess
import sys

# nm -P: "name type [value size]"; these types define a symbol, U/w/v use one
DEFINES = set("ABCDGRSTVWi")
USES = set("Uwv")


class Obj:
    def __init__(self, layer, path):
        self.layer = layer
        self.path = path
        self.defines = set()
        self.uses = set()
        self.name = source_name(path)


def source_name(path):
    """The source file an object was built from, as src/<folder>/<file>.c
    (the object tree is CMakeFiles/xgas_<id>.dir/<folder>/<file>.c.o)."""
    match = re.search(r"\.dir/(.*?)(\.o|\.obj|\.nm)$", path)
    if not match:
        return os.path.basename(path)
    return os.path.normpath(match.group(1))  # CMake may write dir/./folder


def read_manifest(path):
    layers, sees, objects, library = [], {}, [], {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if (words[0] == "layer" and len(words) in (4, 6) and
                    words[2] == "sees" and words[4:5] in ([], ["library"])):
                layers.append(words[1])
                sees[words[1]] = set(filter(None, words[3].split(",")))
                sees[words[1]].add(words[1])
                library[words[1]] = words[5] if len(words) == 6 else "xgas"
            elif words[0] == "object" and len(words) == 1 and layers:
                continue  # a layer without objects
            elif words[0] == "object" and len(words) == 2 and layers:
                where = os.path.join(os.path.dirname(path), words[1])
                objects.append(Obj(layers[-1], where))
            else:
                sys.exit(f"{path}:{number}: cannot read '{line.strip()}': "
                         "expected 'layer <folder> sees <folders> "
                         "[library <name>]' or "
                         "'object <file>' after a layer line")
    return layers, sees, objects, library


def exported(exports, nm):
    """{library: the xg_* symbols its shared object exports}."""
    result = {}
    for pair in exports:
        name, _, path = pair.partition("=")
        run = subprocess.run([nm, "-D", "-P", "--defined-only", path],
                             capture_output=True, text=True)
        if run.returncode != 0 or not path:
            sys.exit(f"--exports {pair}: {nm} -D -P --defined-only failed: "
                     f"{run.stderr.strip()} (expected <library>=<file.so>)")
        result[name] = {line.split()[0] for line in run.stdout.splitlines()
                        if line.startswith("xg_")}
    return result


def symbol_table(obj, nm):
    if obj.path.endswith(".nm"):
        with open(obj.path) as f:
            return f.read()
    run = subprocess.run([nm, "-P", obj.path], capture_output=True,
                         text=True)
    if run.returncode != 0:
        sys.exit(f"{nm} -P {obj.path} failed ({run.returncode}): "
                 f"{run.stderr.strip()} -- is the tree built?")
    return run.stdout


def load_symbols(objects, nm):
    for obj in objects:
        for line in symbol_table(obj, nm).splitlines():
            words = line.split()
            if len(words) < 2 or not words[0].startswith("xg_"):
                continue
            if words[1] in USES:
                obj.uses.add(words[0])
            elif words[1] in DEFINES:
                obj.defines.add(words[0])


def definers(objects):
    where = {}
    for obj in objects:
        for sym in obj.defines:
            where.setdefault(sym, []).append(obj)
    return where


def check_layers(layers, sees, objects, library, exports):
    where = definers(objects)
    wrong = 0
    through_exports = {}
    for obj in objects:
        public = set().union(*[syms for lib, syms in exports.items()
                               if lib != library[obj.layer]])
        for sym in sorted(obj.uses):
            owners = where.get(sym, [])
            if not owners or any(o.layer in sees[obj.layer] for o in owners):
                continue
            if sym in public:
                through_exports.setdefault(obj.layer, set()).add(sym)
                continue  # another library's public interface
            homes = ", ".join(sorted({f"{o.layer} ({o.name})"
                                      for o in owners}))
            print(f"WRONG: {obj.name} uses {sym}, defined in {homes}, "
                  f"which {obj.layer} does not see: call it through a "
                  f"layer {obj.layer} sees, or move it down")
            wrong += 1
    for layer in layers:
        count = sum(1 for o in objects if o.layer == layer)
        print(f"ok: {layer}: {count} objects checked")
        if layer in through_exports:
            print(f"ok: {layer} (library {library[layer]}) uses what "
                  f"another library exports: "
                  f"{', '.join(sorted(through_exports[layer]))}")
    if wrong:
        print(f"FAILED: {wrong} use(s) of a symbol of a layer not seen")
        return 1
    print("ok: every xg_* symbol used is defined in the layer itself or "
          "in a layer it sees")
    return 0


def components(nodes, edges):
    """Tarjan's strongly connected components, iteratively."""
    index, low, on_stack, stack, result = {}, {}, set(), [], []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    scc = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        scc.append(member)
                        if member == node:
                            break
                    result.append(sorted(scc))
    return result


def report_cycles(folder, objects):
    folder = folder.rstrip("/")
    if folder.startswith("src/"):
        folder = folder[len("src/"):]
    mine = [o for o in objects if o.name.startswith(folder + "/")]
    if not mine:
        sys.exit(f"no object of folder {folder} in the manifest: name a "
                 "source folder as src/<folder> or <folder> (e.g. src/nic)")
    where = {}
    for obj in mine:
        for sym in obj.defines:
            where.setdefault(sym, set()).add(obj.name)
    edges = {o.name: set() for o in mine}
    for obj in mine:
        for sym in obj.uses:
            edges[obj.name] |= where.get(sym, set()) - {obj.name}
    nodes = sorted(edges)
    cycles = [c for c in components(nodes, edges) if len(c) > 1]
    cycles.sort(key=lambda c: (-len(c), c))
    in_cycles = sum(len(c) for c in cycles)
    used = sum(len(e) for e in edges.values())
    print(f"{folder}: {len(nodes)} files, {used} file-to-file uses, "
          f"{len(cycles)} cycle(s) holding {in_cycles} files")
    for number, cycle in enumerate(cycles, 1):
        inner = sum(len(edges[n] & set(cycle)) for n in cycle)
        print(f"  cycle {number}: {len(cycle)} files, {inner} uses inside:")
        for member in cycle:
            inside = sorted(edges[member] & set(cycle))
            print(f"    {member} -> {', '.join(inside)}")
    free = [n for n in nodes if not any(n in c for c in cycles)]
    if free:
        print(f"  in no cycle: {', '.join(free)}")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("manifest", help="the layer objects manifest "
                        "(<build>/tests/layers/layer_objects.txt)")
    parser.add_argument("--nm", default="nm", help="the nm program")
    parser.add_argument("--exports", metavar="LIBRARY=FILE", action="append",
                        default=[], help="a shared library whose exported "
                        "symbols the layers of other libraries may use")
    parser.add_argument("--cycles", metavar="FOLDER",
                        help="report the call cycles of one source folder")
    args = parser.parse_args()
    layers, sees, objects, library = read_manifest(args.manifest)
    load_symbols(objects, args.nm)
    if args.cycles:
        return report_cycles(args.cycles, objects)
    return check_layers(layers, sees, objects, library,
                        exported(args.exports, args.nm))


if __name__ == "__main__":
    sys.exit(main())
