#!/usr/bin/env python3
"""Writes src/test/resources/scenarios/scripting-libs.txt from src/test/resources/lua/library-snippets.txt:
one scenario per "# ==== name" section, one `EVAL "<snippet>" 0` step per snippet (redis-cli quoting).
LuaLibrariesTest checks that the two files agree; run this after editing the snippets."""
import pathlib

here = pathlib.Path(__file__).resolve().parent.parent / "src" / "test" / "resources"
snippets = (here / "lua" / "library-snippets.txt").read_text(encoding="utf-8").split("\n")
out = ["# Generated from lua/library-snippets.txt by conformance/scripts/lua-snippets-to-scenario.py: edit the snippets,",
       "# then rerun the script. Pending: needs EVAL (branch lua-core); move to scenarios/ when it is merged.", ""]
for line in snippets:
    s = line.strip()
    if s.startswith("# ===="):
        out += ["", "### " + s[len("# ===="):].strip()]
    elif s and not s.startswith("#"):
        if any(ord(c) < 32 or ord(c) > 126 for c in s):
            raise SystemExit("snippets must be printable ASCII: " + s)
        out.append('EVAL "' + s.replace("\\", "\\\\").replace('"', '\\"') + '" 0')
(here / "scenarios" / "scripting-libs.txt").write_text("\n".join(out) + "\n", encoding="utf-8")
