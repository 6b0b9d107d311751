"""Kernel source, the layered kernel trees, and sandboxed builds.

Interface:
    cache_dir() -> Path                  ${PAGELAB_CACHE:-~/.cache/pagelab}
    pristine_tree(log) -> Path           Debian's linux-source-6.1, extracted once
    kernel_version(tree) -> str          "6.1.192", read from the top Makefile
    AssignmentTree(assignment, log)      the assignment's prepared kernel, built
        .prepare()                       makes (once) the shared base layer and this
                                         assignment's layer; safe to call concurrently
        .start_version(path) / .base_version(path)   a student file at the start / as
                                         pristine + base patch left it (None: new file)
        .layers                          host directories stacked at /build, top first
    SubmissionBuild(tree, log)           one grade's own build directory (context manager:
                                         made empty, removed afterwards; one left by a
                                         killed grade is removed when the next one starts)
        .overlay(contents)               writes the files that differ from their start
        .build() -> BuildResult          incremental `make bzImage` (and `modules` when the
                                         assignment lists some) in the sandbox;
                                         .image and .modules ({name.ko: host path})
    run_checkpatch(diff, log) -> (ok, text)   checkpatch.pl --no-tree in the sandbox

Layers (overlayfs, stacked by sandbox.Overlay at the same path /build every time):

    builds/<grade>/upper   one submission: its files, the objects they change, the image
    layers/<assignment>-<digest>/upper   base patch + skeleton (+ the assignment's config),
                                         built: only what the base patch touches
    layers/base-<digest>/upper           common/base.patch (reserved system call numbers,
                                         declarations in widely included headers) +
                                         tinyconfig + common/minimal.config, built once for
                                         every assignment
    src/linux                            pristine, never written

Invariants:
    - Layers are made by the grader from trusted inputs (kernel source, base patch, skeleton)
      and are read-only once complete; a layer's name holds the digest of everything it was
      made from, so a changed input makes a new layer instead of patching an old one.
    - A student's build sees the layers read-only and writes only its own upper directory,
      which starts empty for every grade: nothing of another submission is visible.
    - Every build runs in the sandbox with the same make command line and the same /build
      path, so make's command records match across layers and ccache keys match across
      assignments; only the trusted layers write to ccache (student builds run with
      CCACHE_DISABLE, so they can neither poison nor read another build's objects).
    - A build counts only when make succeeds: an image is never handed out after a failure.
Errors in the setup itself raise SetupError with a message naming the input.
"""

import contextlib
import fcntl
import hashlib
import os
import re
import shutil
import stat
import subprocess
import tempfile
import time
from pathlib import Path

import sandbox

SOURCE_TARBALL = Path("/usr/src/linux-source-6.1.tar.xz")
COMMON_DIR = Path(__file__).resolve().parent.parent / "common"
MINIMAL_CONFIG = COMMON_DIR / "minimal.config"
BASE_PATCH = COMMON_DIR / "base.patch"
BUILD_JOBS = os.environ.get("PAGELAB_BUILD_JOBS") or str(max(1, os.cpu_count() or 1))
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
	def __init__(self, ok, seconds, image=None, compiler_lines=(), warnings=(), compiled=(),
		     output="", modules=None):
		self.ok = ok
		self.seconds = seconds
		self.image = image
		self.modules = modules or {}
		self.compiler_lines = list(compiler_lines)
		self.warnings = list(warnings)
		self.compiled = list(compiled)
		self.output = output


def compiler_lines(make_output):
	"""The lines a student needs from a failed build: the compiler's and make's errors."""
	shown = []
	for line in make_output.splitlines():
		if QUIET_MAKE_LINE.match(line):
			continue
		if line.startswith(("make[", "make:")) and "Error" not in line:
			continue
		shown.append(line)
	return shown[:COMPILER_LINES_SHOWN] + (
		[f"... ({len(shown) - COMPILER_LINES_SHOWN} more lines)"]
		if len(shown) > COMPILER_LINES_SHOWN else [])


QUIET_MAKE_LINE = re.compile(
	r"^\s+(CC|LD|AR|AS|HOSTCC|GEN|CALL|CHK|UPD|SYNC|OBJCOPY|KSYMS|SYSMAP|MODPOST|VOFFSET|"
	r"ZOFFSET|MKPIGGY|LZ4|RELOCS|BUILD|SORTTAB|DESCEND|WRAP|SYSHDR|SYSTBL|HYPERCALLS|"
	r"POLICY|MKELF|CPUSTR|PASYMS|HOSTLD|LDS|TABLE|SHIPPED|YACC|LEX|XZKERN|GZIP)\b")


