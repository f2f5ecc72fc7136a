#!/usr/bin/env python3
"""Fails when an #include runs against the layers of layers.toml.

Every C/C++/CUDA file of the tree is given the layer of the most specific folder that holds it;
each of its #include lines is mapped to the file of the tree it names (a quoted name first beside
the includer, then like an angle name: any tree file whose path ends in /<name>), and that file's
path must lie under the includer's own folder or under one of the folders its layer may include.
Names found nowhere in the tree are system or third-party headers (<vector>, <fmt/format.h>,
<cuda.h>), except quoted ones and <spmma...> ones, which must resolve.

    check_includes.py [--root DIR] [--layers FILE]   # exit 0: clean; 1: violations (listed); 2: bad data
    check_includes.py --self-test                    # the checker against small made-up trees
"""
import argparse
import fnmatch
import os
import re
import sys
import tempfile
import tomllib

SOURCE_SUFFIXES = (".h", ".hpp", ".c", ".cc", ".cpp", ".cu", ".cuh", ".inc")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
HERE = os.path.dirname(os.path.abspath(__file__))


class DataError(Exception):
    pass


def load_layers(path):
    """{folder or glob: allowed prefixes} from layers.toml, with file and key in every error."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise DataError(f"{path}: {e}")
    if data.get("version") != 1:
        raise DataError(f"{path}: version: expected 1, got {data.get('version')!r}")
    layers = {}
    for i, entry in enumerate(data.get("layer", [])):
        where = f"{path}: layer[{i}]"
        folder, allowed = entry.get("folder"), entry.get("may_include")
        if not isinstance(folder, str) or not folder or folder.startswith("/") or folder.endswith("/"):
            raise DataError(f"{where}: folder: a relative folder like \"core\" or \"plugins/*\", got {folder!r}")
        if not isinstance(allowed, list) or not all(isinstance(a, str) and a for a in allowed):
            raise DataError(f"{where} ({folder}): may_include: a list of folders, got {allowed!r}")
        if folder in layers:
            raise DataError(f"{where}: folder {folder!r} has two entries")
        layers[folder] = allowed
    if not layers:
        raise DataError(f"{path}: no [[layer]] entries")
    return layers


def tree_files(root):
    """Every file under root (relative, '/'-separated), skipping dot folders and build trees."""
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")
                             and not os.path.exists(os.path.join(dirpath, d, "CMakeCache.txt")))
        rel = os.path.relpath(dirpath, root)
        for name in filenames:
            files.append(name if rel == "." else f"{rel}/{name}".replace(os.sep, "/"))
    return files


def concrete_layers(layers, files):
    """Globs expanded to the folders of the tree they match, where no literal entry exists."""
    folders = {p.rsplit("/", 1)[0] for p in files if "/" in p}
    every = set()
    for f in folders:
        parts = f.split("/")
        every.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    out = {k: v for k, v in layers.items() if not any(c in k for c in "*?[")}
    for pattern, allowed in layers.items():
        if any(c in pattern for c in "*?["):
            for f in sorted(every):
                if f not in out and f.count("/") == pattern.count("/") and fnmatch.fnmatchcase(f, pattern):
                    out[f] = allowed
    return out


def under(path, folder):
    return path == folder or path.startswith(folder + "/")


def layer_of(path, layers):
    best = None
    for folder in layers:
        if under(path, folder) and (best is None or len(folder) > len(best)):
            best = folder
    return best


def resolve(includer, kind, name, fileset, by_suffix, layers):
    """The tree files an include may name (several only where the name is ambiguous)."""
    if kind == '"':
        beside = os.path.normpath(os.path.join(os.path.dirname(includer), name)).replace(os.sep, "/")
        if beside in fileset:
            return [beside]
    found = by_suffix.get(name.lstrip("./"), [])
    own = layer_of(includer, layers)
    mine = [p for p in found if own and under(p, own)]
    if mine:
        return mine
    # A header under tests/ (a fixture's frozen copy of plugin.h) is never what a source outside
    # tests/ includes; an include that names only such headers is still reported.
    outside_tests = [p for p in found if not under(p, "tests")]
    return outside_tests if not under(includer, "tests") and outside_tests else found


def check(root, layers_path):
    """(violations, files checked, includes of the tree's own headers)."""
    files = tree_files(root)
    layers = concrete_layers(load_layers(layers_path), files)
    fileset = set(files)
    by_suffix = {}
    for p in files:
        parts = p.split("/")
        for i in range(len(parts)):
            by_suffix.setdefault("/".join(parts[i:]), []).append(p)
    problems, checked, internal = [], 0, 0
    for path in files:
        if not path.endswith(SOURCE_SUFFIXES):
            continue
        own = layer_of(path, layers)
        if own is None:
            problems.append(f"{path}: in no layer of {layers_path} (give its folder an entry)")
            continue
        checked += 1
        allowed = layers[own]
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            lines = f.readlines()
        for number, line in enumerate(lines, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            kind, name = m.groups()
            shown = f"<{name}>" if kind == "<" else f'"{name}"'
            targets = resolve(path, kind, name, fileset, by_suffix, layers)
            if not targets:
                if kind == '"' or name.startswith("spmma"):
                    problems.append(f"{path}:{number}: {shown} names no file of the tree")
                continue
            internal += 1
            if "*" in allowed:
                continue
            ok = [t for t in targets if under(t, own) or any(under(t, a) for a in allowed)]
            if len(ok) == len(targets):
                continue
            if ok:
                problems.append(f"{path}:{number}: {shown} is ambiguous: {', '.join(sorted(targets))}")
                continue
            target = sorted(targets)[0]
            problems.append(f"{path}:{number}: {shown} is {target} (layer {layer_of(target, layers)}), "
                            f"but layer {own} may include only {own}/ and {', '.join(allowed) or 'nothing else'}")
    return problems, checked, internal


def run(root, layers_path):
    try:
        problems, checked, internal = check(root, layers_path)
    except DataError as e:
        print(f"check_includes: {e}", file=sys.stderr)
        return 2
    for p in problems:
        print(p)
    if problems:
        print(f"check_includes: {len(problems)} include(s) against the layers of {layers_path}")
        return 1
    print(f"check_includes: {checked} files, {internal} includes of the tree's own headers, "
          f"all within the layers of {layers_path}")
    return 0


# ---- self-test: made-up trees, each with what the checker must say about it ------------------
CLEAN = {
    "abi/include/spmma/plugin.h": "#include <stdint.h>\n",
    "types/include/spmma/types.hpp": "#include <spmma/plugin.h>\n#include <vector>\n",
    "isa/include/spmma/isa/mma_sp.hpp": "#include <spmma/types.hpp>\n",
    "reference/include/spmma/reference/gemm.hpp": "#include <spmma/isa/mma_sp.hpp>\n",
    "core/problem/include/spmma/core/job.hpp": "#include <spmma/reference/gemm.hpp>\n",
    "core/problem/src/job.cpp": '#include <spmma/core/job.hpp>\n#include "local.hpp"\n',
    "core/problem/src/local.hpp": "#pragma once\n",
    "core/records/include/spmma/core/record.hpp": "#include <spmma/core/job.hpp>\n",
    "core/run/include/spmma/core/runner.hpp": "#include <spmma/core/record.hpp>\n",
    "app/main.cpp": "#include <spmma/core/job.hpp>\n#include <fmt/format.h>\n",
    "plugins/kit/include/spmma_plugin/backend.hpp": "#include <spmma/plugin.h>\n",
    "plugins/acme/acme.cpp": "#include <spmma_plugin/backend.hpp>\n",
    "plugins/cpu/cpu.cpp": "#include <spmma/types.hpp>\n",
    "plugins/sm90a/include/spmma_sm90a/pack.hpp": "#include <spmma/plugin.h>\n",
    "plugins/sm90a/src/kernel_table.hpp": "#pragma once\n",
    "plugins/emu/emu.cpp": "#include <spmma_sm90a/pack.hpp>\n#include <spmma/isa/mma_sp.hpp>\n",
    "tests/core/test_job.cpp": "#include <spmma/core/job.hpp>\n#include <spmma_sm90a/pack.hpp>\n",
    "scripts/notes.md": "#include <spmma/core/job.hpp>\n",
}
# (name, files added to CLEAN, text the report must hold; None: must pass)
CASES = [
    ("the clean tree passes", {}, None),
    ("types including the core", {"types/src/types.cpp": "\n#include <spmma/core/job.hpp>\n"},
     "types/src/types.cpp:2: <spmma/core/job.hpp> is core/problem/include/spmma/core/job.hpp (layer core/problem)"),
    ("the reference including the core by a relative path",
     {"reference/src/gemm.cpp": '#include "../../core/problem/include/spmma/core/job.hpp"\n'},
     "reference/src/gemm.cpp:1:"),
    ("the instruction models including the reference GEMM",
     {"isa/src/mma_sp.cpp": "#include <spmma/reference/gemm.hpp>\n"}, "isa/src/mma_sp.cpp:1:"),
    ("the core including the app", {"app/command.hpp": "#pragma once\n",
                                    "core/run/src/run.cpp": '#include <spmma/plugin.h>\n#include "command.hpp"\n'},
     "core/run/src/run.cpp:2:"),
    ("a lower folder of the core including a higher one",
     {"core/problem/src/sweep.cpp": "#include <spmma/core/record.hpp>\n"},
     "core/problem/src/sweep.cpp:1: <spmma/core/record.hpp> is core/records/include/spmma/core/record.hpp (layer core/records)"),
    ("the records including the runner", {"core/records/src/sink.cpp": "#include <spmma/core/runner.hpp>\n"},
     "core/records/src/sink.cpp:1: <spmma/core/runner.hpp> is core/run/include/spmma/core/runner.hpp (layer core/run)"),
    ("a folder of the core with no layer", {"core/extra/src/x.cpp": "int f();\n"}, "core/extra/src/x.cpp: in no layer"),
    ("a plugin including the codecs", {"plugins/acme/acme.cpp": "#include <spmma/types.hpp>\n"},
     "plugins/acme/acme.cpp:1: <spmma/types.hpp> is types/include/spmma/types.hpp (layer types)"),
    ("plugins/kit including a plugin",
     {"plugins/kit/src/x.cpp": "#include <spmma_sm90a/pack.hpp>\n"}, "plugins/kit/src/x.cpp:1:"),
    ("emu including a GPU plugin's sources, not its include/",
     {"plugins/emu/emu2.cpp": '#include "../sm90a/src/kernel_table.hpp"\n'}, "plugins/emu/emu2.cpp:1:"),
    ("an example plugin including plugins/kit",
     {"examples/acme/acme.c": "#include <spmma_plugin/backend.hpp>\n"}, "examples/acme/acme.c:1:"),
    ("a quoted include that names nothing", {"core/problem/src/x.cpp": '#include "gone.hpp"\n'},
     'core/problem/src/x.cpp:1: "gone.hpp" names no file of the tree'),
    ("an spmma header that names nothing", {"app/x.cpp": "#include <spmma/core/gone.hpp>\n"},
     "app/x.cpp:1: <spmma/core/gone.hpp> names no file of the tree"),
    ("a source folder with no layer", {"tools/x.cpp": "int main() {}\n"}, "tools/x.cpp: in no layer"),
    ("a header two layers provide, one of them out of bounds",
     {"types/include/spmma/fast_encode.hpp": "#pragma once\n", "core/problem/include/spmma/fast_encode.hpp": "#pragma once\n",
      "reference/src/verify.cpp": "#include <spmma/fast_encode.hpp>\n"},
     "reference/src/verify.cpp:1: <spmma/fast_encode.hpp> is ambiguous"),
    ("a frozen copy of a header under tests/ beside the real one", {"tests/vendor/old/spmma/plugin.h": "#pragma once\n"}, None),
]


def self_test(layers_path):
    failed = 0
    for name, extra, expect in CASES:
        with tempfile.TemporaryDirectory() as root:
            for rel, text in {**CLEAN, **extra}.items():
                os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
                with open(os.path.join(root, rel), "w") as f:
                    f.write(text)
            problems, _, _ = check(root, layers_path)
        report = "\n".join(problems)
        good = not problems if expect is None else (len(problems) == 1 and expect in report)
        print(f"{'ok  ' if good else 'FAIL'} {name}" + ("" if good else f"\n  expected: {expect}\n  got: {report or 'clean'}"))
        failed += not good
    print(f"check_includes --self-test: {len(CASES) - failed} of {len(CASES)} cases as expected")
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(HERE)), help="the source tree (default: this one)")
    parser.add_argument("--layers", default=os.path.join(HERE, "layers.toml"), help="the layers (default: beside this script)")
    parser.add_argument("--self-test", action="store_true", help="check the checker on made-up trees")
    args = parser.parse_args()
    if args.self_test:
        try:
            return self_test(args.layers)
        except DataError as e:
            print(f"check_includes: {e}", file=sys.stderr)
            return 2
    return run(args.root, args.layers)


if __name__ == "__main__":
    sys.exit(main())
