"""The sandbox every piece of student-influenced work runs in: patch, make, checkpatch, QEMU.

Interface:
    Limits(cpu_seconds, wall_seconds, memory, file_size, processes, output)  resource caps
    BUILD_LIMITS, CHECK_LIMITS, BOOT_LIMITS                                   the defaults
    Overlay(layers, directory)     /build is LAYERS (read-only, top first) with DIRECTORY's
                                   upper/ on top: writes land in DIRECTORY/upper only
    run(command, limits, build=None, read_only={}, writable={}, env={}, stdin=b"",
        cwd="/build", devices=(), stop_when=None)
        -> Completed(status, output, timed_out, truncated, seconds)
        BUILD: an Overlay, or a host directory bound read-write at /build.
        READ_ONLY / WRITABLE: {path inside: host path}.  DEVICES: host devices to expose
        (QEMU's /dev/kvm).  OUTPUT: stdout and stderr together, as bytes, capped.
        STOP_WHEN(chunks): polled 20 times a second with the output's chunks so far (a
        list that only grows); True stops the run (a file too big, a step overdue).
    available() -> None | str      why no sandbox can be made on this machine (cached)
    disabled()                     the TA passed --no-sandbox: run() runs the command on
                                   the host (same rlimits, paths translated; the overlay is
                                   still mounted in a private mount namespace), for trusted
                                   input only

How: util-linux `unshare --user --map-root-user --mount` gives a private mount namespace in
which the kernel lets an ordinary user mount overlayfs (Linux >= 5.11); inside it Debian's
bubblewrap (0.8 has no --overlay of its own) builds the sandbox:
    --unshare-all          new user, pid, ipc, uts, cgroup and NETWORK namespaces (no network)
    --die-with-parent      killing the grader kills everything inside
    --new-session          no TIOCSTI into the grader's terminal
    --clearenv, --cap-drop ALL, uid/gid 1000
    / is an empty tmpfs holding only: /usr (the toolchain, read-only; /bin, /lib... are
    Debian's merged-/usr symlinks), /etc/alternatives and /etc/ld.so.cache (read-only, for
    the toolchain's symlinks and loader), fresh /proc, /dev and a size-capped /tmp, the build
    at /build, and the binds the caller names.  Nothing else of the host exists inside: not
    the grader's sources or tests, not other submissions, not the cache, not /etc, not /root.
Limits: prlimit sets CPU seconds, address space per process, largest file, no core files
and (for an ordinary user) the process count, counted inside the sandbox's own user
namespace; as root, where the kernel ignores RLIMIT_NPROC, a pids cgroup caps processes
when /sys/fs/cgroup is writable.  Wall time and output size are enforced here: past either,
the whole process group is killed.

Invariants: paths inside are fixed (/build, /input, /boot, /run), so nothing a student sees
names a host path, and ccache keys are the same for every tree; a run never outlives its
wall limit by more than a second; output beyond the cap is never held in memory.
"""
import os
import signal
import stat
import subprocess
import threading
import time
from pathlib import Path

SYSTEM_BINDS = ("/usr", "/etc/alternatives", "/etc/ld.so.cache")
MERGED_USR_LINKS = (("usr/bin", "/bin"), ("usr/sbin", "/sbin"), ("usr/lib", "/lib"),
		    ("usr/lib64", "/lib64"))
PATH = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
TMP_BYTES = 512 << 20
PIDS_CGROUPS = (Path("/sys/fs/cgroup/pids"), Path("/sys/fs/cgroup/unified"),
		Path("/sys/fs/cgroup"))


class Limits:
	def __init__(self, cpu_seconds, wall_seconds, memory, file_size, processes, output):
		self.cpu_seconds = cpu_seconds
		self.wall_seconds = wall_seconds
		self.memory = memory
		self.file_size = file_size
		self.processes = processes
		self.output = output

	def replace(self, **changes):
		fields = dict(vars(self))
		fields.update(changes)
		return Limits(**fields)


# make -j2 of a whole tinyconfig kernel (the base layer) needs ~15 CPU minutes on a loaded
# machine; a student's re-grade needs a fraction of that.  Memory is per process.
BUILD_LIMITS = Limits(cpu_seconds=3600, wall_seconds=3600, memory=4 << 30, file_size=1 << 30,
		      processes=512, output=16 << 20)
CHECK_LIMITS = Limits(cpu_seconds=120, wall_seconds=180, memory=2 << 30, file_size=64 << 20,
		      processes=64, output=4 << 20)
# QEMU: the boot's own timeout is the wall limit (qemu.py); its TCG translation cache and
# guest RAM need a large address space.
BOOT_LIMITS = Limits(cpu_seconds=1800, wall_seconds=600, memory=16 << 30, file_size=1 << 30,
		     processes=64, output=4 << 20)


