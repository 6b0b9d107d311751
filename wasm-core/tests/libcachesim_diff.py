# SPDX-License-Identifier: GPL-2.0
"""libcachesim_diff.py - pagelab against libCacheSim, miss for miss.

Run by test_libcachesim.sh with the Python of the reference virtual
environment (scripts/setup.sh reference: libcachesim==0.3.5 from PyPI) and
PAGELAB set to the CLI under test.

Every trace below is written to a file and run through the CLI
(`pagelab compare ... --json`, each policy with its defaults plus the
parameters named in POLICIES) and, request by request, through libCacheSim's
own implementation (`Request` with obj_size=1, `cache.get(req)`; a miss is
get() returning False).  Cache sizes are in pages: libCacheSim counts bytes,
so with unit objects its cache_size is the number of frames.

Policies matched exactly must give the same number of misses on every trace
and size; randomised ones (LeCaR) and those whose libCacheSim version departs
from the paper in a way pagelab does not copy must stay within their stated
tolerance (the policy's header says why).  One test line per policy, ending
with "N passed, N failed" like the other suites.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

import libcachesim as lcs

PAGELAB = os.environ.get("PAGELAB", "build/pagelab")

# Frames.  All multiples of 4 (SLRU's four equal segments, see slru.c) and
# for S3-FIFO at least 20, so that its small queue (10%) holds 2 objects:
# libCacheSim does not admit an object as large as the small queue.
SIZES = (8, 20, 64, 200)
REFS = 4000


# ------------------------------------------------------------------ traces
def scans(rng):
    """A hot set used all along, interrupted by long one-time scans."""
    trace, next_cold = [], 10_000
    while len(trace) < REFS:
        trace += [rng.randrange(60) for _ in range(rng.randrange(50, 300))]
        length = rng.randrange(50, 600)
        trace += range(next_cold, next_cold + length)
        next_cold += length
    return trace[:REFS]


def loops(rng):
    """Cyclic access to loops a little larger or smaller than the cache."""
    trace = []
    while len(trace) < REFS:
        size = rng.choice((6, 10, 18, 24, 60, 70, 180, 230))
        base = rng.randrange(1000)
        trace += list(range(base, base + size)) * rng.randrange(2, 6)
    return trace[:REFS]


def one_hit_wonders(rng):
    """Zipf-like popular pages mixed with pages referenced exactly once."""
    trace, fresh = [], 100_000
    for _ in range(REFS):
        if rng.random() < 0.4:
            trace.append(fresh)
            fresh += 1
        else:
            trace.append(int(rng.paretovariate(0.9)) % 400)
    return trace


def phase_changes(rng):
    """Working sets that shift abruptly to mostly new pages."""
    trace = []
    while len(trace) < REFS:
        base, size = rng.randrange(2000), rng.choice((15, 50, 150, 300))
        trace += [base + rng.randrange(size) for _ in range(rng.randrange(300, 900))]
    return trace[:REFS]


def correlated_bursts(rng):
    """Pages referenced several times in quick succession, then not for long."""
    trace = []
    while len(trace) < REFS:
        page = rng.randrange(3000) if rng.random() < 0.7 else rng.randrange(40)
        trace += [page] * rng.randrange(1, 5)
        trace += [rng.randrange(3000) for _ in range(rng.randrange(0, 4))]
    return trace[:REFS]


def uniform_mix(rng):
    """Uniform references over a few hundred pages: no structure to exploit."""
    return [rng.randrange(rng.choice((30, 300))) for _ in range(REFS)]


TRACES = (scans, loops, one_hit_wonders, phase_changes, correlated_bursts, uniform_mix)


# ---------------------------------------------------------------- policies
# pagelab name: (libCacheSim class, its keyword arguments, pagelab --param
# assignments, tolerance as a fraction of the misses: 0 means exact, and the
# cache sizes it is compared at).
S3FIFO_SIZES = tuple(f for f in SIZES if f >= 20)
# libCacheSim's W-TinyLFU: a window of 1% (it admits nothing below 100
# frames) and a main SLRU split 1:4, whose segments must add up to main
# (106, 404 and 1000 frames: main 105, 400 and 990), see wtinylfu.c.
WTINYLFU_SIZES = (106, 404, 1000)
POLICIES = {
    "fifo": (lcs.FIFO, {}, (), 0.0, SIZES),
    "lru": (lcs.LRU, {}, (), 0.0, SIZES),
    "lfu": (lcs.LFU, {}, (), 0.0, SIZES),
    "opt": (lcs.Belady, {}, (), 0.0, SIZES),
    "clock": (lcs.Clock, {}, ("ref_on_load=clear",), 0.0, SIZES),
    "arc": (lcs.ARC, {}, (), 0.0, SIZES),
    "twoq": (lcs.TwoQ, {}, (), 0.0, SIZES),
    "slru": (lcs.SLRU, {}, (), 0.0, SIZES),
    "sieve": (lcs.Sieve, {}, (), 0.0, SIZES),
    "s3fifo": (lcs.S3FIFO, {}, (), 0.0, S3FIFO_SIZES),
    "lirs": (lcs.LIRS, {}, (), 0.02, SIZES),
    "wtinylfu": (lcs.WTinyLFU, {}, (), 0.0, WTINYLFU_SIZES),
    "lecar": (lcs.LeCaR, {}, (), 0.02, SIZES),
    # libCacheSim's LRU-K (k = 2) forgets an evicted object's history.
    "lruk": (lcs.LRUK, {}, ("rip=0",), 0.0, SIZES),
}


def next_uses(trace):
    """For Belady: the index of each reference's next use (far future if none)."""
    nxt, last = [0] * len(trace), {}
    for i in range(len(trace) - 1, -1, -1):
        nxt[i] = last.get(trace[i], 1 << 62)
        last[trace[i]] = i
    return nxt


