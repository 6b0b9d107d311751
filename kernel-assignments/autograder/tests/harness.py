"""A tiny sentence-style test harness for the kernel suite.

Interface:
    @check("a forged line is rejected")     registers a check (runs in declaration order)
    run_checks(prefix="kernel", only=()) -> exit status   prints "ok"/"FAIL" per check
        and ends with "kernel: N passed, N failed"; ONLY selects checks by sentence words
    expect(condition, message)               fails the current check with MESSAGE

Invariant: a check passes only by returning normally; any exception fails it with the
exception's message, so a check cannot pass by printing nothing.
"""
import sys
import time
import traceback

_checks = []


class CheckFailed(Exception):
	pass


def check(sentence):
	def register(function):
		_checks.append((sentence, function))
		return function
	return register


def expect(condition, message):
	if not condition:
		raise CheckFailed(message)


def run_checks(prefix="kernel", only=()):
	"""Runs every check, or those whose sentence contains one of the words in ONLY."""
	passed = failed = 0
	for sentence, function in _checks:
		if only and not any(words in sentence for words in only):
			continue
		started = time.monotonic()
		try:
			function()
		except CheckFailed as failure:
			failed += 1
			print(f"FAIL {sentence}\n     {str(failure).replace(chr(10), chr(10) + '     ')}",
			      flush=True)
			continue
		except Exception:
			failed += 1
			print(f"FAIL {sentence}\n     {traceback.format_exc()}", flush=True)
			continue
		passed += 1
		seconds = time.monotonic() - started
		timing = f" ({seconds:.0f} s)" if seconds >= 1 else ""
		print(f"ok   {sentence}{timing}", flush=True)
	print(f"{prefix}: {passed} passed, {failed} failed")
	return 0 if failed == 0 else 1


if __name__ == "__main__":
	sys.exit("harness.py is a library; run unit.py or cases.py")
