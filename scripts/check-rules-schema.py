#!/usr/bin/env python3
"""Validates rules files against schemas/rules.schema.json with the jsonschema package
(the reference implementation of JSON Schema 2020-12, not ours).

    python3 scripts/check-rules-schema.py FILE.yml|FILE.md ...

A .md file contributes each ```yaml block that is a whole rules file (it has `version:` and
`entities:`). YAML is read with YAML 1.2's booleans (true/false only), as auditor reads it:
PyYAML's YAML 1.1 would turn the key `on:` into true
and a date into a date object. Prints one line per problem with its
JSON path; exit 0 when every file is valid, 1 otherwise, 2 when jsonschema or PyYAML is missing.
"""
import json
import os
import re
import sys

try:
    import jsonschema
    import yaml
except ImportError as e:
    print(f"check-rules-schema: {e}; pip install jsonschema pyyaml", file=sys.stderr)
    sys.exit(2)


class Yaml12Loader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2's core schema: booleans are true and false only (never
    on/off/yes/no), and dates stay text (auditor parses them by the attribute's type)."""


Yaml12Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:timestamp")]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


def documents(path):
    text = open(path, encoding="utf-8").read()
    if not path.endswith(".md"):
        yield path, text
        return
    for m in re.finditer(r"^```ya?ml\n(.*?)^```", text, re.S | re.M):
        block = m.group(1)
        if re.search(r"^version:", block, re.M) and re.search(r"^entities:", block, re.M):
            yield f"{path}:{text.count(chr(10), 0, m.start()) + 2}", block


def main(paths):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "schemas", "rules.schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    checked = 0
    for path in paths:
        for name, text in documents(path):
            checked += 1
            data = yaml.load(text, Loader=Yaml12Loader)
            for error in sorted(validator.iter_errors(data), key=lambda e: e.json_path):
                bad += 1
                print(f"{name}: {error.json_path}: {error.message[:300]}")
    print(f"checked {checked} rules file(s), {bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
