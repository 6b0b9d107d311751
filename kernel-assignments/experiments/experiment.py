"""The experiment harness's kernels, workloads and boots (the engine behind ./run).

Interface:
    WORKLOADS {name: Workload}       what each guest workload is, sized from guest memory
    stock_kernel(log) -> Kernel      the shared base layer's kernel: pristine Linux 6.1 +
                                     common/base.patch (inert: reserved system call numbers
                                     that return -ENOSYS, declarations), built once for every
                                     assignment by the grader's kbuild
    patched_kernel(assignment, submission, log) -> Kernel
                                     ASSIGNMENT's layer + SUBMISSION (a directory or a patch,
                                     read by the grader's intake), built in the grader's
                                     sandbox; the image (and modules) kept in the cache
                                     under a digest of the layer and the files, so a second
                                     experiment with the same submission boots at once
    measure(kernel, setup, index, workdir, log) -> {metric: number}
                                     one boot running one run of the workload; raises
                                     ExperimentError unless the guest finished and reported
    Setup(workload, memory)          the sizes one experiment uses (pages, passes, swap, disk)

Invariants: both kernels boot the same initramfs (autograder/initramfs.py with this
directory's guest/ as the guest programs) and the same /etc/experiment, so the only
difference between the two columns of the table is the kernel.  Results come back as the
grader's signed pl_value lines (common/guest/pltest.h), verified with the run's key.
"""
import hashlib
import shutil
import sys
import types
from pathlib import Path

EXPERIMENTS_DIR = Path(__file__).resolve().parent
KERNEL_ASSIGNMENTS = EXPERIMENTS_DIR.parent
sys.path.insert(0, str(KERNEL_ASSIGNMENTS / "autograder"))

import initramfs  # noqa: E402
import kbuild  # noqa: E402
import qemu  # noqa: E402
import results  # noqa: E402
import sandbox  # noqa: E402
import submission as submissions  # noqa: E402
from assignment import DescriptorError, load_assignment  # noqa: E402,F401 (run catches it)

PAGE_SIZE = 4096
GUEST = types.SimpleNamespace(name="experiments", guest_dir=EXPERIMENTS_DIR / "guest")
PLAN = "experiment"
# The simulator's policy that models each assignment's kernel (pagelab list).
POLICY_OF = {"rrip": "linux_rrip", "counter-clock": "counter_clock", "memstat": "linux",
	     "selftest": "linux"}


class ExperimentError(Exception):
	"""The experiment could not be run; the message says which input or boot failed."""


class Workload:
	"""SIZE: the workload's region as a fraction of guest memory; FILE: a file on the
	ext2 disk instead of anonymous memory (then every miss reads the disk, otherwise
	only a refault does: a first touch of anonymous memory is a zero-fill)."""

	def __init__(self, name, size, passes, file, summary):
		self.name = name
		self.size = size
		self.passes = passes
		self.file = file
		self.summary = summary


WORKLOADS = {workload.name: workload for workload in [
	Workload("hotscan", 1.0, 4, True, "a file's hot set (memory/2) read at random,"
		 " a one-time scan of memory/3 new pages after every memory reads, 4 times"
		 " (RRIP's case)"),
	Workload("seq", 1.5, 3, False, "seed 001 Seq: 3 passes writing every page in order"),
	Workload("halfseq", 1.5, 3, False, "seed 001 Half Seq: 6 passes over the first half"),
	Workload("rand", 1.5, 3, False, "seed 001 Rand: 3 passes of random writes over all"),
	Workload("halfrand", 1.5, 3, False, "seed 001 Half Rand: random writes over the first"
		 " half"),
	Workload("stress", 1.5, 2, False, "seed 003 stress -m 3: three workers' fresh blocks,"
		 " written in turns, and a small system set"),
]}


class Setup:
	"""The sizes of one experiment: the same for both kernels and every run."""

	def __init__(self, workload, memory, seed=1, limit=600):
		self.workload = workload
		self.memory = memory
		self.memory_pages = initramfs.parse_size(memory) // PAGE_SIZE
		self.pages = max(16, int(self.memory_pages * workload.size))
		self.passes = workload.passes
		self.seed = seed
		self.limit = limit
		self.swap = f"{2 * initramfs.parse_size(memory) >> 20}M"
		# the file workload's file: the hot set and one new part per pass (exp_workload.c)
		self.disk = f"{(self.pages * (1 + self.passes) * PAGE_SIZE // 2 >> 20) + 16}M" \
			if workload.file else None

	def guest_settings(self):
		return (f"WORKLOAD={self.workload.name}\nPAGES={self.pages}\nPASSES={self.passes}\n"
			f"SEED={self.seed}\nLIMIT={self.limit}\n")


class Kernel:
	def __init__(self, label, image, modules, policy, description):
		self.label = label
		self.image = image
		self.modules = modules
		self.policy = policy
		self.description = description


def stock_kernel(log):
	base = kbuild.base_layer(log)
	version = kbuild.kernel_version(kbuild.pristine_tree(log))
	return Kernel("stock", kbuild.through_layers(base.stack, kbuild.IMAGE), {}, "linux",
		      f"Linux {version} + common/base.patch (the shared base layer; inert)")


