#!/usr/bin/env python3
"""Checks the layering of libtkdump and of its front ends: no file includes
a header of a folder its folder may not depend on, and `tk_` names only
what libtkdump makes public.

The rules live in one place, the table of dumpers/src/README.md: one row per
folder of dumpers/src with its public headers and the folders it may include.
A folder may include itself, the folders its row names and, through them,
everything they may include (the table is read as layers).  Each public
header (dumpers/include/tkdump/) belongs to the folder whose row names it and
follows that folder's rules, as do the folder's .c and .h files.

Fails when a file includes a header of a folder its folder may not reach,
when an internal include does not name its folder ("text.h" instead of
"util/text.h"), when a folder or public header is missing from the table, or
when the table itself has a cycle.

The front ends written in folders (FRONT_ENDS below: viewer/) follow the
same rules from a table of their own between the same markers in their
README.md, with three columns: folder | owns | may include.  Their internal
includes name the folder relative to the front end ("widgets/tkv_style.h");
libtkdump's public headers ("tkdump/...") are open to every folder.

The flat front ends (cli/, html/, compiler/, ...) have tables of their
own, in the README.md of each front end's top folder (any README.md one or
two folders below the repository root, outside dumpers/ and FRONT_ENDS,
holding a <!-- layers --> table, five columns like the library's).  Their rows name folders from the repository root
(`cli/`); "public headers" are the libtkdump headers the
folder may include (or "all"), "may include" the other front-end folders
it may include.  A front-end file includes its own folder's headers, those
of the folders it may reach, and the public headers its row names; never a
header of dumpers/src.  Names its headers declare (and functions its .c
files define without `static`) carry one of the row's prefixes, and none
starts with tk_ or TK_.  Every folder below a front end's README holding C
files needs a row.

Usage: check_layers.py DUMPERS_DIR      check the tree (TAP output)
       check_layers.py --self-test      also check that a planted bad
                                        include in a copy is caught
"""
import os
import re
import shutil
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# Quoted includes that are no part of the library's layers: the build's
# configuration header.
OUTSIDE = {"tkview-config.h"}


def read_table(readme):
    """{folder: (public headers, folders it may include, internal prefixes)}"""
    rows = {}
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    start = text.find("<!-- layers -->")
    end = text.find("<!-- /layers -->")
    if start < 0 or end < 0:
        raise SystemExit(f"{readme}: no <!-- layers --> table")
    for line in text[start:end].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not cells[0].startswith("`"):
            continue
        folder = cells[0].strip("`").rstrip("/")
        headers = set(re.findall(r"tk_\w+\.h", cells[2]))
        if re.search(r"\ball\b", cells[2]):
            headers.add("*")
        prefixes = tuple(re.findall(r"`(\w+)`", cells[3]))
        deps = set(re.findall(r"`([\w/]+?)/`", cells[4]))
        rows[folder] = (headers, deps, prefixes)
    return rows


def read_front_end_table(readme):
    """A front end's table: {folder: (no headers, folders it may include,
    no prefixes)}, in read_table's shape so that closure() reads it."""
    rows = {}
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    start = text.find("<!-- layers -->")
    end = text.find("<!-- /layers -->")
    if start < 0 or end < 0:
        raise SystemExit(f"{readme}: no <!-- layers --> table")
    for line in text[start:end].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        rows[cells[0].strip("`/")] = (set(), set(re.findall(r"`(\w+)/`", cells[2])), ())
    return rows


# Front ends whose source is in folders, each with its own table in its
# README.md (read_front_end_table), relative to the repository's root.
FRONT_ENDS = ["viewer"]