class Overlay:
	def __init__(self, layers, directory):
		self.layers = [Path(layer) for layer in layers]
		self.directory = Path(directory)
		self.upper = self.directory / "upper"
		self.work = self.directory / "work"
		self.mountpoint = self.directory / "mnt"

	def options(self):
		for path in self.layers + [self.upper, self.work]:
			if any(character in str(path) for character in ",:\\\n"):
				raise ValueError(f"{path}: overlayfs cannot take a path with , : or \\")
		return (f"lowerdir={':'.join(map(str, self.layers))},upperdir={self.upper},"
			f"workdir={self.work}")

	def make_directories(self):
		for path in (self.upper, self.work, self.mountpoint):
			path.mkdir(parents=True, exist_ok=True)


class Completed:
	def __init__(self, status, output, timed_out, truncated, seconds):
		self.status = status
		self.output = output
		self.timed_out = timed_out
		self.truncated = truncated
		self.seconds = seconds

	def text(self):
		return self.output.decode("utf-8", "replace")


_state = {"disabled": False, "probe": None}


def disabled():
	_state["disabled"] = True


def is_disabled():
	return _state["disabled"]


def prlimit_prefix(limits):
	prefix = ["prlimit", f"--cpu={limits.cpu_seconds}", f"--as={limits.memory}",
		  f"--fsize={limits.file_size}", "--core=0", "--nofile=4096"]
	if os.geteuid() != 0:
		prefix.append(f"--nproc={limits.processes}")
	return prefix + ["--"]


def pids_cgroup(limits):
	"""As root: a fresh pids cgroup capped at LIMITS.processes, or None if none can be made."""
	if os.geteuid() != 0:
		return None
	for root in PIDS_CGROUPS:
		if not (root / "cgroup.procs").exists() or not os.access(root, os.W_OK):
			continue
		group = root / f"pagelab-{os.getpid()}-{time.monotonic_ns()}"
		try:
			group.mkdir()
			(group / "pids.max").write_text(f"{limits.processes}\n")
			return group
		except OSError:
			if group.exists():
				group.rmdir()
	return None


def bwrap_arguments(build, read_only, writable, devices, env, cwd):
	arguments = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session",
		     "--cap-drop", "ALL", "--uid", "1000", "--gid", "1000", "--hostname", "pagelab",
		     "--clearenv", "--setenv", "PATH", PATH, "--setenv", "LC_ALL", "C",
		     "--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp"]
	for name, value in env.items():
		arguments += ["--setenv", name, str(value)]
	for path in SYSTEM_BINDS:
		arguments += ["--ro-bind-try", path, path]
	for target, link in MERGED_USR_LINKS:
		arguments += ["--symlink", target, link]
	arguments += ["--proc", "/proc", "--dev", "/dev", "--size", str(TMP_BYTES), "--tmpfs", "/tmp"]
	for device in devices:
		arguments += ["--dev-bind-try", device, device]
	if isinstance(build, Overlay):
		arguments += ["--bind", str(build.mountpoint), "/build"]
	elif build is not None:
		arguments += ["--bind", str(build), "/build"]
	for inside, host in read_only.items():
		arguments += ["--ro-bind", str(host), inside]
	for inside, host in writable.items():
		arguments += ["--bind", str(host), inside]
	return arguments + ["--chdir", cwd]


def overlay_mount(build, then_cd=None):
	"""sh words that mount BUILD's overlay (in the namespace unshare made), then exec."""
	build.make_directories()
	change = f'cd "{then_cd}" || exit 125; ' if then_cd else ""
	return ["sh", "-c", 'mount -t overlay overlay -o "$1" "$2" || exit 125; shift 2; ' + change +
		'exec "$@"', "sh", build.options(), str(build.mountpoint)]


def namespace_prefix(user):
	return ["unshare"] + (["--user", "--map-root-user"] if user else []) + \
		["--mount", "--propagation", "private", "--"]


def sandbox_command(command, limits, build, read_only, writable, devices, env, cwd):
	inner = bwrap_arguments(build, read_only, writable, devices, env, cwd) + ["--"] + command
	# the overlay is mounted in a private mount namespace, then bwrap binds it at /build
	mount = overlay_mount(build) if isinstance(build, Overlay) else []
	return prlimit_prefix(limits) + namespace_prefix(True) + mount + inner


