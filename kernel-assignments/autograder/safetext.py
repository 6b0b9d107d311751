"""Text a student can influence, made safe to show: decoded from any bytes, printable.

Interface:
    decode(data) -> str        bytes (or str) as printable text: invalid UTF-8 becomes U+FFFD
    printable(text) -> str     control characters (ESC, CR, NUL, DEL, C1), lone surrogates
                               and bidirectional overrides become visible escapes like \\x1b
                               or \\u202e; newline and tab are kept
    name(raw) -> str           a file name shown on ONE line: printable, newline and tab
                               escaped too, so a name cannot start a fake report line
    clean(value) -> value      printable() applied to every string in a JSON-like value

Invariants: the results are valid UTF-8 (no surrogates), and nothing in them can move a
terminal's cursor, change its colours or reorder the text around it.
"""
import re

# C0 controls but newline and tab, DEL, C1 controls, lone surrogates, and the bidirectional
# embedding/override/isolate marks (the "Trojan Source" characters)
UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff"
			 "\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
UNPRINTABLE_IN_NAME = re.compile(UNPRINTABLE.pattern[:-1] + "\n\t]")


def escape(match):
	code = ord(match.group())
	return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text):
	return UNPRINTABLE.sub(escape, text)


def decode(data):
	if isinstance(data, str):
		return printable(data)
	return printable(bytes(data).decode("utf-8", "replace"))


def name(raw):
	"""RAW: a str (possibly holding surrogate escapes from os.fsdecode) or bytes."""
	if isinstance(raw, str):
		try:
			raw = raw.encode("utf-8", "surrogateescape")
		except UnicodeEncodeError:
			return UNPRINTABLE_IN_NAME.sub(escape, raw)
	text = raw.decode("utf-8", "backslashreplace")
	return UNPRINTABLE_IN_NAME.sub(escape, text)


def clean(value):
	if isinstance(value, str):
		return printable(value)
	if isinstance(value, dict):
		return {clean(key): clean(item) for key, item in value.items()}
	if isinstance(value, (list, tuple)):
		return [clean(item) for item in value]
	return value
