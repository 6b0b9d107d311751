"""Boots a kernel under QEMU and watches it.

Interface:
    boot(image, initramfs, plan, memory, timeout, swap=None, disk=None, log=print)
        -> BootOutcome with .status, .console (serial log text), .results (results port
           text), .seconds, .accel, .problem (the lines that explain a bad status)
    accelerator(image, initramfs, log) -> "kvm" | "tcg"   (probe result cached)

Status, in order of precedence:
    "flood"     the guest wrote more than CONSOLE_CAP / RESULTS_CAP bytes (run stopped)
    "oops"      an Oops / BUG: / general protection fault (oops=panic then panics;
                .problem starts at the oops, not at the panic it caused)
    "panic"     "Kernel panic" without an oops before it (e.g. panic() at boot)
    "hang"      the run did not end within the timeout (stopped); .problem shows the
                RCU stall or soft-lockup report if the kernel printed one
    "finished"  /init powered off through isa-debug-exit
    "crashed"   QEMU ended any other way (its stderr is in .problem)

Invariants: a run never outlives its timeout plus a few seconds; captured text is capped
so a flooding guest cannot fill the disk or memory; QEMU is killed on every exit path.
"""
import os
import re
import subprocess
import threading
import time

from kbuild import cache_dir

CONSOLE_CAP = 4 << 20
RESULTS_CAP = 1 << 20
OOPS_PATTERN = re.compile(r"BUG:|Oops|general protection|unable to handle")
PANIC_PATTERN = re.compile(r"Kernel panic")
STALL_PATTERN = re.compile(r"rcu.*stall|soft lockup|blocked for more than")
DEBUG_EXIT_FINISHED = 1  # /init writes 0 to isa-debug-exit; QEMU exits with (0 << 1) | 1
KVM_PROBE_TIMEOUT = 30


class BootOutcome:
	def __init__(self, status, console, results, seconds, accel, problem=""):
		self.status = status
		self.console = console
		self.results = results
		self.seconds = seconds
		self.accel = accel
		self.problem = problem


class CappedReader(threading.Thread):
	"""Drains a pipe into memory, keeping at most CAP bytes; sets .overflowed past that."""

	def __init__(self, pipe, cap):
		super().__init__(daemon=True)
		self.pipe = pipe
		self.cap = cap
		self.chunks = []
		self.size = 0
		self.overflowed = threading.Event()

	def run(self):
		for chunk in iter(lambda: self.pipe.read1(65536), b""):
			if self.size < self.cap:
				self.chunks.append(chunk[:self.cap - self.size])
			self.size += len(chunk)
			if self.size > self.cap:
				self.overflowed.set()

	def text(self):
		return b"".join(self.chunks).decode("utf-8", "replace").replace("\r", "")


def qemu_command(image, initramfs, plan, memory, results_path, accel, drives):
	append = ["console=ttyS0", "panic=-1", "oops=panic", f"pl.plan={plan}"]
	command = ["qemu-system-x86_64", "-nodefaults", "-no-reboot", "-display", "none",
		   "-m", str(memory), "-smp", "2", "-kernel", str(image), "-initrd", str(initramfs),
		   "-serial", "stdio", "-serial", f"file:{results_path}",
		   "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
	command += ["-accel", "kvm", "-cpu", "host"] if accel == "kvm" else ["-accel", "tcg"]
	for letter, (role, path) in zip("abcdefgh", drives):
		command += ["-drive", f"file={path},if=virtio,format=raw"]
		append.append(f"pl.{role}=/dev/vd{letter}")
	return command + ["-append", " ".join(append)]


def lines_from(console, pattern, count=30):
	"""COUNT lines from the first that matches PATTERN, or "" when none does."""
	lines = console.splitlines()
	for index, line in enumerate(lines):
		if pattern.search(line):
			return "\n".join(lines[index:index + count])
	return ""


def last_lines(console, count=15):
	return "\n".join(console.splitlines()[-count:])


def classify(console, flooded, timed_out, exit_code, stderr):
	if flooded:
		return "flood", last_lines(console)
	if OOPS_PATTERN.search(console):
		return "oops", lines_from(console, OOPS_PATTERN)
	if PANIC_PATTERN.search(console):
		return "panic", lines_from(console, PANIC_PATTERN)
	if timed_out:
		return "hang", lines_from(console, STALL_PATTERN) or last_lines(console)
	if exit_code == DEBUG_EXIT_FINISHED:
		return "finished", ""
	return "crashed", f"QEMU exit status {exit_code}\n{stderr.strip()[-2000:]}\n" + \
		last_lines(console)


def boot(image, initramfs, plan, memory, timeout, workdir, drives=(), accel=None, log=print):
	"""DRIVES: (role, image path) pairs; roles are 'swap' and 'disk'."""
	accel = accel or accelerator(image, initramfs, workdir, log)
	results_path = workdir / f"results-{plan}.txt"
	results_path.write_bytes(b"")
	command = qemu_command(image, initramfs, plan, memory, results_path, accel, drives)
	started = time.monotonic()
	qemu = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
				stderr=subprocess.PIPE)
	console = CappedReader(qemu.stdout, CONSOLE_CAP)
	errors = CappedReader(qemu.stderr, 64 << 10)
	console.start()
	errors.start()
	timed_out = flooded = False
	try:
		while qemu.poll() is None:
			if console.overflowed.is_set() or results_path.stat().st_size > RESULTS_CAP:
				flooded = True
				break
			if time.monotonic() - started > timeout:
				timed_out = True
				break
			time.sleep(0.1)
	finally:
		if qemu.poll() is None:
			qemu.kill()
		qemu.wait()
		console.join(5)
		errors.join(5)
	seconds = time.monotonic() - started
	with open(results_path, "rb") as results_file:
		results = results_file.read(RESULTS_CAP).decode("utf-8", "replace").replace("\r", "")
	text = console.text()
	status, problem = classify(text, flooded, timed_out, qemu.returncode, errors.text())
	(workdir / f"console-{plan}.log").write_text(text)
	return BootOutcome(status, text, results, seconds, accel, problem)


def qemu_identity():
	proc = subprocess.run(["qemu-system-x86_64", "--version"], stdout=subprocess.PIPE, text=True)
	return proc.stdout.splitlines()[0] + " / " + os.uname().release


def accelerator(image, initramfs, workdir, log):
	"""KVM only when a probe boot under KVM finishes; the answer is cached per QEMU+host."""
	forced = os.environ.get("PAGELAB_ACCEL")
	if forced in ("kvm", "tcg"):
		return forced
	if not os.access("/dev/kvm", os.R_OK | os.W_OK):
		return "tcg"
	cached = cache_dir() / "kvm-probe"
	identity = qemu_identity()
	if cached.exists():
		answer, _, recorded = cached.read_text().partition(" ")
		if recorded.strip() == identity:
			return answer
	log(f"probing KVM (one boot, at most {KVM_PROBE_TIMEOUT} s; the answer is cached)")
	outcome = boot(image, initramfs, "kvm-probe", "128M", KVM_PROBE_TIMEOUT, workdir,
		       accel="kvm", log=log)
	answer = "kvm" if outcome.status == "finished" and "pl-init: powering off" in \
		outcome.console else "tcg"
	log(f"KVM probe: {outcome.status}; using {answer.upper()}")
	cached.write_text(f"{answer} {identity}\n")
	return answer