def host_command(command, limits, build, read_only, writable, env, cwd):
	"""--no-sandbox: the same command on the host, its fixed paths replaced by host paths;
	an overlay is still mounted (root: a mount namespace; others: a user namespace too)."""
	places = dict(read_only)
	places.update(writable)
	if build is not None:
		places["/build"] = build.mountpoint if isinstance(build, Overlay) else build

	def translate(word):
		for inside, host in sorted(places.items(), key=lambda item: -len(item[0])):
			if word == inside or word.startswith(inside + "/"):
				return str(host) + word[len(inside):]
		return word
	full_env = dict(os.environ, LC_ALL="C", **{k: translate(str(v)) for k, v in env.items()})
	full = [translate(word) for word in command]
	if isinstance(build, Overlay):
		full = namespace_prefix(os.geteuid() != 0) + overlay_mount(build, translate(cwd)) + full
		return prlimit_prefix(limits) + full, full_env, "/"
	return prlimit_prefix(limits) + full, full_env, translate(cwd)


class CappedOutput(threading.Thread):
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

	def data(self):
		return b"".join(self.chunks)


def run(command, limits, build=None, read_only=None, writable=None, env=None, stdin=b"",
	cwd="/build", devices=(), stop_when=None):
	read_only, writable, env = read_only or {}, writable or {}, env or {}
	group = None
	if is_disabled():
		full, full_env, cwd_host = host_command(command, limits, build, read_only, writable,
							env, cwd)
	else:
		problem = available()
		if problem:
			raise RuntimeError(f"no sandbox on this machine: {problem}")
		full = sandbox_command(command, limits, build, read_only, writable, devices, env, cwd)
		full_env, cwd_host = {"PATH": PATH, "LC_ALL": "C"}, "/"
		group = pids_cgroup(limits)
	return supervise(full, full_env, cwd_host, limits, stdin, group, stop_when)


def supervise(full, env, cwd, limits, stdin, group, stop_when):
	started = time.monotonic()
	joined = (lambda: (group / "cgroup.procs").write_text(str(os.getpid()))) if group else None
	process = subprocess.Popen(full, cwd=cwd, env=env, stdin=subprocess.PIPE,
				   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
				   start_new_session=True, preexec_fn=joined)
	output = CappedOutput(process.stdout, limits.output)
	output.start()
	feeder = threading.Thread(target=feed, args=(process.stdin, stdin), daemon=True)
	feeder.start()
	timed_out = False
	try:
		while process.poll() is None:
			if output.overflowed.is_set() or (stop_when and stop_when(output.chunks)):
				break
			if time.monotonic() - started > limits.wall_seconds:
				timed_out = True
				break
			time.sleep(0.05)
	finally:
		if process.poll() is None:
			os.killpg(process.pid, signal.SIGKILL)
		process.wait()
		output.join(5)
		if group:
			remove_cgroup(group)
	return Completed(process.returncode, output.data(), timed_out, output.overflowed.is_set(),
			 time.monotonic() - started)


def feed(pipe, data):
	try:
		pipe.write(data)
		pipe.close()
	except OSError:
		pass


def remove_cgroup(group):
	for _ in range(50):
		try:
			group.rmdir()
			return
		except OSError:
			time.sleep(0.1)


def available():
	"""None when a sandbox works here (tried once per process), else why not."""
	if _state["probe"] is None:
		_state["probe"] = probe()
	return _state["probe"] or None


# bwrap's /dev binds the host's device nodes; Kbuild's compiler tests compile /dev/null
NULL_DEVICE = "/dev/null"


def null_device_problem():
	"""None when NULL_DEVICE is the null device (char 1:3), else what it is instead.

	A /dev/null that something replaced with a regular file makes every Kbuild compiler
	test fail, so flags change and each build silently recompiles the whole kernel."""
	try:
		status = os.stat(NULL_DEVICE)
	except OSError as error:
		return f"{NULL_DEVICE} is missing ({error.strerror})"
	if stat.S_ISCHR(status.st_mode) and os.major(status.st_rdev) == 1 and \
	   os.minor(status.st_rdev) == 3:
		return None
	kind = "a regular file" if stat.S_ISREG(status.st_mode) else "not the null device"
	return (f"{NULL_DEVICE} on this machine is {kind}; every build would see it and recompile"
		f" the whole kernel. As root: rm {NULL_DEVICE} && mknod -m 666 {NULL_DEVICE} c 1 3")


def probe():
	problem = null_device_problem()
	if problem:
		return problem
	for tool in ("bwrap", "unshare", "prlimit"):
		if not any(Path(d, tool).exists() for d in PATH.split(":")):
			return f"{tool} is not installed (scripts/setup.sh kernel installs it)"
	try:
		proc = subprocess.run(sandbox_command(["true"], CHECK_LIMITS, None, {}, {}, (), {},
						      "/"), stdout=subprocess.PIPE,
				      stderr=subprocess.STDOUT, timeout=30)
	except subprocess.TimeoutExpired:
		return "a trial sandbox did not start within 30 s"
	if proc.returncode != 0:
		return ("a trial sandbox failed (user namespaces disabled?): " +
			proc.stdout.decode("utf-8", "replace").strip()[-500:])
	return ""
