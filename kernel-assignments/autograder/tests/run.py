#!/usr/bin/env python3
"""Runs the kernel suite: unit checks, then (unless --unit) the graded kernel cases and the
hostile-submission suite (every tests/hostile_*.py: its checks, and its CASES graded by
hostile.py).

    python3 run.py [--unit] [WORDS...]    (WORDS: run only checks whose sentence has them)

Ends with "kernel: N passed, N failed" (scripts/test.sh reads that line).
"""
import importlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

import harness  # noqa: E402
import unit  # noqa: E402,F401  (registers its checks)
import intake_checks  # noqa: E402,F401  (registers its checks)
import class_checks  # noqa: E402,F401  (registers its checks)

if "--unit" not in sys.argv:
	import cases  # noqa: E402,F401  (registers its checks)
	import class_cases  # noqa: E402,F401  (registers its checks)
	import hostile  # noqa: E402

	for module_path in sorted(HERE.glob("hostile_*.py")):
		hostile.register(getattr(importlib.import_module(module_path.stem), "CASES", []))
	sys.path.append(str(HERE.parent.parent / "experiments"))
	import experiment_checks  # noqa: E402,F401  (the experiment harness's smallest run)

sys.exit(harness.run_checks("kernel", [arg for arg in sys.argv[1:] if not arg.startswith("--")]))
