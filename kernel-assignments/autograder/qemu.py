"""Boots a kernel under QEMU and watches it.

Interface:
    boot(image, initramfs, plan, memory, timeout, workdir, drives=(), log=print)
        -> BootOutcome with .status, .console (serial log text), .results (results port
           text), .seconds, .accel, .problem (the lines that explain a bad status)
    accelerator(image, initramfs, log) -> "kvm" | "tcg"   (probe result cached)

Status, in order of precedence:
    "flood"     the guest wrote more than CONSOLE_CAP / RESULTS_CAP bytes (run stopped)
    "oops"      an Oops / BUG: / general protection fault (oops=panic then panics;
                .problem starts at the oops, not at the panic it caused)
    "panic"     "Kernel panic" without an oops before it (e.g. panic() at boot)
    "hang"      the run did not end within the timeout, or a step of the plan did not
                end within its own limit (stopped); .problem names the step and shows the
                RCU stall or soft-lockup report if the kernel printed one
    "finished"  /init powered off through isa-debug-exit
    "crashed"   QEMU ended any other way (its error lines are in .problem)

Steps: booting is the first step ("boot", BOOT_STEP_SECONDS, until /init says it runs the
plan); then a plan announces each step on the console as "pl-step: NAME SECONDS"; a step
ends at the next announcement or when the plan exits ("pl-init: plan ... exited").  A
step still running after SECONDS stops the boot as a hang, so a kernel stuck in the first
system call is stopped in seconds, not at the boot's timeout.  Each step's duration goes
to the log (for tuning the limits).

Invariants: QEMU runs in the sandbox (sandbox.py), seeing only the image, the initramfs and
the boot's directory; a run never outlives its timeout plus a second; captured text is
capped so a flooding guest cannot fill the disk or memory; QEMU is killed on every exit path.
"""
import os
import re
import subprocess
import time

import sandbox
from kbuild import cache_dir

CONSOLE_CAP = 4 << 20
RESULTS_CAP = 1 << 20
OOPS_PATTERN = re.compile(r"BUG:|Oops|general protection|unable to handle")
PANIC_PATTERN = re.compile(r"Kernel panic")
STALL_PATTERN = re.compile(r"rcu.*stall|soft lockup|blocked for more than")
DEBUG_EXIT_FINISHED = 1  # /init writes 0 to isa-debug-exit; QEMU exits with (0 << 1) | 1
KVM_PROBE_TIMEOUT = 30
BOOT_STEP_SECONDS = 90  # QEMU start to /init running the plan (TCG on a loaded machine)


class BootOutcome:
	def __init__(self, status, console, results, seconds, accel, problem=""):
		self.status = status
		self.console = console
		self.results = results
		self.seconds = seconds
		self.accel = accel
		self.problem = problem


def qemu_command(plan, memory, accel, drives):
	"""QEMU's command line inside the sandbox: the image and initramfs at /boot, the
	results file and disks in /run (the boot's directory)."""
	# no_timer_check: a starved virtual CPU (a loaded host) fails the IO-APIC timer check
	# and panics while booting ("IO-APIC + timer doesn't work!"); the check is for real
	# hardware, and the kernel's timer works under QEMU
	append = ["console=ttyS0", "panic=-1", "oops=panic", "no_timer_check", f"pl.plan={plan}"]
	command = ["qemu-system-x86_64", "-nodefaults", "-no-reboot", "-display", "none",
		   "-m", str(memory), "-smp", "2", "-kernel", "/boot/bzImage",
		   "-initrd", "/boot/initramfs.cpio", "-serial", "stdio",
		   "-serial", f"file:/run/results-{plan}.txt",
		   "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
	command += ["-accel", "kvm", "-cpu", "host"] if accel == "kvm" else ["-accel", "tcg"]
	for letter, (role, path) in zip("abcdefgh", drives):
		command += ["-drive", f"file=/run/{path.name},if=virtio,format=raw"]
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


class StepWatch:
	"""Reads the plan's "pl-step: NAME SECONDS" console lines as they arrive: a step that
	has not been followed by another (or by the plan's end) within SECONDS is overdue."""

	LINE = re.compile(rb"^pl-step: (\S+) (\d+)\r?$", re.M)

	def __init__(self):
		self.seen = 0
		self.partial = b""
		self.step = ("boot", BOOT_STEP_SECONDS, time.monotonic())  # (name, seconds, started)
		self.overdue = None
		self.durations = []

	def __call__(self, chunks):
		while self.seen < len(chunks):
			text = self.partial + chunks[self.seen]
			self.seen += 1
			complete, _, self.partial = text.rpartition(b"\n")
			for line in complete.split(b"\n"):
				self.line(line.rstrip(b"\r"))
		if self.step and time.monotonic() - self.step[2] > self.step[1]:
			self.overdue = self.step
			return True
		return False

	def line(self, line):
		match = self.LINE.match(line)
		ended = match or line.startswith((b"pl-init: plan ", b"pl-init: running plan"))
		if ended and self.step:
			self.durations.append((self.step[0], time.monotonic() - self.step[2]))
			self.step = None
		if match:
			self.step = (match.group(1).decode(), int(match.group(2)), time.monotonic())


def boot(image, initramfs, plan, memory, timeout, workdir, drives=(), accel=None, log=print):
	"""DRIVES: (role, image path) pairs, the images in WORKDIR; roles 'swap' and 'disk'.
	QEMU runs in the sandbox: it sees the image, the initramfs and WORKDIR, nothing else."""
	accel = accel or accelerator(image, initramfs, workdir, log)
	results_path = workdir / f"results-{plan}.txt"
	results_path.write_bytes(b"")
	limits = sandbox.BOOT_LIMITS.replace(wall_seconds=timeout, output=CONSOLE_CAP)
	steps = StepWatch()
	done = sandbox.run(qemu_command(plan, memory, accel, drives), limits, cwd="/run",
			   read_only={"/boot/bzImage": image, "/boot/initramfs.cpio": initramfs},
			   writable={"/run": workdir},
			   devices=["/dev/kvm"] if accel == "kvm" else [],
			   stop_when=lambda chunks: results_path.stat().st_size > RESULTS_CAP or
			   steps(chunks))
	flooded = done.truncated or results_path.stat().st_size > RESULTS_CAP
	with open(results_path, "rb") as results_file:
		results = results_file.read(RESULTS_CAP).decode("utf-8", "replace").replace("\r", "")
	text = done.text().replace("\r", "")
	qemu_errors = "\n".join(line for line in text.splitlines() if line.startswith("qemu-system"))
	status, problem = classify(text, flooded, done.timed_out or steps.overdue, done.status,
				   qemu_errors)
	if status == "hang" and steps.overdue:
		name, seconds, _ = steps.overdue
		problem = f"step '{name}' did not finish within its {seconds} s\n{problem}"
	log("steps: " + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in steps.durations))
	(workdir / f"console-{plan}.log").write_text(text)
	return BootOutcome(status, text, results, done.seconds, accel, problem)


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