def make_targets(assignment):
	"""bzImage, and the modules the guest loads when the assignment has some."""
	return ["bzImage"] + (["modules"] if assignment.modules else [])


def built_modules(layers, assignment):
	"""{name.ko: host path} of the assignment's modules as /build shows them (missing
	ones left out: a build that should have made them and did not has failed)."""
	found = {}
	for path in assignment.modules:
		host = through_layers(layers, path)
		if host is not None:
			found[Path(path).name] = host
	return found


def make_command(targets):
	"""The same make line for every layer and every student: kbuild compares command
	lines, so a different CC here would recompile the whole kernel."""
	return ["make", "-j", BUILD_JOBS, "CC=ccache gcc", "HOSTCC=ccache gcc"] + targets


def make_env(ccache):
	env = {"KBUILD_BUILD_TIMESTAMP": "pagelab", "KBUILD_BUILD_USER": "pagelab",
	       "KBUILD_BUILD_HOST": "pagelab", "CCACHE_DIR": "/ccache", "CCACHE_BASEDIR": "/build",
	       "CCACHE_MAXSIZE": os.environ.get("CCACHE_MAXSIZE", "5G")}
	if not ccache:
		env["CCACHE_DISABLE"] = "1"
	return env


def trusted_make(overlay, targets, log):
	"""make in a layer the grader builds from trusted inputs (these fill ccache)."""
	(cache_dir() / "ccache").mkdir(exist_ok=True)
	done = sandbox.run(make_command(targets), sandbox.BUILD_LIMITS, build=overlay,
			   writable={"/ccache": cache_dir() / "ccache"}, env=make_env(True))
	if done.status != 0:
		raise SetupError(f"make {' '.join(targets)} failed in {overlay.directory}"
				 f" ({done.status}{', stopped: time limit' if done.timed_out else ''}):\n"
				 + done.text()[-3000:])
	compiled = len(re.findall(r"^\s+CC\s", done.text(), re.M))
	log(f"make {' '.join(targets)}: {done.seconds:.0f} s, {compiled} files compiled")
	return done


def through_layers(layers, path):
	"""PATH as /build shows it: from the topmost layer holding it (None: absent/deleted)."""
	for layer in layers:
		candidate = Path(layer) / path
		try:
			facts = candidate.lstat()
		except FileNotFoundError:
			continue
		if stat.S_ISCHR(facts.st_mode) and facts.st_rdev == 0:
			return None  # an overlayfs whiteout: deleted in that layer
		return candidate
	return None


def read_through(layers, path):
	found = through_layers(layers, path)
	return found.read_bytes() if found else None


def toolchain_identity():
	proc = subprocess.run(["gcc", "--version"], stdout=subprocess.PIPE, text=True)
	return proc.stdout.splitlines()[0] if proc.stdout else "gcc ?"


def configure(overlay, layers, wanted, log, origin):
	"""Sets WANTED ([(name, value)]) on the .config /build shows, then olddefconfig, checked."""
	lines = (read_through(layers, ".config") or b"").decode().splitlines()
	names = {name for name, _ in wanted}
	kept = [line for line in lines
		if not any(re.match(rf"^(# )?{name}[= ]", line) for name in names)]
	kept += [f"{name}={value}" if value != "n" else f"# {name} is not set"
		 for name, value in wanted]
	write_file(overlay.upper / ".config", ("\n".join(kept) + "\n").encode())
	trusted_make(overlay, ["olddefconfig"], log)
	lost = missing_options((overlay.upper / ".config").read_text(), wanted)
	if lost:
		raise SetupError(f"{origin}: these kernel options did not stick after olddefconfig"
				 " (a dependency is missing): " + ", ".join(lost))


class Layer:
	"""A directory layers/<name>-<digest>/ holding one overlay upper, made once."""

	def __init__(self, name, digest, below):
		self.directory = cache_dir() / "layers" / f"{name}-{digest[:16]}"
		self.name = name
		self.below = below  # host directories under this layer, top first
		self.overlay = sandbox.Overlay(below, self.directory)
		self.upper = self.overlay.upper

	@property
	def stack(self):
		return [self.upper] + self.below

	def ensure(self, make, log):
		"""Runs MAKE(layer) unless the layer is complete; one maker at a time."""
		with file_lock(self.directory.with_name(self.directory.name + ".lock"), log,
			       f"the {self.name} kernel layer"):
			if (self.directory / "complete").exists():
				return
			remove_tree(self.directory)
			self.overlay.make_directories()
			make(self)
			(self.directory / "complete").write_text(time.strftime("%F %T\n"))


