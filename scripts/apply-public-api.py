#!/usr/bin/env python3
"""Makes the library's top-level declarations match scripts/public-api.txt.

Every top-level `public` type in Sources/{Auditor,Readers,Reports} that the allow-list does not
name becomes `package`; a `package` type that it names becomes `public` again; an `spi` line
makes the type `@_spi(Testing) public`. Only the access keyword changes (and the attribute), so
the edit is easy to review, e.g. after a merge that moved declarations between files:

    python3 scripts/apply-public-api.py && swift build && scripts/public-api.sh | diff scripts/public-api.txt -

The compiler then names any public member whose signature uses a demoted type: make that
member `package` too, or keep the type public by adding its line to the allow-list.
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
public, spi = set(), set()
for line in (root / "scripts/public-api.txt").read_text().splitlines():
    words = line.split()
    if not words or line.startswith("#"):
        continue
    if words[0] == "?":
        public.add((words[1], words[-1]))
    elif words[1] == "spi":
        spi.add((words[0], words[-1]))
    else:
        public.add((words[0], words[-1]))

declaration = re.compile(r"^((?:@[\w()]+ )*)(public|package) ((?:final |indirect )*(?:struct|class|enum|protocol|actor|typealias) (\w+))")
changes = 0
for module in ("Auditor", "Readers", "Reports"):
    for path in sorted((root / "Sources" / module).rglob("*.swift")):
        lines = path.read_text().split("\n")
        dirty = False
        for i, line in enumerate(lines):
            match = declaration.match(line) if line is not None else None
            if not match:
                continue
            attributes, name = match.group(1), match.group(4)
            spi_above = i > 0 and lines[i - 1] is not None and re.fullmatch(r"@_spi\(\w+\) *", lines[i - 1]) is not None
            if (module, name) in spi:
                prefix = attributes if ("@_spi" in attributes or spi_above) else "@_spi(Testing) " + attributes
                new = prefix + "public " + match.group(3) + line[match.end():]
            elif (module, name) in public:
                new = attributes.replace("@_spi(Testing) ", "") + "public " + match.group(3) + line[match.end():]
            else:
                new = attributes.replace("@_spi(Testing) ", "") + "package " + match.group(3) + line[match.end():]
                if spi_above:
                    lines[i - 1] = None     # the attribute line above goes with it
            if new != line:
                lines[i] = new
                dirty = True
                changes += 1
                print(f"{path.relative_to(root)}:{i + 1}: {new.strip()[:90]}")
        if dirty:
            path.write_text("\n".join(line for line in lines if line is not None))
print(f"{changes} declaration(s) changed")
