#!/usr/bin/env python3
"""Writes the seed corpora under fuzz/corpus/ from the test fixtures, the
examples and (when given) the directory of seed specifications, whose JSON
examples are cut out of the text. Re-running it only adds files; inputs
kept by hand (the crashers, named crash-*) are never touched.

    fuzz/make_corpus.py [SEED_SPEC_DIR]
"""
import glob
import hashlib
import json
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(TOP, "fuzz", "corpus")

# fuzz_config.c: byte % 10 < 4 forces a dialect (the enum's order), else
# detection from place k - 4.
DIALECTS = {"claude": 0, "memcode": 1, "mnemoai": 2, "memoh": 3}
PLACES = {"claude": 5, "memcode": 6, "mnemoai": 7, "memoh": 8}
PLAIN = 4


def put(target, data, tag):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    h = hashlib.sha1(data).hexdigest()[:12]
    with open(os.path.join(d, "seed-%s-%s" % (tag, h)), "wb") as f:
        f.write(data)


def spec_json(path):
    """The JSON objects written in a specification's text."""
    text = open(path, encoding="utf-8", errors="replace").read()
    out, i = [], 0
    while True:
        i = text.find("{", i)
        if i < 0:
            return out
        depth, j, instr, esc = 0, i, False, False
        while j < len(text):
            c = text[j]
            if instr:
                if esc:
                    esc = False
                elif c == "\\":
                    esc = True
                elif c == '"':
                    instr = False
            elif c == '"':
                instr = True
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        chunk = text[i:j + 1]
        try:
            doc = json.loads(chunk)
            if isinstance(doc, dict) and len(chunk) > 20:
                out.append(chunk)
                i = j + 1
                continue
        except ValueError:
            pass
        i += 1


def guess(name, doc):
    for d in DIALECTS:
        if d in name:
            return d
    if isinstance(doc, dict) and "version" in doc:
        return "memoh"
    return "claude"


def main():
    files = []  # (name, text)
    for p in sorted(glob.glob(os.path.join(TOP, "tests/fixtures/seeds/*.json"))):
        files.append((os.path.basename(p), open(p, "rb").read()))
    files.append(("policy", open(os.path.join(TOP, "examples/policy.json"), "rb").read()))
    files.append(("claude-bench", open(os.path.join(TOP, "bench/nonmatching.json"), "rb").read()))
    if len(sys.argv) > 1:
        for p in sorted(glob.glob(os.path.join(sys.argv[1], "*.txt"))):
            spec = {"000": "memcode", "001": "mnemoai", "002": "memoh"}.get(
                os.path.basename(p)[:3], "claude")
            for k, chunk in enumerate(spec_json(p)):
                files.append(("%s-spec%d" % (spec, k), chunk.encode()))
    for name, data in files:
        try:
            doc = json.loads(data)
        except ValueError:
            doc = None
        d = guess(name, doc)
        tag = name.replace(".json", "")
        for choice in (DIALECTS[d], PLAIN, PLACES[d]):
            put("config", bytes([choice]) + data, tag)
    others()


# --- the other targets: shapes their harnesses read (see each file) ------
CC_PRE = ("source /root/.claude/shell-snapshots/snapshot-bash-1-x.sh 2>/dev/null "
          "|| true && \\builtin shopt -u extglob 2>/dev/null || true && "
          "{ \\builtin unalias -- 'which'; \\builtin unset -f -- 'which'; } "
          ">/dev/null 2>&1 || true && \\builtin setopt NO_EXTENDED_GLOB 2>/dev/null || true && ")
CC_TAIL = " && pwd -P >| /tmp/claude-4f2a-cwd"
CARRY = ("{ \\builtin typeset +x '__CLAUDE_CC_COMMAND_TEXT' 2>/dev/null "
         "|| \\builtin true; } && " + CC_PRE +
         "{ \\builtin [ -n \"${__CLAUDE_CC_COMMAND_TEXT:+1}\" ] || { "
         "\\builtin echo '__CLAUDE_CC_COMMAND_TEXT?' >&2; \\builtin exit "
         "126; }; } && 'eval' \"\\builtin 'unset' -v "
         "'__CLAUDE_CC_COMMAND_TEXT'; 'eval' $__CLAUDE_CC_COMMAND_TEXT\"" + CC_TAIL)


def z(*parts):
    return b"\0".join(p.encode() if isinstance(p, str) else p for p in parts)


def tlv(fields):
    out = b""
    for tag, val in fields:
        v = val.encode() if isinstance(val, str) else val
        out += bytes([ord(tag)]) + len(v).to_bytes(4, "little") + v
    return out + b"\0\0\0\0\0"


