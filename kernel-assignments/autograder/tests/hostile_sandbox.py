"""Hostile cases aimed at the sandbox (sandbox.py): what a student's code may try at build
time or at boot, with a canary planted outside the submission.

Two kinds:
  - CASES: submissions graded with the real grade command (hostile.py runs them);
  - checks on the sandbox itself, run exactly as the grader runs a student's build (an
    overlay over read-only layers at /build).  In these assignments a student hands in C
    files only, so no student code runs during the build except the compiler's reading
    of it; an assignment that takes a Makefile would run student commands there, which
    is what these checks play.
"""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import canary as canaries
import kbuild
import sandbox
from harness import check, expect
from hostile import HostileCase

SELFTEST_FILE = "kernel/pagelab_selftest.c"
REFERENCE = Path(__file__).resolve().parent.parent / "selftest/cases/reference" / SELFTEST_FILE
AUTOGRADER = Path(__file__).resolve().parent.parent

PANIC_WITH_CANARY = """
static int __init pagelab_leak(void)
{
	panic("leak: %s", canary);
	return 0;
}
late_initcall(pagelab_leak);
"""

INCBIN_CANARY = """
asm(".pushsection .rodata\\n.globl canary\\ncanary:\\n"
    ".incbin \\"{path}\\"\\n.byte 0\\n.popsection");
extern const char canary[];
"""


def selftest_submission(scratch, source):
	(scratch / "kernel").mkdir()
	(scratch / SELFTEST_FILE).write_text(source)
	return scratch


def include_canary(scratch, canary):
	"""#include of a host file, printed by a panic at boot if it were ever compiled in."""
	return selftest_submission(scratch, f'#include "{canary.header}"\n' +
				   REFERENCE.read_text() + PANIC_WITH_CANARY)


def incbin_canary(scratch, canary):
	""".incbin of a host file into the kernel image, printed by a panic at boot."""
	return selftest_submission(scratch, REFERENCE.read_text() +
				   INCBIN_CANARY.format(path=canary.path) + PANIC_WITH_CANARY)


def include_dev_zero(scratch, canary):
	"""A compiler bomb: the preprocessor reads /dev/zero until memory runs out."""
	return selftest_submission(scratch, '#include "/dev/zero"\n' + REFERENCE.read_text())


CASES = [
	HostileCase("hostile: #include of a host file (the canary) cannot compile it in or"
		    " print it", include_canary, max_score=1,
		    output_contains=["does not compile", "No such file or directory"]),
	HostileCase("hostile: .incbin of a host file (the canary) into a panic message cannot"
		    " read it", incbin_canary, max_score=1,
		    output_contains=["does not compile"]),
	HostileCase("hostile: #include \"/dev/zero\" (a compiler bomb) is stopped by the"
		    " sandbox's memory limit", include_dev_zero, max_score=1,
		    output_contains=["does not compile"]),
]


def hostile_build(script, limits=sandbox.CHECK_LIMITS):
	"""Runs SCRIPT (sh) as a student's build runs: /build is an overlay whose read-only
	layer holds lower.txt.  Returns (result, lower layer, build directory)."""
	scratch = Path(tempfile.mkdtemp(prefix="pagelab-hostile-build-"))
	lower = scratch / "lower"
	lower.mkdir()
	(lower / "lower.txt").write_text("layer\n")
	overlay = sandbox.Overlay([lower], scratch / "build")
	result = sandbox.run(["sh", "-c", script], limits, build=overlay)
	return result, lower, overlay, scratch


@check("sandbox: a build writes only its own directory: the layers below, /usr and host"
       " paths stay untouched")
def writes_stay_inside():
	canary = canaries.plant()
	target = canary.dir / "written-by-student"
	result, lower, overlay, scratch = hostile_build(
		f"echo student > /build/lower.txt; echo student > /build/new.txt;"
		f" echo x > /usr/pagelab-x; echo x > {target}; mkdir -p {canary.dir}; echo done")
	try:
		expect(result.status == 0 and "done" in result.text(), result.text())
		expect((lower / "lower.txt").read_text() == "layer\n", "the read-only layer changed")
		expect((overlay.upper / "lower.txt").read_text() == "student\n",
		       "the build's own copy was not written")
		expect(not target.exists() and not Path("/usr/pagelab-x").exists(),
		       "a write escaped the build directory")
		expect("Read-only file system" in result.text(), result.text())
	finally:
		canary.remove()
		shutil.rmtree(scratch, ignore_errors=True)


