"""Kernel source, work trees, configuration and cached builds.

Interface:
    cache_dir() -> Path                  ${PAGELAB_CACHE:-~/.cache/pagelab}
    pristine_tree(log) -> Path           Debian's linux-source-6.1, extracted once
    kernel_version(tree) -> str          "6.1.192", read from the top Makefile
    WorkTree(assignment, log)            per-assignment tree: pristine + base patch
        .lock()                          context manager: one grade per tree at a time
        .prepare()                       (re)creates the tree when its inputs changed
        .configure()                     tinyconfig + common + assignment options, verified
        .build() -> BuildResult          incremental `make bzImage` through ccache

Invariants:
    - The pristine tree is never modified after extraction; work trees are copies.
    - A work tree records what it was made from (pristine version + base patch hash) in
      .pagelab/made-from; when that changes the tree is remade from scratch.
    - .pagelab/start/<path> holds each student file as a fresh tree has it (skeleton, or
      pristine + base version); .pagelab/base/<path> the pristine + base version, absent when
      the file is new.  Overlays compare against these, so unchanged files keep their mtime
      and a re-grade rebuilds only what changed.
    - A build counts only when make succeeds: an image left by an earlier build is never
      handed out after a failed one.  .pagelab/built-from records the inputs of the last
      clean build (config + student files); identical inputs skip make altogether.
Errors in the setup itself raise SetupError with a message naming the input.
"""
import contextlib
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

SOURCE_TARBALL = Path("/usr/src/linux-source-6.1.tar.xz")
COMMON_DIR = Path(__file__).resolve().parent.parent / "common"
MINIMAL_CONFIG = COMMON_DIR / "minimal.config"
BUILD_JOBS = str(max(1, os.cpu_count() or 1))
COMPILER_LINES_SHOWN = 40


class SetupError(Exception):
	"""The grading machinery could not prepare the kernel (not the student's fault)."""


def cache_dir():
	root = Path(os.environ.get("PAGELAB_CACHE") or Path.home() / ".cache" / "pagelab")
	root.mkdir(parents=True, exist_ok=True)
	return root


@contextlib.contextmanager
def file_lock(path, log, what):
	"""Holds an exclusive flock on PATH; tells the user when it has to wait."""
	path.parent.mkdir(parents=True, exist_ok=True)
	with open(path, "w") as handle:
		try:
			fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
		except BlockingIOError:
			log(f"waiting: another grade is using {what}")
			fcntl.flock(handle, fcntl.LOCK_EX)
		yield


def run(cmd, cwd=None, env=None, check=True):
	"""Runs CMD capturing stdout+stderr together; returns (status, text)."""
	proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
			      stderr=subprocess.STDOUT, text=True, errors="replace")
	if check and proc.returncode != 0:
		raise SetupError(f"command failed ({proc.returncode}): {' '.join(map(str, cmd))}\n"
				 + proc.stdout[-3000:])
	return proc.returncode, proc.stdout


def kernel_version(tree):
	fields = {}
	with open(tree / "Makefile") as makefile:
		for line in makefile:
			match = re.match(r"^(VERSION|PATCHLEVEL|SUBLEVEL)\s*=\s*(\d+)", line)
			if match:
				fields[match.group(1)] = match.group(2)
			if len(fields) == 3:
				break
	if len(fields) != 3:
		raise SetupError(f"{tree}/Makefile: no VERSION/PATCHLEVEL/SUBLEVEL lines")
	return f"{fields['VERSION']}.{fields['PATCHLEVEL']}.{fields['SUBLEVEL']}"


def pristine_tree(log):
	"""Extracts the Debian kernel source once; later calls reuse it."""
	target = cache_dir() / "src" / "linux"
	with file_lock(cache_dir() / "src.lock", log, "the kernel source extraction"):
		if (target / ".pagelab-complete").exists():
			return target
		if not SOURCE_TARBALL.exists():
			raise SetupError(f"{SOURCE_TARBALL} is missing: run 'scripts/setup.sh kernel'")
		log(f"extracting {SOURCE_TARBALL} (once)")
		staging = target.with_name("linux.partial")
		shutil.rmtree(staging, ignore_errors=True)
		shutil.rmtree(target, ignore_errors=True)
		staging.mkdir(parents=True)
		run(["tar", "-xJf", str(SOURCE_TARBALL), "-C", str(staging),
		     "--strip-components=1"])
		(staging / ".pagelab-complete").write_text(kernel_version(staging) + "\n")
		staging.rename(target)
		return target