def check_front_end(root, name):
    """The problems of front end NAME (a folder of ROOT) against its table,
    and how many files were checked."""
    top = os.path.join(root, name)
    rows = read_front_end_table(os.path.join(top, "README.md"))
    reach = closure(rows)
    problems, n = [], 0
    for entry in sorted(os.listdir(top)):
        path = os.path.join(top, entry)
        if entry.endswith((".c", ".h")):
            problems.append(f"{name}/{entry} is in no folder of the table")
            continue
        if not os.path.isdir(path):
            continue
        code = sorted(f for f in os.listdir(path) if f.endswith((".c", ".h")))
        if code and entry not in rows:
            problems.append(f"{name}/{entry}/ has no row in {name}/README.md")
            continue
        for f in code:
            n += 1
            shown = f"{name}/{entry}/{f}"
            with open(os.path.join(path, f), encoding="utf-8") as fh:
                text = fh.read()
            for m in INCLUDE.finditer(text):
                inc = m.group(1)
                line = text.count("\n", 0, m.start()) + 1
                target = inc.split("/", 1)[0] if "/" in inc else None
                if inc in OUTSIDE or target == "tkdump":
                    continue
                if target is None:
                    problems.append(f"{shown}:{line}: includes \"{inc}\" without "
                                    "its folder (write \"folder/name.h\")")
                elif target not in rows:
                    problems.append(f"{shown}:{line}: includes {inc}: no folder "
                                    f"{target}/ in {name}/README.md")
                elif target not in reach[entry]:
                    problems.append(f"{shown}:{line}: {entry}/ includes {inc} "
                                    f"({target}/), which it may not depend on")
    return problems, n


def closure(rows):
    """Every folder each folder may reach; raises on a cycle."""
    reach = {}
    state = {}

    def visit(f, path):
        if state.get(f) == 1:
            raise SystemExit("the table has a cycle: " + " -> ".join(path + [f]))
        if state.get(f) == 2:
            return reach[f]
        state[f] = 1
        r = {f}
        for d in rows[f][1]:
            if d not in rows:
                raise SystemExit(f"the table names an unknown folder {d}/ "
                                 f"(row {f}/)")
            r |= visit(d, path + [f])
        state[f] = 2
        reach[f] = r
        return r

    for f in rows:
        visit(f, [])
    return reach