@check("sandbox: a build sees no host file outside the toolchain: not the canary, the"
       " grader, the cache, /etc/passwd or /root")
def sees_nothing():
	canary = canaries.plant()
	paths = [canary.path, AUTOGRADER / "grade", kbuild.cache_dir(), "/etc/passwd", "/root",
		 "/home", "/work"]
	script = "; ".join(f"cat {path} 2>&1 || ls {path} 2>&1" for path in paths)
	result, _, _, scratch = hostile_build(script)
	try:
		expect(canary.text not in result.text(), "the canary was read")
		expect(result.text().count("No such file or directory") == 2 * len(paths),
		       result.text())
	finally:
		canary.remove()
		shutil.rmtree(scratch, ignore_errors=True)


@check("sandbox: a build cannot reach the network (its only interface is its own loopback)")
def no_network():
	probe = ("import socket\nfor host in ('1.1.1.1', '10.0.2.2'):\n try:\n"
		 "  socket.create_connection((host, 80), timeout=3)\n  print('connected', host)\n"
		 " except OSError as error:\n  print('refused', host, error)")
	result, _, _, scratch = hostile_build(f"python3 -c \"{probe}\"; echo interfaces:;"
					      " sed -n 's/^ *\\([^:]*\\):.*/\\1/p' /proc/net/dev")
	shutil.rmtree(scratch, ignore_errors=True)
	text = result.text()
	expect("connected" not in text and text.count("Network is unreachable") == 2, text)
	expect(text.split("interfaces:")[-1].split() == ["lo"], text)


@check("sandbox: a build is stopped at its wall time, CPU time, process count and output"
       " size", alone=True)	# it times the stops
def limits_hold():
	cases = [("wall", "sleep 30", sandbox.CHECK_LIMITS.replace(wall_seconds=2)),
		 ("cpu", "while :; do :; done", sandbox.CHECK_LIMITS.replace(cpu_seconds=1)),
		 ("processes", "for i in $(seq 200); do sleep 20 & done; wait",
		  sandbox.CHECK_LIMITS.replace(processes=50, wall_seconds=15)),
		 ("output", "yes flood", sandbox.CHECK_LIMITS.replace(output=1 << 20))]
	for name, script, limits in cases:
		result, _, _, scratch = hostile_build(script, limits)
		shutil.rmtree(scratch, ignore_errors=True)
		expect(result.seconds < 10, f"{name}: ran {result.seconds:.1f} s")
		stopped = {"wall": result.timed_out, "cpu": result.status != 0,
			   "processes": "fork" in result.text(),
			   "output": result.truncated and len(result.output) == 1 << 20}[name]
		expect(stopped, f"{name}: not stopped: {result.status} {result.text()[-300:]}")


@check("sandbox: it works for an ordinary user too (run as nobody with setpriv)")
def works_unprivileged():
	if os.geteuid() != 0:
		expect(sandbox.available() is None, sandbox.available())
		return
	copy = Path(tempfile.mkdtemp(prefix="pagelab-sandbox-user-"))
	try:
		shutil.copy(AUTOGRADER / "sandbox.py", copy)
		os.chmod(copy, 0o755)
		os.chmod(copy / "sandbox.py", 0o644)
		script = ("import sys; sys.path.insert(0, sys.argv[1]); import sandbox;"
			  " print(sandbox.available());"
			  " r = sandbox.run(['sh', '-c', 'id -u; ls /root'], sandbox.CHECK_LIMITS,"
			  " cwd='/'); print(r.status, r.text())")
		proc = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
				       sys.executable, "-c", script, str(copy)], cwd="/",
				      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
				      env={"PATH": os.environ["PATH"], "HOME": "/tmp"})
	finally:
		shutil.rmtree(copy, ignore_errors=True)
	lines = proc.stdout.splitlines()
	expect(proc.returncode == 0 and lines[:1] == ["None"], proc.stdout)
	expect("1000" in proc.stdout and "No such file or directory" in proc.stdout, proc.stdout)