def libcachesim_misses(cls, kwargs, frames, trace, nxt):
    cache = cls(frames, **kwargs)
    req = lcs.Request()
    req.obj_size = 1
    misses = 0
    # Only Belady reads next_access_vtime; the others keep the default, as
    # some (SLRU) treat a far next use specially.
    belady = cls is lcs.Belady
    for i, page in enumerate(trace):
        req.obj_id = page
        if belady:
            req.next_access_vtime = nxt[i]
        if not cache.get(req):
            misses += 1
    return misses


def pagelab_misses(names, frames, path, params):
    args = [PAGELAB, "compare", "--policies", ",".join(names), "--frames", str(frames),
            "--trace", path, "--json"]
    for p in params:
        args += ["--param", p]
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: exit {out.returncode}: {out.stderr.strip()}")
    return {row["policy"]: row["misses"] for row in json.loads(out.stdout)}


def main():
    failures = {name: [] for name in POLICIES}
    compared = {name: 0 for name in POLICIES}
    with tempfile.TemporaryDirectory() as tmp:
        for make in TRACES:
            trace = make(random.Random(make.__name__))
            nxt = next_uses(trace)
            path = os.path.join(tmp, make.__name__ + ".txt")
            with open(path, "w") as f:
                f.write("\n".join(map(str, trace)) + "\n")
            for frames in sorted({f for p in POLICIES.values() for f in p[4]}):
                # One CLI run per distinct parameter set.
                by_params = {}
                for name, (_, _, params, _, sizes) in POLICIES.items():
                    if frames in sizes:
                        by_params.setdefault(params, []).append(name)
                ours = {}
                for params, names in by_params.items():
                    ours.update(pagelab_misses(names, frames, path, params))
                for name, (cls, kwargs, _, tolerance, sizes) in POLICIES.items():
                    if frames not in sizes:
                        continue
                    theirs = libcachesim_misses(cls, kwargs, frames, trace, nxt)
                    compared[name] += 1
                    if abs(ours[name] - theirs) > tolerance * theirs:
                        failures[name].append(
                            f"{make.__name__}, {frames} frames: pagelab {ours[name]} misses, "
                            f"libCacheSim {cls.__name__} {theirs}")
    passed = failed = 0
    for name, (cls, _, params, tolerance, _) in POLICIES.items():
        how = "exactly" if tolerance == 0 else f"within {tolerance:.0%}"
        extra = f" with {' '.join(params)}" if params else ""
        title = (f"{name}{extra} matches libCacheSim {cls.__name__} {how} "
                 f"on {compared[name]} trace and size pairs")
        if failures[name]:
            failed += 1
            print(f"FAIL {title}")
            for line in failures[name]:
                print(f"    {line}")
        else:
            passed += 1
            print(f"ok   {title}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
