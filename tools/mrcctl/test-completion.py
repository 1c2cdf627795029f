#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host test of mrcctl.bash-completion against `mrcctl help`.

Every object of "OBJECT := { ... }" is offered, and so is each word of
every synopsis line: the commands on the way to it, then each keyword and
each value of a keyword (placeholders such as KNOB or PATH expanded by
their definitions). Devices, netdevs and namespaces come from stand-ins
for mrcctl and ip(8): "-n NS" reaches them. Prints KTAP; exits 1 on a
failure.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MRCCTL = os.path.join(HERE, "mrcctl")
COMPLETION = os.path.join(HERE, "mrcctl.bash-completion")
WORD = re.compile(r"^-{0,2}[a-z][a-z0-9_-]*$")

STUB_MRCCTL = """#!/bin/sh
# stand-in for mrcctl: the devices of "dev show", per namespace
if [ "$1" = -n ]; then ns=$2; shift 2; fi
[ "$*" = "dev show" ] || exit 2
if [ -n "$ns" ]; then echo "mrc${ns}0: node_guid 0"; else echo "mrc0: node_guid 0"; echo "mrc1: node_guid 0"; fi
"""
STUB_IP = """#!/bin/sh
# stand-in for ip(8): netns list, [-n NS] -o link show
if [ "$*" = "netns list" ]; then echo "blue (id: 1)"; echo red; exit 0; fi
if [ "$1" = -n ]; then ns=$2; shift 2; fi
[ "$*" = "-o link show" ] || exit 2
echo "1: lo: <LOOPBACK,UP> mtu 65536"
if [ -n "$ns" ]; then echo "2: ${ns}eth0@if9: <UP> mtu 1500"; else echo "2: eth0@if5: <UP> mtu 1500"; fi
"""


def parse_help(text):
    """(synopses, definitions): each synopsis a token list after "mrcctl",
    each definition NAME -> its token list."""
    lines = text.splitlines()
    synopses, defs = [], {}
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("mrcctl ") and "OPTIONS" not in line and "help" != line.split()[-1]:
            joined = line
            while i + 1 < len(lines) and lines[i + 1].startswith(" "):
                i += 1
                joined += " " + lines[i]
            synopses.append(joined.split()[1:])
        elif re.match(r"^[A-Z_]+ := ", line) and not line.startswith(("OBJECT", "OPTIONS")):
            joined = line
            while i + 1 < len(lines) and lines[i + 1].startswith(" "):
                i += 1
                joined += " " + lines[i]
            joined = re.sub(r"\([^)]*\)", " ", joined)
            parts = re.split(r"(?:^|\s)([A-Z_]+) := ", joined)
            for name, body in zip(parts[1::2], parts[2::2]):
                defs[name] = body.split()
        i += 1
    return synopses, defs


def expand(tokens, defs, depth=0):
    out = []
    for t in tokens:
        if t in defs and depth < 4:
            out += expand(defs[t], defs, depth + 1)
        else:
            out.append(t)
    return out


def alternatives(tokens):
    """'ev { deny | allow } dev ...' -> one token list per command word"""
    if len(tokens) > 2 and tokens[1] == "{":
        end = tokens.index("}")
        return [[tokens[0], w] + tokens[end + 1:] for w in tokens[2:end] if w != "|"]
    return [tokens]