def apply_patch(layer, patch, log):
	"""patch -p1 of PATCH (a trusted file) onto LAYER, in the sandbox."""
	done = sandbox.run(["patch", "-p1", "--batch", "--forward", "-i", "/input/base.patch"],
			   sandbox.CHECK_LIMITS, build=layer.overlay,
			   read_only={"/input/base.patch": patch})
	if done.status != 0:
		raise SetupError(f"{patch}: the patch does not apply to Linux "
				 f"{kernel_version(pristine_tree(log))}:\n{done.text()[-3000:]}")


def base_layer(log):
	"""Pristine + common/base.patch + the common minimal config, fully built: shared by
	every assignment.  The base patch holds what would be expensive in an assignment
	layer (reserved system call numbers, declarations in widely included headers)."""
	pristine = pristine_tree(log)
	digest = hashlib.sha256((kernel_version(pristine) + toolchain_identity()).encode() +
				MINIMAL_CONFIG.read_bytes() + b"\0" + BASE_PATCH.read_bytes())
	layer = Layer("base", digest.hexdigest(), [pristine])

	def make(layer):
		log("building the shared base kernel (common/base.patch, tinyconfig +"
		    " common/minimal.config; once for every assignment)")
		apply_patch(layer, BASE_PATCH, log)
		trusted_make(layer.overlay, ["tinyconfig"], log)
		configure(layer.overlay, layer.stack, read_config_list(MINIMAL_CONFIG), log,
			  str(MINIMAL_CONFIG))
		trusted_make(layer.overlay, ["bzImage"], log)
	layer.ensure(make, log)
	return layer


class AssignmentTree:
	def __init__(self, assignment, log):
		self.assignment = assignment
		self.log = log
		self.layer = None
		self.layers = []

	def digest(self, base):
		digest = hashlib.sha256(str(base.directory).encode() +
					self.assignment.base_patch_bytes())
		for path in self.assignment.student_files:
			digest.update(path.encode() + b"\0" + (self.assignment.skeleton_bytes(path) or b""))
		digest.update(repr(self.wanted()).encode())
		return digest.hexdigest()

	def wanted(self):
		return [parse_config_line(line, f"{self.assignment.descriptor}: config")
			for line in self.assignment.config]

	def prepare(self):
		base = base_layer(self.log)
		version = kernel_version(pristine_tree(self.log))
		self.layer = Layer(self.assignment.name, self.digest(base), base.stack)
		self.layers = self.layer.stack
		if self.assignment.linux and version != self.assignment.linux:
			self.log(f"warning: the source is Linux {version} but {self.assignment.name}'s"
				 f" patches were made against {self.assignment.linux}")
		self.layer.ensure(self.make_layer, self.log)

	def make_layer(self, layer):
		self.log(f"making the {self.assignment.name} layer (base patch + skeleton)")
		self.apply_base_patch(layer)
		self.record_student_file_starts(layer)
		if self.wanted():
			configure(layer.overlay, layer.stack, self.wanted(), self.log,
				  f"{self.assignment.descriptor}: config")
		trusted_make(layer.overlay, make_targets(self.assignment), self.log)
		missing = set(self.assignment.modules) - {
			path for path in self.assignment.modules if through_layers(layer.stack, path)}
		if missing:
			raise SetupError(f"{self.assignment.descriptor}: \"modules\": the skeleton's"
					 f" build made no {', '.join(sorted(missing))}")

	def apply_base_patch(self, layer):
		patch = self.assignment.base_patch_path()
		if patch is not None:
			apply_patch(layer, patch, self.log)

	def record_student_file_starts(self, layer):
		for path in self.assignment.student_files:
			base = read_through(layer.stack, path)
			start = self.assignment.skeleton_bytes(path)
			if start is None:
				start = base
			if start is None:
				raise SetupError(f"{self.assignment.descriptor}: student file {path} is"
						 " neither in the kernel tree nor in the skeleton directory")
			write_file(layer.directory / "start" / path, start)
			if base is not None:
				write_file(layer.directory / "base" / path, base)
			if start != base:
				write_file(layer.upper / path, start)

	def start_version(self, path):
		return (self.layer.directory / "start" / path).read_bytes()

	def base_version(self, path):
		"""The pristine + base patch version of PATH, or None for a file the student adds."""
		saved = self.layer.directory / "base" / path
		return saved.read_bytes() if saved.exists() else None

	def image(self):
		return through_layers(self.layers, IMAGE)

	def modules(self):
		return built_modules(self.layers, self.assignment)


IMAGE = "arch/x86/boot/bzImage"


# held (flock) by the grade that owns a build directory, for as long as it lives
BUILD_OWNER = ".owner"


