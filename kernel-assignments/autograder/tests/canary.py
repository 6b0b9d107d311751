"""A canary planted outside every submission, and the check that nothing leaked it.

Interface:
    plant() -> Canary        a fresh directory outside any submission and any cache,
                             holding secret.txt with a random token (a line of text) and
                             secret.h (the same token as a C string, for #include)
    Canary: .dir, .path (secret.txt), .header (secret.h), .text (the token)
    host_path_shown(text) -> str | None  a host path of the grader in TEXT (the cache,
                             this repository), if any
    leaked(canary, text) -> str | None   what TEXT shows that it must not, if anything:
                             the token, or a host path of the grader (the cache, this
                             repository).  The canary's own path is not a leak: a hostile
                             submission names it in its source, and may see it quoted back.
    canary.remove()

Invariant: the token is random per plant(), so it can only appear in a grade's output if
the grader or the student's build read the file.
"""
import secrets
import shutil
import tempfile
from pathlib import Path

import kbuild

REPOSITORY = Path(__file__).resolve().parents[3]


class Canary:
	def __init__(self):
		self.dir = Path(tempfile.mkdtemp(prefix="pagelab-canary-"))
		self.text = f"PAGELAB-CANARY-{secrets.token_hex(12)}"
		self.path = self.dir / "secret.txt"
		self.path.write_text(self.text + "\n")
		self.header = self.dir / "secret.h"
		self.header.write_text(f'static const char canary[] = "{self.text}";\n')

	def remove(self):
		shutil.rmtree(self.dir, ignore_errors=True)


def plant():
	return Canary()


def host_path_shown(text):
	"""A host path of the grader that TEXT shows (the cache, this repository), or None."""
	for path, what in ((str(kbuild.cache_dir()), "the grader's cache path"),
			   (str(REPOSITORY), "the grader's repository path")):
		if path in text:
			return f"{what} ({path})"
	return None


def leaked(canary, text):
	if canary.text in text:
		return f"the canary's contents ({canary.text})"
	return host_path_shown(text)