def check(dumpers):
    """The list of problems found in the tree at DUMPERS."""
    src = os.path.join(dumpers, "src")
    pub = os.path.join(dumpers, "include", "tkdump")
    rows = read_table(os.path.join(src, "README.md"))
    reach = closure(rows)
    header_folder = {h: f for f, (hs, _, _) in rows.items() for h in hs}
    problems = []

    folders = sorted(d for d in os.listdir(src)
                     if os.path.isdir(os.path.join(src, d)))
    for d in folders:
        if d not in rows:
            problems.append(f"dumpers/src/{d}/ has no row in the table")
    for h in sorted(os.listdir(pub)):
        if h.endswith(".h") and h not in header_folder:
            problems.append(f"tkdump/{h} is in no row of the table")

    # Each folder's README.md says in words what the table says.
    for d in folders:
        if d not in rows:
            continue
        readme = os.path.join(src, d, "README.md")
        if not os.path.exists(readme):
            problems.append(f"dumpers/src/{d}/ has no README.md")
            continue
        with open(readme, encoding="utf-8") as f:
            said = dict(re.findall(r"^(May include|Included by):(.*)$",
                                   f.read(), re.M))
        users = {f for f, (_, deps, _) in rows.items() if d in deps}
        for key, want in (("May include", rows[d][1]), ("Included by", users)):
            got = set(re.findall(r"`(\w+)/`", said.get(key, "")))
            if key not in said or got != want:
                problems.append(
                    f"src/{d}/README.md: \"{key}:\" names "
                    f"{sorted(got) if key in said else 'nothing'}, the table "
                    f"{sorted(want)}")

    files = []
    for d in folders:
        for name in sorted(os.listdir(os.path.join(src, d))):
            if name.endswith((".c", ".h")):
                files.append((d, os.path.join(src, d, name), f"src/{d}/{name}"))
    for h in sorted(os.listdir(pub)):
        if h in header_folder:
            files.append((header_folder[h], os.path.join(pub, h),
                          f"include/tkdump/{h}"))

    for folder, path, shown in files:
        if folder not in rows:
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for m in INCLUDE.finditer(text):
            inc = m.group(1)
            line = text.count("\n", 0, m.start()) + 1
            if inc in OUTSIDE:
                continue
            if inc.startswith("tkdump/") or shown.startswith("include/"):
                h = os.path.basename(inc)
                target = header_folder.get(h)
                if target is None:
                    problems.append(f"{shown}:{line}: includes {inc}, which "
                                    "is in no row of the table")
                    continue
            elif "/" in inc:
                target = inc.split("/", 1)[0]
                if target not in rows:
                    problems.append(f"{shown}:{line}: includes {inc}: no "
                                    f"folder {target}/ in the table")
                    continue
            else:
                problems.append(f"{shown}:{line}: includes \"{inc}\" without "
                                "its folder (write \"folder/name.h\")")
                continue
            if target not in reach[folder]:
                problems.append(f"{shown}:{line}: {folder}/ includes {inc} "
                                f"({target}/), which it may not depend on")
    problems += check_names(src, pub, rows)
    public = set()
    for h in os.listdir(pub):
        if h.endswith(".h"):
            with open(os.path.join(pub, h), encoding="utf-8") as f:
                public |= {n for _, n in declared_names(f.read())}
    front, n_front = check_fronts(os.path.dirname(os.path.abspath(dumpers)),
                                  set(header_folder), public)
    return problems + front, len(files) + n_front


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"),
                  text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def declared_names(text):
    """(line, name) of what a header declares at file scope: functions,
    typedefs, struct tags, enumerators and macros (not include guards)."""
    text = strip_comments(text)
    names = []

    def add(m, group=1):
        names.append((text.count("\n", 0, m.start(group)) + 1,
                      m.group(group)))

    for m in re.finditer(r"^(?!#|typedef\b|struct\b|enum\b|union\b|\s)"
                         r"[^;{}()=]*?\b(\w+)\s*\(", text, re.M):
        add(m)
    for m in re.finditer(r"^typedef\b[^;]*?\(\s*\*\s*(\w+)\s*\)", text, re.M):
        add(m)
    for m in re.finditer(r"^typedef\s+(?:struct|enum|union)\s+\w+\s+(\w+);",
                         text, re.M):
        add(m)
    for m in re.finditer(r"^\}\s*(\w+)\s*;", text, re.M):
        add(m)
    for m in re.finditer(r"^(?:typedef\s+)?(?:struct|union|enum)\s+(\w+)\s*\{",
                         text, re.M):
        add(m)
    for m in re.finditer(r"^(?:typedef\s+)?enum\b[^{;]*\{([^}]*)\}", text, re.M):
        for e in re.finditer(r"(?:^|,)\s*([A-Za-z_]\w*)", m.group(1)):
            names.append((text.count("\n", 0, m.start(1) + e.start(1)) + 1,
                          e.group(1)))
    for m in re.finditer(r"^extern\b(?!\s*\"C\")[^;(]*?\b(\w+)\s*(?:\[[^\]]*\])?\s*;",
                         text, re.M):
        add(m)
    for m in re.finditer(r"^#\s*define\s+(\w+)", text, re.M):
        if not re.fullmatch(r"TKDUMP_\w+_H", m.group(1)):
            add(m)
    return names


def unexported(text):
    """(line, name) of the functions a public header declares without
    TK_API on the line before (tk_export.h)."""
    lines = strip_comments(text).split("\n")
    missing = []
    depth = 0
    for i, line in enumerate(lines):
        m = re.match(r"(?!typedef\b|static\b|struct\b|enum\b|union\b|extern\b)"
                     r"[A-Za-z_][\w\s*]*?\b(\w+)\s*\(", line)
        if m and depth == 0 and not line.startswith("#"):
            if i == 0 or lines[i - 1].strip() != "TK_API":
                missing.append((i + 1, m.group(1)))
        if not line.startswith('extern "C"'):
            code = re.sub(r'"[^"]*"', "", line)
            depth += code.count("{") - code.count("}")
    return missing


def check_names(src, pub, rows):
    """tk_ means public: what a folder's internal headers declare carries
    one of the folder's prefixes (upper case for macros and enumerators),
    unless it is a public name (a public object's struct)."""
    public = set()
    problems = []
    for h in sorted(os.listdir(pub)):
        if h.endswith(".h"):
            with open(os.path.join(pub, h), encoding="utf-8") as f:
                text = f.read()
            public |= {n for _, n in declared_names(text)}
            for line, n in unexported(text):
                problems.append(f"include/tkdump/{h}:{line}: {n} is public "
                                "but not marked TK_API")
    for d, (_, _, prefixes) in sorted(rows.items()):
        folder = os.path.join(src, d)
        if not os.path.isdir(folder):
            continue
        allowed = tuple(prefixes) + tuple(p.upper() for p in prefixes)
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".h"):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                decls = declared_names(f.read())
            for line, n in decls:
                if n in public or n.startswith(allowed):
                    continue
                why = ("tk_ is for public names" if n.lower().startswith("tk_")
                       else "it has none of the folder's prefixes " +
                       ", ".join(prefixes))
                problems.append(f"src/{d}/{name}:{line}: declares {n}: {why}")
    return problems


