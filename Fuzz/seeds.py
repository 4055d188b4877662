#!/usr/bin/env python3
"""Regenerates Fuzz/Corpus/<Target>/ seed files from the repository's examples, rules, docs
and tests (issue 13 §7). Small by design: libFuzzer grows its own corpus from these in
Fuzz/work/ (not committed). Run from anywhere: python3 Fuzz/seeds.py"""
import hashlib, pathlib, re

root = pathlib.Path(__file__).resolve().parent.parent
out = root / "Fuzz" / "Corpus"

def put(target, data: bytes):
    d = out / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)

def swift_literals(text):
    """The one-line string literals in Swift source, unescaped enough for seeds."""
    for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', text):
        s = m.group(1)
        s = re.sub(r'\\u\{([0-9a-fA-F]+)\}', lambda u: chr(int(u.group(1), 16)), s)
        yield s.replace('\\n', '\n').replace('\\t', '\t').replace('\\r', '\r').replace('\\"', '"').replace('\\\\', '\\')

def head(path, lines=12):
    return b"".join(path.read_bytes().splitlines(keepends=True)[:lines])

# CSV: byte 0 = flags (0x08 also reads through CSVReader, 0x10 header, 1 ';', 2 TAB, 3 '|', 4 quote ').
for p in sorted(root.glob("examples/**/*.csv")):
    put("FuzzCSV", b"\x18" + head(p))
    put("FuzzCSV", b"\x00" + head(p, 4))
for flags, body in [(0x08, b'a,"b ""q"" c",d\r\n1,"x\ny",3\n'), (0x09, b'a;b;c\n1;"2;2";3'),
                    (0x0a, b'a\tb\tc\n1\t2\t3\n'), (0x0b, b'a|b\n"|"|x\n'), (0x0c, b"a,'b''c',d\n"),
                    (0x08, b'a,"unterminated\n'), (0x08, b'a,"x"y,z\n'), (0x18, b'\xef\xbb\xbfid,name\n1,\xc3\xa9\r\n'),
                    (0x08, b'\n\n,,\n"",""\r\n'), (0x18, b'id,name\n1,a\n2\n3,b,c\n')]:
    put("FuzzCSV", bytes([flags]) + body)

# XML: byte 0 = record path (0 person, 1 /people/person, 2 department, 3 p:item), bit 2 'name' as a list.
people = (root / "examples/people/people.xml").read_bytes().splitlines(keepends=True)
put("FuzzXML", b"\x00" + b"".join(people[:4]) + b"</people>\n")
put("FuzzXML", b"\x01" + b"".join(people[:3]) + b"</people>\n")
dept = (root / "examples/people/departments.xml").read_bytes().splitlines(keepends=True)
put("FuzzXML", b"\x02" + b"".join(dept[:4]) + dept[-1])
for flags, body in [
        (0, b'<people><person id="1"><name>A &amp; B</name><phones><phone>1</phone><phone>2</phone></phones>'
            b'<address><city>Oslo</city><zip>0150</zip></address></person></people>'),
        (4, b'<people><person><name>x</name><name><![CDATA[y]]></name></person></people>'),
        (3, b'<r xmlns:p="urn:example:people"><p:item id="7"><p:title>t</p:title></p:item></r>'),
        (0, b'<?xml version="1.0"?>\n<!DOCTYPE people [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n'
            b'<people><person><name>&e;</name></person></people>'),
        (0, b'<?xml version="1.0"?>\n<!DOCTYPE p [<!ENTITY a "aa"><!ENTITY b "&a;&a;">]><people><person><name>&b;</name></person></people>'),
        (1, b'<people><person><name>ok</name></person><person><name>bad</nme></person></people>'),
        (0, b'\xef\xbb\xbf<people><person id="\xc3\xa9">&#233;&#x1F600;</person></people>')]:
    put("FuzzXML", bytes([flags]) + body)

# Rules files: the bundled ones, whole, and the YAML blocks of the docs.
for p in sorted(root.glob("rules/*.yml")) + sorted(root.glob("examples/**/rules.yml")):
    put("FuzzRules", p.read_bytes())
for p in sorted(root.glob("docs/*.md")) + [root / "README.md"]:
    for block in re.findall(r"```ya?ml\n(.*?)```", p.read_text(), re.S):
        if "entities" in block or "sources" in block:
            put("FuzzRules", block.encode())

# Expressions: byte 0 even = boolean, odd = any type.
exprs = set()
for p in sorted(root.glob("rules/*.yml")) + sorted(root.glob("docs/*.md")) + [root / "README.md"]:
    for m in re.finditer(r"(?:when|assert|expression|value):\s*(.+)", p.read_text()):
        exprs.add(m.group(1).strip().strip("`"))
for p in sorted(root.glob("Tests/AuditorTests/Expression*Tests.swift")):
    for m in re.finditer(r'compile\("((?:[^"\\]|\\.)*)"', p.read_text()):
        exprs.add(next(swift_literals('"' + m.group(1) + '"')))
for i, e in enumerate(sorted(exprs)):
    put("FuzzExpression", bytes([i & 1]) + e.encode())

# Patterns: pattern, NUL, then probe texts separated by NUL.
for p in sorted(root.glob("Tests/AuditorTests/Pattern*Tests.swift")):
    for m in re.finditer(r'PatternCase\((".*?)\)(?:,|$)', p.read_text(), re.M):
        lits = list(swift_literals(m.group(1)))
        if lits:
            put("FuzzPattern", b"\0".join(s.encode("utf-8", "surrogatepass") for s in lits))
for p in sorted(root.glob("rules/*.yml")) + sorted(root.glob("examples/**/rules.yml")):
    for m in re.finditer(r'pattern:\s*"((?:[^"\\]|\\.)*)"', p.read_text()):
        put("FuzzPattern", m.group(1).replace("\\\\", "\\").encode() + b"\0jwagner@example.org\0Ab C\0\xff")

# Rules files written inline in the tests (multi-line literals holding `entities:`), the first
# 60 that have no interpolation.
count = 0
for p in sorted(root.glob("Tests/**/*.swift")):
    for m in re.finditer(r'"""\n(.*?)\n( *)"""', p.read_text(), re.S):
        body = m.group(1)
        if "entities:" not in body or "\\(" in body or count >= 60:
            continue
        indent = len(m.group(2))
        text = "\n".join(l[indent:] for l in body.split("\n")) + "\n"
        put("FuzzRules", text.replace("\\\\", "\\").encode())
        count += 1
