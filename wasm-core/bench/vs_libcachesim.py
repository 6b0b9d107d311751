# SPDX-License-Identifier: GPL-2.0
"""vs_libcachesim.py - pagelab's policies beside libCacheSim's own, on the
same requests, in one run (make bench runs it after bench.c).

    python bench/vs_libcachesim.py BUILD_DIR

Run with the Python of the reference virtual environment (scripts/setup.sh
reference: libcachesim 0.3.5).  One zipf(0.9) trace of 10M references over
1M pages (numpy, fixed seed) is written twice: as text for pagelab and in
libCacheSim's binary oracleGeneral format (24 bytes a request).  Then, with
64K frames (unit-size objects, so a cache of 65536 bytes):

  pagelab      BUILD_DIR/time-policies: CPU time of pl_sim_run() over the
               trace already in memory, recording off;
  libCacheSim  cache.process_trace(reader): its C loop reading the binary
               records and calling get() on each, CPU time of this process.

libCacheSim's figure includes reading its records (sequential, from the
page cache); pagelab's includes none of its parsing.  LRU is shown first as
the calibration: the same textbook algorithm in both.  "ratio" is pagelab's
time per reference over libCacheSim's: below 1 means pagelab is faster.
Miss counts are printed too: for these exact policies they must agree.
"""
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import libcachesim as lcs

REFS = 10_000_000
PAGES = 1_000_000
FRAMES = 65536
POLICIES = (("lru", lcs.LRU), ("sieve", lcs.Sieve), ("s3fifo", lcs.S3FIFO), ("arc", lcs.ARC))


def zipf_trace():
    rng = np.random.default_rng(14)
    weights = 1.0 / np.arange(1, PAGES + 1) ** 0.9
    cdf = np.cumsum(weights)
    cdf /= cdf[-1]
    ranks = np.searchsorted(cdf, rng.random(REFS))
    return (rng.permutation(PAGES)[ranks] + 1).astype(np.uint64)


def write_oracle_general(path, pages):
    record = np.dtype([("time", "<u4"), ("id", "<u8"), ("size", "<u4"), ("next", "<i8")])
    out = np.zeros(len(pages), dtype=record)
    out["time"] = np.arange(len(pages), dtype=np.uint32)
    out["id"] = pages
    out["size"] = 1
    out["next"] = -1
    out.tofile(path)


def libcachesim_time(cls, path):
    reader = lcs.TraceReader(path, lcs.TraceType.ORACLE_GENERAL_TRACE)
    cache = cls(FRAMES)
    start = time.process_time()
    miss_ratio, _ = cache.process_trace(reader)
    return time.process_time() - start, round(miss_ratio * REFS)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    pages = zipf_trace()
    with tempfile.TemporaryDirectory() as tmp:
        text, binary = os.path.join(tmp, "zipf.txt"), os.path.join(tmp, "zipf.oracleGeneral")
        with open(text, "w") as f:
            f.write("\n".join(map(str, pages.tolist())))
            f.write("\n")
        write_oracle_general(binary, pages)
        out = subprocess.run([os.path.join(build, "time-policies"), text, str(FRAMES),
                              ",".join(name for name, _ in POLICIES)],
                             capture_output=True, text=True, check=True).stdout
        ours = {}
        for line in out.splitlines():
            name, seconds, misses, _ = line.split()
            ours[name] = (float(seconds), int(misses))
        print(f"pagelab vs libCacheSim {lcs.__version__}: zipf(0.9), {REFS // 1_000_000}M "
              f"references over {PAGES // 1_000_000}M pages, {FRAMES} frames, CPU time "
              f"(load average {os.getloadavg()[0]:.1f})")
        print(f"  {'policy':8} {'pagelab ns/ref':>15} {'libCacheSim ns/ref':>19} {'ratio':>7}"
              f" {'pagelab misses':>15} {'libCacheSim misses':>19}")
        for name, cls in POLICIES:
            seconds, misses = libcachesim_time(cls, binary)
            ours_s, ours_m = ours[name]
            print(f"  {name:8} {ours_s / REFS * 1e9:15.1f} {seconds / REFS * 1e9:19.1f} "
                  f"{ours_s / seconds:7.2f} {ours_m:15d} {misses:19d}")


if __name__ == "__main__":
    main()