def others():
    # fuzz_command: pick byte (0 = bash, +8 = pass the environment), argv
    # after argv[0], "\x01", environment.
    for i, (pick, argv, env) in enumerate([
            (0, ["-c", "echo hi"], []),
            (0, ["-lc", "git status"], []),
            (0, ["-c", "-l", "SNAPSHOT_FILE=/root/.claude/shell-snapshots/snapshot-bash-1.sh; x"], []),
            (0, ["-c", "env"], []),
            (1, ["-e", "-o", "pipefail", "-c", "ls | wc", "name", "arg"], []),
            (4, ["--rcfile", "f", "-c", "true"], []),
            (0, ["-c", CC_PRE + "eval 'echo '\\''hi'\\''' < /dev/null" + CC_TAIL], []),
            (0, ["-c", CC_PRE + "eval \"echo 'hi there' && ls \\\"\\$X\\\"\" < /dev/null" + CC_TAIL], []),
            (0, ["-c", CC_PRE + "{ eval 'ls' < /dev/null; }" + CC_TAIL], []),
            (8, ["-c", "-l", CARRY], ["A=1", "__CLAUDE_CC_COMMAND_TEXT='pkill -f '\\''node x'\\''' < /dev/null"]),
            (7, ["/usr/bin/git", "commit", "-m", "it's a \"test\"", "", "$HOME"], []),
            (7, ["python3", "-c", "print(1)"], []),
            ]):
        put("command", bytes([pick]) + z(*argv, "\x01", *env), "argv%d" % i)
    # fuzz_rule: flags (1 write, 2 the rule's own tool, 4 no root), rule,
    # argument, root, HOME.
    for i, (fl, rule, arg, root) in enumerate([
            (0, "Bash(git status*)", "git status --short", "/proj"),
            (0, "Bash(git push *)", "git push", "/proj"),
            (0, "Bash(npm run:*)", "npm run test", "/proj"),
            (0, "Bash", "ls", "/proj"),
            (1, "Write(secrets/**)", "/proj/secrets/a/b", "/proj"),
            (1, "Edit(//etc/**)", "/etc/passwd", "/"),
            (3, "Edit(~/notes/*.md)", "/home/u/notes/a.md", "/proj"),
            (1, "Edit(*.pem)", "/proj/deep/k.pem", "/proj"),
            (1, "Write(/src/[a-c]?.c)", "/proj/src/b1.c", "/proj"),
            (5, "Edit(./docs/**)", "docs/x", ""),
            ]):
        put("rule", bytes([fl]) + z(rule, arg, root, "/home/u"), "rule%d" % i)
    # fuzz_glob: flags (1 path mode), pattern, subject.
    for i, (fl, pat, sub) in enumerate([
            (1, "secrets/**", "secrets"), (1, "**/*.c", "a/b/c.c"),
            (1, "/proj/**/build/*", "/proj/x/build/o"), (0, "git push*", "git push -f"),
            (0, "[!a-z]?\\*", "Zb*"), (1, "src/[]a-]x", "src/-x"),
            (0, "*a*b*c*d", "aXbXcXd"), (1, "**", "")]):
        put("glob", bytes([fl]) + z(pat, sub), "glob%d" % i)
    # fuzz_payload: flags, code, signal, command, path, new path,
    # operation, cwd, root, session, tool_use_id, tool, error, argv x3,
    # JSON input, stdout, stderr, then the hook's answer.
    answers = ['{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}',
               '{"decision":"block","reason":"r","additionalContext":"c"}',
               '{"decision":"ask_approval","reason":"why"}', '{"continue":false,"stopReason":"s","systemMessage":"m"}',
               'not json', '{"decision":"append_context","context":"x"}']
    for i, (fl, code, sig, ans) in enumerate([
            (0, 0, 0, answers[0]), (4, 2, 0, answers[1]), (1, 0, 0, answers[2]),
            (5, 1, 9, answers[3]), (0x11, 0, 0, answers[4]), (0x22, 2, 0, answers[5]),
            (0x41, 130, 15, answers[1])]):
        put("payload", bytes([fl, code, sig]) + z(
            "rm -rf build", "/proj/secrets/k", "/proj/b", "overwrite", "/proj",
            "/proj", "sess-1", "hs-1-abc", "", "exit code 1", "bash", "-c",
            "rm -rf build", '{"command":"ls","file_path":"/proj/a","content":"x"}',
            "out\n", "err\n", ans), "event%d" % i)
    # fuzz_wire: a byte (1 = answer), then the TLV stream.
    reqs = [
        [("o", "exec"), ("p", "pre"), ("n", "0"), ("i", "4242"), ("u", "hs-1-ff"),
         ("c", "/proj"), ("e", "/bin/bash"), ("a", "bash"), ("a", "-c"), ("a", "ls")],
        [("o", "write"), ("p", "post"), ("f", "/proj/a\nb"), ("g", "/proj/c"),
         ("w", "rename"), ("x", "0"), ("d", "12"), ("C", b"bytes\0\xff"), ("E", "failed")],
        [("o", "exec"), ("p", "post-failure"), ("x", "-1"), ("s", "9"),
         ("1", b"o" * 300), ("2", "e"), ("Z", "unknown tag")],
    ]
    for i, r in enumerate(reqs):
        put("wire", b"\0" + tlv(r), "req%d" % i)
    ans = [
        [("v", "allow")],
        [("v", "deny"), ("r", "no rm -rf here"), ("k", "ctx"), ("u", "hs-1-ff"),
         ("X", "126"), ("N", "13")],
        [("v", "deny"), ("r", "x" * 5000), ("k", "y" * 2000), ("u", "z" * 100), ("X", "2")],
    ]
    for i, a in enumerate(ans):
        put("wire", b"\1" + tlv(a), "ans%d" % i)
        put("reply", tlv(a), "ans%d" % i)


if __name__ == "__main__":
    main()