def main():
    text = subprocess.run([MRCCTL, "help"], capture_output=True, text=True, check=True).stdout
    m = re.search(r"^OBJECT := \{(.*)\}", text, re.M)
    objects = set(w for w in m.group(1).split() if w != "|")
    # the usage lines' other commands (apply) and options (-batch, -force)
    usage = re.findall(r"^(?:Usage:)?\s+mrcctl \[ OPTIONS \] (.*)$", text, re.M)
    words = set(w for u in usage for w in u.split())
    objects |= set(w for w in words if re.match(r"^[a-z]+$", w))
    usage_opts = set(w for w in words if re.match(r"^-[a-z]+$", w))
    synopses, defs = parse_help(text)

    tmp = tempfile.mkdtemp(prefix="mrcctl-compl.")
    stub = os.path.join(tmp, "mrcctl")
    for name, body in (("mrcctl", STUB_MRCCTL), ("ip", STUB_IP)):
        with open(os.path.join(tmp, name), "w") as f:
            f.write(body)
        os.chmod(os.path.join(tmp, name), 0o755)
    open(os.path.join(tmp, "testfab.yaml"), "w").close()

    queries = []  # (words, check(replies) -> None or message, description)

    def q(words, desc, want=None, exactly=None):
        queries.append((words, desc, want, exactly))

    q([""], "objects of `mrcctl help`, help and version", exactly=objects | {"help", "version"})
    q(["-"], "options", want={"-json", "-pretty", "-netns", "-Version", "-help"} | usage_opts)
    q(["-batch", "testf"], "-batch: a file", exactly={"testfab.yaml"})
    q(["apply", "testf"], "apply: a file", exactly={"testfab.yaml"})
    q(["-n", ""], "-n: the namespaces of ip netns", exactly={"blue", "red"})
    q(["dev", "show", ""], "dev show: the devices", exactly={"mrc0", "mrc1"})
    q(["-n", "blue", "-j", "plane", "show", "dev", ""], "dev in -n NS: that namespace's devices",
      exactly={"mrcblue0"})
    q(["plane", "add", "dev", "mrc0", "netdev", ""], "netdev: the netdevs", exactly={"lo", "eth0"})
    q(["-n", "red", "plane", "add", "dev", "mrc0", "netdev", ""], "netdev in -n NS: that namespace's",
      exactly={"lo", "redeth0"})
    q(["fabric", "load", "testf"], "fabric load: a file", exactly={"testfab.yaml"})
    q(["cc", "profile", "set", "dev", "mrc0", "id", "3", "state", "o"], "state of a profile",
      exactly={"offline", "online"})

    # every synopsis: the command words on the way, then its keywords and values
    plan = []
    for syn in synopses:
        for toks in alternatives(syn):
            prefix = []
            for t in toks:
                if not re.match(r"^[a-z]+$", t):
                    break
                prefix.append(t)
            for k in range(len(prefix)):
                q(prefix[:k] + [""], f"`mrcctl {' '.join(prefix)}`: word {k + 1} offered",
                  want={prefix[k]})
            rest = set(t for t in expand(toks[len(prefix):], defs) if WORD.match(t))
            plan.append((prefix, rest))
    # first pass: the keywords after each prefix; a second asks for their values
    results = run(stub, tmp, [w for w, *_ in queries] + [p + ["X", ""] for p, _ in plan])
    kw_after = results[len(queries):]
    second = []
    for (prefix, rest), kws in zip(plan, kw_after):
        for kw in sorted(kws):
            second.append(prefix + ["X", kw, ""])
    values = run(stub, tmp, second)
    vi = 0
    n = fails = 0
    print("KTAP version 1")
    print(f"1..{len(queries) + len(plan)}")
    for (words, desc, want, exactly), got in zip(queries, results):
        n += 1
        bad = (want and not want <= got) or (exactly is not None and got != exactly)
        if bad:
            fails += 1
            print(f"not ok {n} {desc}")
            print(f"# mrcctl {' '.join(words)}<TAB>: {sorted(got)}; want {sorted(want or exactly)}")
        else:
            print(f"ok {n} {desc}")
    for (prefix, rest), kws in zip(plan, kw_after):
        offered = set(kws)
        for _ in kws:
            offered |= values[vi]
            vi += 1
        n += 1
        missing = rest - offered
        if missing:
            fails += 1
            print(f"not ok {n} `mrcctl {' '.join(prefix)}`: keywords and values of its synopsis offered")
            print(f"# not offered: {sorted(missing)}")
        else:
            print(f"ok {n} `mrcctl {' '.join(prefix)}`: keywords and values of its synopsis offered")
    print(f"# {n - fails} passed, {fails} failed")
    return 1 if fails else 0


def run(stub, tmp, word_lists):
    """the completion's replies for each word list (the last word being completed)"""
    script = [f"source {shlex.quote(COMPLETION)}",
              "comp() { COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _mrcctl;"
              " printf 'R'; printf ' %s' \"${COMPREPLY[@]}\"; echo; }"]
    for words in word_lists:
        script.append("comp " + " ".join(shlex.quote(w) for w in [stub] + words))
    env = dict(os.environ, PATH=tmp + ":" + os.environ.get("PATH", ""))
    out = subprocess.run(["bash", "--norc", "--noprofile"], input="\n".join(script) + "\n",
                         capture_output=True, text=True, cwd=tmp, env=env, check=True).stdout
    replies = [set(line.split()[1:]) for line in out.splitlines() if line.startswith("R")]
    assert len(replies) == len(word_lists), out
    return replies


if __name__ == "__main__":
    sys.exit(main())