def parse_config_line(line, origin):
	"""'CONFIG_X=y' or '# CONFIG_X is not set' -> ('CONFIG_X', 'y'|'n'|value)."""
	line = line.strip()
	match = re.fullmatch(r"# (CONFIG_[A-Za-z0-9_]+) is not set", line)
	if match:
		return match.group(1), "n"
	match = re.fullmatch(r"(CONFIG_[A-Za-z0-9_]+)=(.+)", line)
	if not match:
		raise SetupError(f"{origin}: not a kernel config option: {line!r}"
				 " (expected CONFIG_NAME=value or '# CONFIG_NAME is not set')")
	return match.group(1), match.group(2)


def read_config_list(path):
	options = []
	for number, line in enumerate(path.read_text().splitlines(), 1):
		if line.strip() and not re.match(r"#(?! CONFIG_)", line.strip()):
			options.append(parse_config_line(line, f"{path}:{number}"))
	return options


def config_value(dot_config_text, name):
	match = re.search(rf"^{name}=(.*)$", dot_config_text, re.M)
	return match.group(1) if match else "n"


def missing_options(dot_config_text, wanted):
	"""Names of requested options that .config does not hold as asked."""
	return [f"{name}={value} (got {config_value(dot_config_text, name)})"
		for name, value in wanted if config_value(dot_config_text, name) != value]


class BuildResult:
	def __init__(self, ok, seconds, image=None, compiler_lines=(), warnings=()):
		self.ok = ok
		self.seconds = seconds
		self.image = image
		self.compiler_lines = list(compiler_lines)
		self.warnings = list(warnings)


def compiler_lines(make_output):
	"""The lines a student needs from a failed build: the compiler's and make's errors."""
	shown = []
	for line in make_output.splitlines():
		if re.match(r"^\s+(CC|LD|AR|AS|HOSTCC|GEN|CALL|CHK|UPD|SYNC|OBJCOPY|"
			    r"KSYMS|SYSMAP|MODPOST|VOFFSET|ZOFFSET|MKPIGGY|LZ4|RELOCS|"
			    r"BUILD|SORTTAB|DESCEND|WRAP|SYSHDR|SYSTBL|HYPERCALLS|"
			    r"POLICY|UPD|MKELF|CPUSTR|PASYMS|HOSTLD|LDS|TABLE|SHIPPED)\b", line):
			continue
		if line.startswith(("make[", "make:")) and "Error" not in line:
			continue
		shown.append(line)
	return shown[:COMPILER_LINES_SHOWN] + (
		[f"... ({len(shown) - COMPILER_LINES_SHOWN} more lines)"]
		if len(shown) > COMPILER_LINES_SHOWN else [])


