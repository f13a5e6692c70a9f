#!/usr/bin/env python3
"""Writes the two purge scenarios of S15(b) (docs/kafka-semantics.md section f):

  scenarios/s15-purge-after-1001-expired.json  1001 acks=all produces that all expire: purged
  scenarios/s15-no-purge-at-1000-expired.json  exactly 1000: no purge (1000 - 0 > 1000 is false)

Both followers are paused at t=0, so no produce can complete; produce i arrives at 1000 + i ms
with one record and expires at 31000 + i. Run from the repository root: python3 scripts/gen-s15.py
"""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "scenarios")


def existing_story(path):
    """The guided story written by hand into the file, kept across regeneration."""
    try:
        with open(path) as f:
            return json.load(f).get("story")
    except FileNotFoundError:
        return None


def scenario(name, produces, story):
    actions = [
        {"at_ms": 0, "action": "pause_follower", "broker": 1},
        {"at_ms": 0, "action": "pause_follower", "broker": 2},
    ]
    for i in range(produces):
        actions.append({
            "at_ms": 1000 + i,
            "action": "produce",
            "id": "p%04d" % i,
            "acks": -1,
            "records": [{"topic": "t", "partition": 0, "count": 1}],
        })
    lines = [
        "{",
        '  "name": %s,' % json.dumps(name),
        '  "seed": 15,',
        '  "config": { "brokers": 3, "min_insync_replicas": 2 },',
        '  "topics": [{ "name": "t", "partitions": 1, "replication_factor": 3 }],',
        '  "actions": [',
        ",\n".join("    " + json.dumps(a, separators=(", ", ": ")) for a in actions),
        "  ],",
        '  "run_until_ms": 35000' + ("," if story else ""),
    ]
    if story:
        lines += [
            '  "story": [',
            ",\n".join("    " + json.dumps(step, ensure_ascii=False) for step in story),
            "  ]",
        ]
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    for name, produces in [
        ("s15-purge-after-1001-expired", 1001),
        ("s15-no-purge-at-1000-expired", 1000),
    ]:
        path = os.path.join(OUT, name + ".json")
        text = scenario(name, produces, existing_story(path))
        with open(path, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