def remove_abandoned_builds(root):
	"""Removes the build directories of grades that were killed before they could clean up.

	The kernel drops a grade's flock when the grade dies, however it dies, so a directory
	whose owner lock can be taken belongs to nobody.  A directory without an owner file is
	one that is being made right now and is left alone."""
	for directory in root.iterdir():
		try:
			owner = open(directory / BUILD_OWNER, "r")
		except OSError:
			continue
		with owner:
			try:
				fcntl.flock(owner, fcntl.LOCK_EX | fcntl.LOCK_NB)
			except BlockingIOError:
				continue
			remove_tree(directory)


class SubmissionBuild:
	"""One grade's build directory under builds/: empty at the start, removed at the end.

	While the grade runs it holds the lock on the directory's owner file; a directory left
	behind by a killed grade is removed by the next grade that starts."""

	def __init__(self, tree, log):
		self.tree = tree
		self.log = log
		self.directory = None
		self.owner = None
		self.changed = []

	def __enter__(self):
		root = cache_dir() / "builds"
		root.mkdir(exist_ok=True)
		remove_abandoned_builds(root)
		self.directory = Path(tempfile.mkdtemp(prefix=f"{self.tree.assignment.name}-", dir=root))
		# locked before it takes its name, so no sweep can find it unlocked
		unnamed = self.directory / (BUILD_OWNER + ".new")
		self.owner = open(unnamed, "w")
		fcntl.flock(self.owner, fcntl.LOCK_EX)
		unnamed.rename(self.directory / BUILD_OWNER)
		return self

	def __exit__(self, *exc):
		remove_tree(self.directory)
		self.owner.close()

	def overlay(self, contents):
		"""Writes each student file that differs from its start into this build's upper."""
		upper = self.directory / "upper"
		for path in self.tree.assignment.student_files:
			data = contents.get(path)
			if data is not None and data != self.tree.start_version(path):
				write_file(upper / path, data)
				self.changed.append(path)

	def build(self):
		"""make bzImage in the sandbox; an unchanged submission uses the layer's image."""
		if not self.changed:
			return BuildResult(True, 0, image=self.tree.image(), modules=self.tree.modules())
		overlay = sandbox.Overlay(self.tree.layers, self.directory)
		done = sandbox.run(make_command(make_targets(self.tree.assignment)),
				   STUDENT_BUILD_LIMITS,
				   build=overlay, env=make_env(False))
		output = done.text()
		image = overlay.upper / IMAGE
		warnings = [line for line in output.splitlines() if "warning:" in line
			    and any(path in line for path in self.tree.assignment.student_files)]
		compiled = re.findall(r"^\s+CC\s+(\S+)$", output, re.M)
		if done.status != 0 or not image.exists():
			lines = compiler_lines(output)
			if done.timed_out:
				lines.append(f"(the build was stopped after {STUDENT_BUILD_LIMITS.wall_seconds} s)")
			elif done.truncated:
				lines.append("(the build was stopped: it printed more than"
					     f" {STUDENT_BUILD_LIMITS.output >> 20} MiB)")
			return BuildResult(False, done.seconds, compiler_lines=lines, warnings=warnings,
					   compiled=compiled, output=output)
		return BuildResult(True, done.seconds, image=image, warnings=warnings,
				   compiled=compiled, output=output,
				   modules=built_modules([overlay.upper] + self.tree.layers,
							 self.tree.assignment))


# a student's build recompiles a few files and relinks: minutes at most, even under load
STUDENT_BUILD_LIMITS = sandbox.BUILD_LIMITS.replace(cpu_seconds=900, wall_seconds=900)


def run_checkpatch(diff, log):
	"""checkpatch.pl --no-tree on DIFF (bytes) in the sandbox; (clean?, its output)."""
	done = sandbox.run(["perl", "/src/scripts/checkpatch.pl", "--no-tree", "--no-signoff",
			    "--color=never", "--show-types", "--quiet",
			    # a diff of files has no commit message, and a new file always asks
			    # whether MAINTAINERS needs updating: neither is the student's
			    "--ignore", "FILE_PATH_CHANGES,COMMIT_MESSAGE", "-"],
			   sandbox.CHECK_LIMITS, read_only={"/src": pristine_tree(log)},
			   stdin=diff, cwd="/tmp")
	return done.status == 0 and not done.timed_out, done.output


def remove_tree(path):
	"""rmtree that also removes overlayfs's work/work, which it leaves with mode 000."""
	for directory, subdirectories, _ in os.walk(path):
		for name in subdirectories:
			if not os.path.islink(os.path.join(directory, name)):
				os.chmod(os.path.join(directory, name), 0o700)
	shutil.rmtree(path, ignore_errors=True)


def write_file(path, data):
	path.parent.mkdir(parents=True, exist_ok=True)
	temporary = path.with_name(path.name + ".pagelab-tmp")
	temporary.write_bytes(data)
	os.replace(temporary, path)