def default_submission(assignment_name):
	"""instructor/<name>/reference: its submission.patch, or the directory itself."""
	reference = KERNEL_ASSIGNMENTS / "instructor" / assignment_name / "reference"
	if not reference.is_dir():
		raise ExperimentError(f"no instructor reference for {assignment_name!r} here"
				      f" ({reference}): name a SUBMISSION")
	patch = reference / "submission.patch"
	return patch if patch.exists() else reference


def patched_kernel(assignment_name, submission_path, log):
	assignment = load_assignment(assignment_name)
	if not sandbox.is_disabled() and sandbox.available():
		raise ExperimentError(f"no sandbox can be made here ({sandbox.available()}): a"
				      " submission is only built in the grader's sandbox")
	tree = kbuild.AssignmentTree(assignment, log)
	tree.prepare()
	collected = submissions.collect(Path(submission_path), assignment, tree.start_version)
	if collected.problem:
		raise ExperimentError(collected.problem)
	digest = hashlib.sha256(tree.layer.directory.name.encode())
	for path, data in sorted(collected.contents.items()):
		digest.update(path.encode() + b"\0" + data + b"\0")
	kept = kbuild.cache_dir() / "experiments" / "kernels" / \
		f"{assignment.name}-{digest.hexdigest()[:16]}"
	with kbuild.file_lock(kept.with_name(kept.name + ".lock"), log, f"{kept.name}"):
		if not (kept / "complete").exists():
			build_into(kept, tree, collected.contents, submission_path, log)
	modules = {path.name: path for path in sorted((kept / "modules").glob("*.ko"))}
	return Kernel(assignment.name, kept / "bzImage", modules,
		      POLICY_OF.get(assignment.name, "linux"),
		      f"the {assignment.name} layer + {submission_path}")


def build_into(kept, tree, contents, submission_path, log):
	shutil.rmtree(kept, ignore_errors=True)
	(kept / "modules").mkdir(parents=True)
	with kbuild.SubmissionBuild(tree, log) as build:
		build.overlay(contents)
		log(f"building {submission_path} (incremental, in the sandbox)")
		built = build.build()
		if not built.ok:
			raise ExperimentError(f"{submission_path} does not compile:\n"
					      + "\n".join(built.compiler_lines))
		shutil.copy(built.image, kept / "bzImage")
		for name, path in built.modules.items():
			shutil.copy(path, kept / "modules" / name)
	(kept / "complete").write_text(f"{submission_path}\n")


def guest_initramfs(kernel, setup, directory, log):
	"""The experiment's programs + this boot's key, modules and /etc/experiment."""
	base = initramfs.base_initramfs(GUEST, log)
	key = results.new_key()
	archive = initramfs.run_initramfs(base, key, directory, kernel.modules)
	with open(archive, "ab") as out:
		out.write(initramfs.newc_archive([
			initramfs.directory("etc"),
			initramfs.regular("etc/experiment", setup.guest_settings().encode(), False)]))
	return archive, key


def measure(kernel, setup, index, workdir, log):
	directory = workdir / f"{kernel.label}-{index}"
	shutil.rmtree(directory, ignore_errors=True)
	directory.mkdir(parents=True)
	try:
		ramdisk, key = guest_initramfs(kernel, setup, directory, log)
		drives = [("swap", initramfs.swap_image(directory, setup.swap))]
		if setup.disk:
			drives.append(("disk", initramfs.ext2_image(directory, setup.disk)))
		log(f"{kernel.label}, run {index + 1}: booting ({setup.memory} memory,"
		    f" {setup.swap} swap)")
		outcome = qemu.boot(kernel.image, ramdisk, PLAN, setup.memory, setup.limit + 120,
				    directory, drives, log=log)
		console = directory / f"console-{PLAN}.log"
		if console.exists():
			shutil.copy(console, workdir / f"console-{kernel.label}-{index + 1}.log")
	finally:
		kbuild.remove_tree(directory)
	if outcome.status != "finished":
		raise ExperimentError(f"{kernel.label}, run {index + 1}: the boot ended '{outcome.status}'"
				      f" after {outcome.seconds:.0f} s:\n{outcome.problem}")
	verified = results.verify(outcome.results, outcome.console, key)
	passed, message = verified.results.get("exp.workload", (False, "no result"))
	if not passed:
		raise ExperimentError(f"{kernel.label}, run {index + 1}: {message}; the console"
				      " ended:\n" + qemu.last_lines(outcome.console))
	shown = metrics({name: value for (ident, name), value in verified.values.items()
			 if ident == "exp"})
	log(f"{kernel.label}, run {index + 1}: {shown.get('read_pages')} pages read from disk,"
	    f" {shown.get('majflt')} major faults, {shown.get('wall_s', 0):.1f} s"
	    f" (boot {outcome.seconds:.0f} s)")
	return shown


def metrics(values):
	"""The guest's values in the table's units: seconds for times, counts otherwise;
	read_pages: the pages read from any disk (pgpgin counts KiB)."""
	shown = {"read_pages": values["vm.pgpgin"] * 1024 // PAGE_SIZE} if "vm.pgpgin" in values \
		else {}
	for name, value in values.items():
		if name.endswith("_us"):
			shown[name[:-3] + "_s"] = value / 1e6
		else:
			shown[name] = value
	return shown
