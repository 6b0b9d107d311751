"""The guest's initramfs and disks.

Interface:
    base_initramfs(assignment, log) -> Path   busybox, /init, pltool, the assignment's guest
                                               programs (static) and plans; cached by content
    run_initramfs(base, key, directory, modules) -> Path   base + a small archive holding
                                               /etc/pl.key and this build's kernel modules
                                               ({name.ko: host path}) in /lib/modules
    swap_image(directory, size) / ext2_image(directory, size) -> Path   fresh raw disks
    newc_archive(entries) -> bytes              cpio "newc" writer (no root, no cpio(1))
    parse_size("64M") -> bytes

Invariants: the base archive is rebuilt exactly when an input changed (guest sources,
plans, common/guest, common/init, busybox); the key never enters the cached base, only
the per-run archive, and the kernel reads the two concatenated.
"""
import hashlib
import re
import shutil
import stat
import subprocess
from pathlib import Path

from kbuild import COMMON_DIR, SetupError, cache_dir, file_lock, write_file

BUSYBOX = Path("/bin/busybox")
GUEST_LIBRARY = COMMON_DIR / "guest"
INIT_SCRIPT = COMMON_DIR / "init"
CFLAGS = ["-static", "-O2", "-Wall", "-Wextra", "-Werror=implicit-function-declaration"]


def parse_size(text):
	match = re.fullmatch(r"(\d+)([KMG]?)", str(text))
	if not match:
		raise ValueError(f"not a size: {text!r} (expected e.g. 64M)")
	return int(match.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[match.group(2)]


def newc_entry(ino, name, mode, data=b"", rdev=(0, 0)):
	name_bytes = name.encode() + b"\0"
	fields = [ino, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1], len(name_bytes), 0]
	header = b"070701" + b"".join(b"%08X" % value for value in fields)
	padded_name = header + name_bytes
	padded_name += b"\0" * (-len(padded_name) % 4)
	return padded_name + data + b"\0" * (-len(data) % 4)


def newc_archive(entries):
	"""ENTRIES: (name, mode, data, rdev) tuples, parents before children."""
	body = b"".join(newc_entry(ino, name, mode, data, rdev)
			for ino, (name, mode, data, rdev) in enumerate(entries, 1))
	return body + newc_entry(0, "TRAILER!!!", 0)


def directory(name):
	return (name, stat.S_IFDIR | 0o755, b"", (0, 0))


def regular(name, data, executable=True):
	return (name, stat.S_IFREG | (0o755 if executable else 0o644), data, (0, 0))


def guest_sources(assignment):
	if assignment.guest_dir is None:
		return []
	return sorted(assignment.guest_dir.glob("*.c"))


def guest_plans(assignment):
	if assignment.guest_dir is None or not (assignment.guest_dir / "plans").is_dir():
		return []
	return sorted(path for path in (assignment.guest_dir / "plans").iterdir() if path.is_file())


def inputs_digest(assignment):
	digest = hashlib.sha256()
	inputs = [BUSYBOX, INIT_SCRIPT] + sorted(GUEST_LIBRARY.iterdir()) + \
		guest_sources(assignment) + guest_plans(assignment)
	if assignment.guest_dir is not None:
		inputs += sorted(assignment.guest_dir.glob("*.h"))
	for path in inputs:
		digest.update(str(path).encode() + b"\0" + path.read_bytes())
	return digest.hexdigest()


def compile_guest_program(source, output, include_dirs):
	command = ["gcc"] + CFLAGS + [f"-I{d}" for d in include_dirs] + \
		[str(source), str(GUEST_LIBRARY / "pltest.c"), "-o", str(output)]
	proc = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
	if proc.returncode != 0:
		raise SetupError(f"{source}: the guest program does not compile"
				 f" (static, with pltest.c):\n{proc.stdout[-3000:]}")


def guest_programs(assignment, workdir):
	"""Compiles pltool and every guest program; returns {name: bytes}."""
	includes = [GUEST_LIBRARY] + ([assignment.guest_dir] if assignment.guest_dir else [])
	programs = {}
	for source in [GUEST_LIBRARY / "pltool.c"] + guest_sources(assignment):
		output = workdir / source.stem
		compile_guest_program(source, output, includes)
		if source.stem in programs:
			raise SetupError(f"{source}: a guest program named {source.stem} already exists")
		programs[source.stem] = output.read_bytes()
	return programs


def base_entries(assignment, programs):
	entries = [directory(name) for name in ("bin", "dev", "etc", "mnt", "proc", "sys",
						 "tmp", "plans")]
	entries.append(("dev/console", stat.S_IFCHR | 0o600, b"", (5, 1)))
	entries.append(regular("init", INIT_SCRIPT.read_bytes()))
	entries.append(regular("bin/busybox", BUSYBOX.read_bytes()))
	entries += [regular(f"bin/{name}", data) for name, data in sorted(programs.items())]
	entries += [regular(f"plans/{plan.name}", plan.read_bytes()) for plan in guest_plans(assignment)]
	return entries


def base_initramfs(assignment, log):
	"""Builds the archive unless it is current; concurrent grades take turns."""
	target = cache_dir() / "initramfs" / f"{assignment.name}.cpio"
	stamp = target.with_suffix(".inputs")
	digest = inputs_digest(assignment)
	with file_lock(target.with_suffix(".lock"), log, f"the {assignment.name} initramfs"):
		if target.exists() and stamp.exists() and stamp.read_text() == digest:
			return target
		log(f"building the {assignment.name} initramfs (busybox + guest programs)")
		workdir = target.with_suffix(".build")
		shutil.rmtree(workdir, ignore_errors=True)
		workdir.mkdir(parents=True)
		programs = guest_programs(assignment, workdir)
		write_file(target, newc_archive(base_entries(assignment, programs)))
		stamp.write_text(digest)
		shutil.rmtree(workdir, ignore_errors=True)
		return target


def run_initramfs(base, key, directory_path, modules):
	archive = directory_path / "initramfs.cpio"
	entries = [directory("etc"), regular("etc/pl.key", key.encode() + b"\n", False)]
	if modules:
		entries += [directory("lib"), directory("lib/modules")]
		entries += [regular(f"lib/modules/{name}", path.read_bytes(), False)
			    for name, path in sorted(modules.items())]
	with open(archive, "wb") as out:
		out.write(base.read_bytes())
		out.write(newc_archive(entries))
	return archive


def swap_image(directory_path, size):
	image = directory_path / "swap.img"
	with open(image, "wb") as out:
		out.truncate(parse_size(size))
	return image


def ext2_image(directory_path, size):
	image = directory_path / "disk.img"
	with open(image, "wb") as out:
		out.truncate(parse_size(size))
	proc = subprocess.run(["mke2fs", "-q", "-F", "-t", "ext2", str(image)],
			      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
	if proc.returncode != 0:
		raise SetupError(f"mke2fs could not make the ext2 disk: {proc.stdout}")
	return image
