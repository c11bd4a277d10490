#!/usr/bin/env python3
"""Turns the execs of a `hookshim run --log` of an agent session into a
wrapper fixture (tests/fixtures/wrappers/AGENT-VERSION-run.json): every
shell exec the agent made, with the text its hook received ("command") or
"internal": true for the agent's own shells.  The fixture is what the run
showed; tests/unit/test_wrappers.c checks hookshim still extracts it.

    capture_wrappers.py LOG AGENT VERSION HOW > FIXTURE
"""
import json
import sys


def main(log, agent, version, how):
    cases, seen = [], set()
    for line in open(log):
        e = json.loads(line)
        if e.get("event") != "pre" or e.get("op") != "exec" or \
                e.get("nested"):
            continue
        key = json.dumps(e["argv"])
        if key in seen:
            continue
        seen.add(key)
        if e.get("decision") == "agent_internal":
            cases.append({"argv": e["argv"], "internal": True})
        elif "command" in e:
            cases.append({"argv": e["argv"], "command": e["command"]})
    json.dump({"agent": agent, "version": version,
               "source": "captured from a run of tests/e2e/hookshim_agents.sh"
               " (hookshim run --log, " + how + ")", "cases": cases},
              sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(*sys.argv[1:5])
