#!/usr/bin/env python3
"""Replays every ```session block of protocol.md through the release binary and writes the
replies back into the document (run after a change to the search alters its output; review the
diff). Usage: cargo build --release && scripts/update-protocol-examples.py"""
import pathlib, subprocess, sys

root = pathlib.Path(__file__).resolve().parent.parent
doc = root / "protocol.md"
binary = root / "target" / "release" / "othel"
lines = doc.read_text().split("\n")
out, i = [], 0
while i < len(lines):
    out.append(lines[i])
    if not lines[i].strip().startswith("```session"):
        i += 1
        continue
    args = lines[i].strip()[len("```session"):].split()
    i += 1
    block = []
    while lines[i].strip() != "```":
        block.append(lines[i])
        i += 1
    commands = [l[2:] for l in block if l.startswith("> ")]
    # Replies come in order, but a reply belongs after the command that caused it: feed the
    # commands one prefix at a time and attribute the new lines to the last command.
    replies_so_far = []
    for n in range(1, len(commands) + 1):
        result = subprocess.run([str(binary)] + args, input="\n".join(commands[:n]) + "\n",
                                capture_output=True, text=True, timeout=600)
        got = result.stdout.splitlines()
        out.append("> " + commands[n - 1])
        out.extend(got[len(replies_so_far):])
        replies_so_far = got
    out.append(lines[i])
    i += 1
doc.write_text("\n".join(out))
print("updated", doc, file=sys.stderr)