def front_readmes(root):
    """README.md files of front ends holding a layers table: one or two
    folders below ROOT, outside dumpers/ (whose table is the library's)."""
    found = []
    for top in sorted(os.listdir(root)):
        if top in ("dumpers", "build", *FRONT_ENDS) or top.startswith(
                (".", "build")):
            continue
        if not os.path.isdir(os.path.join(root, top)):
            continue
        for sub in [""] + sorted(os.listdir(os.path.join(root, top))):
            readme = os.path.join(root, top, sub, "README.md")
            if os.path.isfile(readme):
                with open(readme, encoding="utf-8") as f:
                    if "<!-- layers -->" in f.read():
                        found.append(readme)
    return found


def c_files(folder):
    return sorted(n for n in os.listdir(folder) if n.endswith((".c", ".h")))


def check_fronts(root, pub_headers, public):
    """Problems of the front ends' tables (front_readmes) against the tree
    at ROOT; PUB_HEADERS the public header names, PUBLIC the public names."""
    rows = {}
    for readme in front_readmes(root):
        rows.update(read_table(readme))
    if not rows:
        return [], 0
    problems = []
    reach = closure(rows)
    # Every folder below a front end's README holding C files has a row.
    for readme in front_readmes(root):
        top = os.path.dirname(readme)
        for d, _, names in os.walk(top):
            if any(n.endswith((".c", ".h")) for n in names):
                rel = os.path.relpath(d, root)
                if rel not in rows and not rel.split(os.sep)[0].startswith(
                        ("build", "node_modules")):
                    problems.append(f"{rel}/ holds C files but has no row in "
                                    f"{os.path.relpath(readme, root)}")
    for f in rows:
        if not os.path.isdir(os.path.join(root, f)):
            problems.append(f"the front-end table names {f}/, which is no "
                            "folder")
    owner = {}  # root-relative path of each front-end header -> its folder
    for f in rows:
        if os.path.isdir(os.path.join(root, f)):
            for n in c_files(os.path.join(root, f)):
                owner[f"{f}/{n}"] = f
    n_files = 0
    for f, (headers, _, prefixes) in sorted(rows.items()):
        folder = os.path.join(root, f)
        if not os.path.isdir(folder):
            continue
        allowed = tuple(prefixes) + tuple(p.upper() for p in prefixes)
        for name in c_files(folder):
            n_files += 1
            shown = f"{f}/{name}"
            with open(os.path.join(folder, name), encoding="utf-8") as fh:
                text = fh.read()
            for m in INCLUDE.finditer(text):
                inc = m.group(1)
                line = text.count("\n", 0, m.start()) + 1
                if inc.startswith("tkdump/"):
                    h = os.path.basename(inc)
                    if h not in pub_headers:
                        problems.append(f"{shown}:{line}: includes {inc}, "
                                        "which is no public header")
                    elif "*" not in headers and h not in headers:
                        problems.append(f"{shown}:{line}: includes {inc}, "
                                        f"which the row of {f}/ does not name")
                    continue
                mine = [o for p, o in owner.items()
                        if p == f"{f}/{inc}" or p.endswith("/" + inc)]
                if not mine:
                    if os.path.exists(os.path.join(root, "dumpers", "src", inc)):
                        problems.append(f"{shown}:{line}: includes {inc}, a "
                                        "header inside libtkdump")
                    continue  # generated or configuration headers
                if not any(o in reach[f] for o in mine):
                    problems.append(f"{shown}:{line}: {f}/ includes {inc} "
                                    f"({mine[0]}/), which it may not depend on")
            if name.endswith(".h"):
                decls = declared_names(text)
            else:
                body = strip_comments(text)
                decls = [(body.count("\n", 0, m.start(1)) + 1, m.group(1))
                         for m in re.finditer(
                             r"^(?!static\b|#|typedef\b|struct\b|enum\b|union\b"
                             r"|extern\b|\s)[A-Za-z_][\w \t*]*?\b(\w+)\s*\("
                             r"[^;{]*\)\s*\{", body, re.M)]
            for line, n in decls:
                if re.fullmatch(r"\w+_H", n) or n == "main":
                    continue
                if shown in PRELOADED and n in PRELOADED[shown]:
                    continue
                if n.lower().startswith("tk_"):
                    if n in public:
                        continue
                    problems.append(f"{shown}:{line}: declares {n}: tk_ is "
                                    "for libtkdump's public names")
                elif not n.startswith(allowed):
                    problems.append(f"{shown}:{line}: declares {n}: it has "
                                    "none of the folder's prefixes " +
                                    ", ".join(prefixes))
    return problems, n_files


