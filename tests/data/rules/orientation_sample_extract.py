#!/usr/bin/env python3
"""Writes orientation_sample.jsonl (tests/rules_orientation.rs, issue 29) from the shared games'
manifest: every game with a verified move list (`ref_ok`) whose positions repeat
(`max_position_repeats >= 2`, so that the repetition cycles are ruled), and every EVERY-th of the
others in manifest order (a fixed, stratified sample: each source folder in its share).

Usage: python3 orientation_sample_extract.py ../../../../shared/games/manifest.jsonl > orientation_sample.jsonl
"""
import json
import sys

EVERY = 8

rest = 0
for line in open(sys.argv[1], encoding="utf-8"):
    v = json.loads(line)
    if not v["ref_ok"] or not v["ref_iccs"]:
        continue
    take = v["max_position_repeats"] >= 2
    if not take:
        take = rest % EVERY == 0
        rest += 1
    if take:
        print(json.dumps({
            "source": v["file"],
            "game_index": v["game_index"],
            "fen": v["fen"],
            "repeats": v["max_position_repeats"],
            "moves": v["ref_iccs"],
        }, ensure_ascii=False))