class WorkTree:
	def __init__(self, assignment, log):
		self.assignment = assignment
		self.log = log
		self.path = cache_dir() / "trees" / assignment.name
		self.meta = self.path / ".pagelab"

	def lock(self):
		return file_lock(self.path.with_name(self.assignment.name + ".lock"), self.log,
				 f"the {self.assignment.name} kernel tree")

	def made_from(self, pristine):
		digest = hashlib.sha256(self.assignment.base_patch_bytes())
		for path in self.assignment.student_files:
			digest.update(path.encode())
			digest.update(self.assignment.skeleton_bytes(path) or b"")
		return f"{kernel_version(pristine)} {digest.hexdigest()}\n"

	def prepare(self):
		pristine = pristine_tree(self.log)
		stamp = self.made_from(pristine)
		if (self.meta / "made-from").exists() and \
		   (self.meta / "made-from").read_text() == stamp:
			return
		version = kernel_version(pristine)
		if self.assignment.linux and version != self.assignment.linux:
			self.log(f"warning: the source is Linux {version} but {self.assignment.name}'s"
				 f" patches were made against {self.assignment.linux}; applying anyway")
		self.log(f"making the {self.assignment.name} work tree (pristine {version} + base patch)")
		shutil.rmtree(self.path, ignore_errors=True)
		self.path.parent.mkdir(parents=True, exist_ok=True)
		run(["cp", "-a", "--reflink=auto", str(pristine), str(self.path)])
		(self.path / ".pagelab-complete").unlink()
		self.apply_base_patch()
		self.record_student_file_starts()
		(self.meta / "made-from").write_text(stamp)

	def apply_base_patch(self):
		patch = self.assignment.base_patch_path()
		if patch is None:
			return
		status, output = run(["patch", "-p1", "--batch", "--forward", "-i", str(patch)],
				     cwd=self.path, check=False)
		if status != 0:
			shutil.rmtree(self.path, ignore_errors=True)
			raise SetupError(f"{patch}: the base patch does not apply to Linux "
					 f"{kernel_version(pristine_tree(self.log))}:\n{output[-3000:]}")

	def record_student_file_starts(self):
		for path in self.assignment.student_files:
			in_tree = self.path / path
			base = in_tree.read_bytes() if in_tree.exists() else None
			start = self.assignment.skeleton_bytes(path)
			if start is None:
				start = base
			if start is None:
				raise SetupError(f"{self.assignment.descriptor}: student file {path} is"
						 " neither in the kernel tree nor in the skeleton directory")
			write_file(self.meta / "start" / path, start)
			if base is not None:
				write_file(self.meta / "base" / path, base)
			write_if_changed(in_tree, start)

	def start_version(self, path):
		return (self.meta / "start" / path).read_bytes()

	def base_version(self, path):
		"""The pristine + base patch version of PATH, or None for a file the student adds."""
		saved = self.meta / "base" / path
		return saved.read_bytes() if saved.exists() else None

	def overlay(self, contents):
		"""Puts CONTENTS (path -> bytes) in the tree; other student files go back to start."""
		for path in self.assignment.student_files:
			data = contents.get(path)
			write_if_changed(self.path / path, data if data is not None
					 else self.start_version(path))

	def configure(self):
		wanted = read_config_list(MINIMAL_CONFIG) + [
			parse_config_line(line, f"{self.assignment.descriptor}: config")
			for line in self.assignment.config]
		stamp = repr(wanted)
		if (self.meta / "configured").exists() and \
		   (self.meta / "configured").read_text() == stamp and \
		   (self.path / ".config").exists():
			return
		self.log("configuring: tinyconfig + " + str(len(wanted)) + " options")
		self.make(["tinyconfig"])
		lines = (self.path / ".config").read_text().splitlines()
		names = {name for name, _ in wanted}
		kept = [line for line in lines
			if not any(re.match(rf"^(# )?{name}[= ]", line) for name in names)]
		kept += [f"{name}={value}" if value != "n" else f"# {name} is not set"
			 for name, value in wanted]
		(self.path / ".config").write_text("\n".join(kept) + "\n")
		self.make(["olddefconfig"])
		lost = missing_options((self.path / ".config").read_text(), wanted)
		if lost:
			raise SetupError("these kernel options did not stick after olddefconfig"
					 " (a dependency is missing): " + ", ".join(lost))
		(self.meta / "configured").write_text(stamp)

	def make_env(self):
		env = dict(os.environ)
		env.update(CCACHE_DIR=str(cache_dir() / "ccache"), CCACHE_BASEDIR=str(self.path),
			   CCACHE_MAXSIZE=env.get("CCACHE_MAXSIZE", "5G"),
			   KBUILD_BUILD_TIMESTAMP="pagelab", KBUILD_BUILD_USER="pagelab",
			   KBUILD_BUILD_HOST="pagelab", LC_ALL="C")
		return env

	def make(self, targets, check=True):
		return run(["make", "-j", BUILD_JOBS, "CC=ccache gcc", "HOSTCC=ccache gcc"] + targets,
			   cwd=self.path, env=self.make_env(), check=check)

	def built_from(self, image):
		"""The config, the student files' contents and the image's identity: any build
		that did not record itself (an older grader, a hand-run make) changes the last."""
		digest = hashlib.sha256((self.meta / "configured").read_bytes())
		for path in self.assignment.student_files:
			digest.update(path.encode() + b"\0" + (self.path / path).read_bytes())
		facts = image.stat()
		digest.update(f"{facts.st_mtime_ns} {facts.st_size} {facts.st_ino}".encode())
		return digest.hexdigest()

	def build(self):
		"""Runs make unless the image was built from exactly these inputs already."""
		image = self.path / "arch/x86/boot/bzImage"
		stamp = self.meta / "built-from"
		if image.exists() and stamp.exists() and stamp.read_text() == self.built_from(image):
			return BuildResult(True, 0, image=image)
		stamp.unlink(missing_ok=True)
		started = time.monotonic()
		status, output = self.make(["bzImage"], check=False)
		seconds = time.monotonic() - started
		warnings = [line for line in output.splitlines() if "warning:" in line
			    and any(path in line for path in self.assignment.student_files)]
		if status != 0 or not image.exists():
			return BuildResult(False, seconds, compiler_lines=compiler_lines(output),
					   warnings=warnings)
		stamp.write_text(self.built_from(image))
		return BuildResult(True, seconds, image=image, warnings=warnings)


def write_file(path, data):
	path.parent.mkdir(parents=True, exist_ok=True)
	temporary = path.with_name(path.name + ".pagelab-tmp")
	temporary.write_bytes(data)
	os.replace(temporary, path)


def write_if_changed(path, data):
	"""Writes DATA unless PATH already holds it, so make sees no change."""
	if path.exists() and path.read_bytes() == data:
		return False
	write_file(path, data)
	return True
