"""Verifies the signed result lines of one boot (line format in common/guest/pltest.h).

Interface:
    new_key() -> str                          a fresh per-run secret (hex)
    sign(key, body) -> str                    the mac pltest.c computes, for tests
    verify(results_text, console_text, key) -> Verified
        .results  {id: (passed, message)}     a failure wins over a pass of the same id
        .values   {(id, key): int}
        .suspicious [str]                     why lines were rejected (printable, one
                                              line each, for the staff log)
    unauthenticated_note(count) -> str        the sentence the report shows

Invariants: only lines whose HMAC verifies under KEY and whose sequence number is exactly
one more than the previous line of the same stream are accepted; everything else is
ignored and counted in .suspicious, whatever bytes it holds (a non-hex or non-ASCII mac
is just another line that does not verify).  Result lines on the console (where pltest
never writes them) are suspicious too: only a kernel would put them there.
"""
import hashlib
import hmac
import re
import secrets

import safetext

BODY = re.compile(r"PL1 ([0-9a-f]{16}) ([0-9]{1,18}) ([RV]) (\S+) (\S+) ?(.*)", re.ASCII)
MAC = re.compile(r"[0-9a-f]{64}")
MAX_SUSPICIOUS_SHOWN = 5


class Verified:
	def __init__(self):
		self.results = {}
		self.values = {}
		self.suspicious = []
		self.last_seq = {}

	def accept(self, stream, seq, kind, ident, field, text, where):
		if seq != self.last_seq.get(stream, 0) + 1:
			self.suspicious.append(f"{where}: sequence {seq} after "
					       f"{self.last_seq.get(stream, 0)} in stream {stream}"
					       " (replayed or reordered line)")
			return
		self.last_seq[stream] = seq
		if kind == "R":
			passed = field == "1" and self.results.get(ident, (True, ""))[0]
			if ident not in self.results or not passed:
				self.results[ident] = (passed, text)
			return
		try:
			self.values[(ident, field)] = int(text)
		except ValueError:
			self.suspicious.append(f"{where}: value {text!r} is not a number")


def new_key():
	return secrets.token_hex(32)


def sign(key, body):
	return hmac.new(bytes.fromhex(key), body.encode("utf-8", "replace"), hashlib.sha256).hexdigest()


def shown(line):
	return safetext.name(line[:80])


def check_line(verified, line, key, where):
	body, _, mac = line.rpartition(" ")
	match = BODY.fullmatch(body)
	if not match or not MAC.fullmatch(mac):
		verified.suspicious.append(f"{where}: malformed result line {shown(line)}")
		return
	if not hmac.compare_digest(mac.encode(), sign(key, body).encode()):
		verified.suspicious.append(f"{where}: signature does not verify: {shown(line)}")
		return
	stream, seq, kind, ident, field, text = match.groups()
	verified.accept(stream, int(seq), kind, ident, field, text, where)


def verify(results_text, console_text, key):
	verified = Verified()
	for number, raw in enumerate(results_text.splitlines(), 1):
		start = raw.find("PL1 ")
		if start < 0:
			if raw.strip():
				verified.suspicious.append(f"results line {number}: not a result"
							   f" line {shown(raw)}")
			continue
		check_line(verified, raw[start:].strip(), key, f"results line {number}")
	for number, raw in enumerate(console_text.splitlines(), 1):
		if "PL1 " in raw:
			verified.suspicious.append(f"console line {number}: a result line on the"
						   f" console, ignored: {shown(raw.strip())}")
	return verified


def unauthenticated_note(count):
	return f"{count} unauthenticated result line{'s' if count != 1 else ''} ignored"


def summarize_suspicious(suspicious):
	shown = suspicious[:MAX_SUSPICIOUS_SHOWN]
	more = len(suspicious) - len(shown)
	return "\n".join(shown + ([f"... and {more} more"] if more > 0 else []))
