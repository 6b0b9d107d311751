"""A tiny sentence-style test harness for the kernel suite.

Interface:
    @check("a forged line is rejected")     registers a check (reported in declaration order)
    @check("...", alone=True)               a check that runs with no other check beside it
    run_checks(prefix="kernel", only=()) -> exit status   prints "ok"/"FAIL" per check
        and ends with "kernel: N passed, N failed"; ONLY selects checks by sentence words;
        $PAGELAB_KERNEL_JOBS checks run at once (default: the CPU count, at most 4)
    expect(condition, message)               fails the current check with MESSAGE

Invariants: a check passes only by returning normally; any exception fails it with the
exception's message, so a check cannot pass by printing nothing.  Each check runs in a
process of its own, forked from this one, so what one check changes in its process
(environment, mocks, signal handlers) cannot reach another, and a check that dies
without reporting (a signal, os._exit) fails with the way it died.

Why several at once: most of a graded case's time is a QEMU guest that sleeps (timers,
the walks of a module that runs once a second) or a single-threaded TCG vCPU, so two
cases side by side take little more than one.  Checks that look at what the whole cache
holds (e.g. "no build directory was left behind"), or that measure time, say alone=True.
Results are printed in declaration order whatever order they finish in; anything a check
writes to stdout or stderr is printed just before its result line.
"""
import multiprocessing
import multiprocessing.connection
import os
import pickle
import sys
import tempfile
import time
import traceback

_checks = []


class CheckFailed(Exception):
	pass


class _Check:
	def __init__(self, sentence, function, alone):
		self.sentence = sentence
		self.function = function
		self.alone = alone


def check(sentence, alone=False):
	def register(function):
		_checks.append(_Check(sentence, function, alone))
		return function
	return register


def expect(condition, message):
	if not condition:
		raise CheckFailed(message)


def _outcome(function):
	"""Runs FUNCTION; returns (passed, failure text, seconds)."""
	started = time.monotonic()
	try:
		function()
	except CheckFailed as failure:
		return False, str(failure), time.monotonic() - started
	except Exception:
		return False, traceback.format_exc(), time.monotonic() - started
	return True, "", time.monotonic() - started


def _child(function, output_fd, result_fd):
	"""In the forked process: the check's output goes to OUTPUT_FD, its outcome (pickled)
	to RESULT_FD.  Files, not pipes: a pipe could fill while nobody reads it."""
	sys.stdout.flush()
	sys.stderr.flush()
	os.dup2(output_fd, 1)
	os.dup2(output_fd, 2)
	outcome = _outcome(function)
	with os.fdopen(os.dup(result_fd), "wb") as result:
		pickle.dump(outcome, result)
	sys.stdout.flush()
	sys.stderr.flush()


class _Running:
	"""One check in its own process; its output and outcome in unlinked temporary files."""

	def __init__(self, context, entry):
		self.check = entry
		self.output = tempfile.TemporaryFile()
		self.result = tempfile.TemporaryFile()
		self.process = context.Process(target=_child, args=(
			entry.function, self.output.fileno(), self.result.fileno()))
		self.started = time.monotonic()
		self.process.start()

	def finish(self):
		"""Waits for the process; returns (passed, failure text, seconds, output bytes)."""
		self.process.join()
		self.result.seek(0)
		try:
			result = pickle.load(self.result)
		except (EOFError, pickle.UnpicklingError):
			code = self.process.exitcode
			how = f"killed by signal {-code}" if code < 0 else f"exit {code}"
			result = (False, f"the check's process ended without a result ({how})",
				  time.monotonic() - self.started)
		self.output.seek(0)
		output = self.output.read()
		self.output.close()
		self.result.close()
		return result + (output,)


def _report(sentence, result):
	"""Prints one check's output and result line; returns whether it passed."""
	passed, failure, seconds, output = result
	if output:
		sys.stdout.flush()
		sys.stdout.buffer.write(output if output.endswith(b"\n") else output + b"\n")
	if passed:
		timing = f" ({seconds:.0f} s)" if seconds >= 1 else ""
		print(f"ok   {sentence}{timing}", flush=True)
	else:
		print(f"FAIL {sentence}\n     {failure.rstrip().replace(chr(10), chr(10) + '     ')}",
		      flush=True)
	return passed


def default_jobs():
	configured = os.environ.get("PAGELAB_KERNEL_JOBS", "")
	if configured:
		if not configured.isdigit() or int(configured) < 1:
			sys.exit(f"PAGELAB_KERNEL_JOBS={configured!r}: not a positive whole number")
		return int(configured)
	return max(1, min(os.cpu_count() or 1, 4))


def run_checks(prefix="kernel", only=()):
	"""Runs every check, or those whose sentence contains one of the words in ONLY, several
	at a time (alone=True checks by themselves), and reports them in declaration order."""
	jobs = default_jobs()
	context = multiprocessing.get_context("fork")
	selected = [entry for entry in _checks
		    if not only or any(words in entry.sentence for words in only)]
	results = {}
	running = []
	reported = passed = failed = 0

	def reap():
		"""Waits for a running check to end; reports every check now due, in order."""
		nonlocal reported, passed, failed
		multiprocessing.connection.wait([r.process.sentinel for r in running])
		for ended in [r for r in running if not r.process.is_alive()]:
			running.remove(ended)
			results[ended.check] = ended.finish()
		while reported < len(selected) and selected[reported] in results:
			if _report(selected[reported].sentence, results.pop(selected[reported])):
				passed += 1
			else:
				failed += 1
			reported += 1

	for entry in selected:
		limit = 1 if entry.alone else jobs
		while len(running) >= limit:
			reap()
		running.append(_Running(context, entry))
		while entry.alone and running:
			reap()
	while running:
		reap()
	print(f"{prefix}: {passed} passed, {failed} failed")
	return 0 if failed == 0 else 1


if __name__ == "__main__":
	sys.exit("harness.py is a library; run unit.py or cases.py")