# Libraries preloaded into other programs: they define libc's own names
# (that is what interposing is), and only those.
PRELOADED = {
    "compiler/stderr_batch.c": {"write", "dup2", "dup3", "close", "posix_spawn",
                                "posix_spawnp", "_exit", "abort"},
}


def self_test(dumpers):
    """Plants a bad include in a copy and checks that it is caught."""
    tmp = tempfile.mkdtemp(prefix="check_layers.")
    try:
        copy = os.path.join(tmp, "dumpers")
        shutil.copytree(os.path.join(dumpers, "src"), os.path.join(copy, "src"))
        shutil.copytree(os.path.join(dumpers, "include"),
                        os.path.join(copy, "include"))
        # The lowest folder including the highest public header.
        bad = os.path.join(copy, "src", "util", "planted.c")
        with open(bad, "w", encoding="utf-8") as f:
            f.write('#include "tkdump/tk_timeline.h"\n#include "text.h"\n')
        with open(os.path.join(copy, "src", "util", "planted.h"), "w",
                  encoding="utf-8") as f:
            f.write("int tk_planted(void);\n")
        front = os.path.join(tmp, "front")
        os.makedirs(front)
        with open(os.path.join(front, "README.md"), "w",
                  encoding="utf-8") as f:
            f.write("<!-- layers -->\n| folder | owns | public headers | "
                    "internal prefixes | may include |\n| --- | --- | --- | "
                    "--- | --- |\n| `front/` | a planted front end | "
                    "tk_diags.h | `front_` | nothing |\n<!-- /layers -->\n")
        with open(os.path.join(front, "front.h"), "w", encoding="utf-8") as f:
            f.write("int tk_front_run(void);\nint front_ok(void);\n")
        with open(os.path.join(front, "front.c"), "w", encoding="utf-8") as f:
            f.write('#include "tkdump/tk_timeline.h"\n'
                    '#include "util/text.h"\n')
        problems, _ = check(copy)
        return (any("front/front.h:1: declares tk_front_run" in p
                    for p in problems) and
                any("front/front.c:1:" in p and "does not name" in p
                    for p in problems) and
                any("front/front.c:2:" in p and "inside libtkdump" in p
                    for p in problems) and
                not any("front_ok" in p for p in problems) and
                any("util/planted.c:1:" in p and "may not depend" in p
                    for p in problems) and
                any("util/planted.c:2:" in p and "without its folder" in p
                    for p in problems) and
                any("util/planted.h:1: declares tk_planted" in p
                    for p in problems))
    finally:
        shutil.rmtree(tmp)


def main():
    args = sys.argv[1:]
    selftest = "--self-test" in args
    args = [a for a in args if a != "--self-test"]
    dumpers = args[0] if args else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "dumpers")
    problems, n = check(dumpers)
    for name in FRONT_ENDS:
        more, m = check_front_end(os.path.join(dumpers, ".."), name)
        problems += more
        n += m
    print("1..2" if selftest else "1..1")
    for p in problems:
        print("# " + p)
    print(("ok" if not problems else "not ok") +
          f" 1 - {n} files of dumpers/, {', '.join(FRONT_ENDS)}/ and the flat "
          "front ends include only what their layer may, and their names "
          "carry their folder's prefix")
    ok = not problems
    if selftest:
        caught = self_test(dumpers)
        print(("ok" if caught else "not ok") +
              " 2 - planted bad includes and names in a copy (library and "
              "front end) are caught")
        ok = ok and caught
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
