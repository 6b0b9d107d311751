"""pagelab's prediction for a workload the guest ran: the same references, simulated.

Interface:
    trace(setup) -> [str]           the workload's page references, one per line, from
                                    guest/exp_workload.c compiled for the host and run with
                                    --trace (the same code that touched the guest's pages)
    predict(setup, policy, frames, period=None) -> Prediction
        `pagelab run --json` of POLICY at FRAMES frames over that trace (anonymous pages,
        or mapped file pages for a file workload); PERIOD: counter_clock's tick, in
        references (the guest's references per second)
    Prediction: .policy, .frames, .references, .distinct, .misses, .disk_reads,
        .counters {name: int} (the simulator's vmstat-named counters), .params

What compares with the pages the guest read from its disks (pgpgin / 4): for a file
workload every miss (the page cache was dropped, POSIX_FADV_RANDOM turns readahead off);
for anonymous memory only a refault, misses minus distinct pages (the first touch of a
page is a zero-fill, and page-cluster 0 turns swap readahead off), which are also the
major faults and pswpin.
"""
import hashlib
import json
import subprocess

from experiment import EXPERIMENTS_DIR, ExperimentError, KERNEL_ASSIGNMENTS
from kbuild import COMMON_DIR, cache_dir, file_lock

REPO = KERNEL_ASSIGNMENTS.parent
PAGELAB = REPO / "wasm-core" / "build" / "pagelab"
WORKLOAD_SOURCE = EXPERIMENTS_DIR / "guest" / "exp_workload.c"
PLTEST = COMMON_DIR / "guest" / "pltest.c"


class Prediction:
	def __init__(self, policy, frames, params, references, distinct, summary, is_file):
		self.policy = policy
		self.frames = frames
		self.params = params
		self.references = references
		self.distinct = distinct
		self.misses = summary["misses"]
		self.disk_reads = self.misses if is_file else self.misses - distinct
		self.counters = summary.get("counters", {})


def host_workload_program():
	"""exp_workload built for the host, cached by the digest of its sources."""
	digest = hashlib.sha256(WORKLOAD_SOURCE.read_bytes() + PLTEST.read_bytes()).hexdigest()
	program = cache_dir() / "experiments" / f"exp_workload-{digest[:16]}"
	with file_lock(program.with_suffix(".lock"), print, "the host workload program"):
		if not program.exists():
			proc = subprocess.run(["gcc", "-O2", f"-I{COMMON_DIR / 'guest'}",
					       str(WORKLOAD_SOURCE), str(PLTEST), "-o", str(program)],
					      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
			if proc.returncode != 0:
				raise ExperimentError(f"{WORKLOAD_SOURCE} does not compile for the host:\n"
						      + proc.stdout)
	return program


def trace(setup):
	proc = subprocess.run([str(host_workload_program()), "--trace", setup.workload.name,
			       str(setup.pages), str(setup.passes), str(setup.seed)],
			      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
	if proc.returncode != 0:
		raise ExperimentError(f"exp_workload --trace {setup.workload.name}: {proc.stderr}")
	return proc.stdout.splitlines()


def pagelab():
	"""The simulator's CLI, built with `make -C wasm-core` when it is not there yet."""
	if not PAGELAB.exists():
		proc = subprocess.run(["make", "-C", str(REPO / "wasm-core"), "-s", "build/pagelab"],
				      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
		if proc.returncode != 0 or not PAGELAB.exists():
			raise ExperimentError(f"could not build {PAGELAB}:\n{proc.stdout[-2000:]}")
	return PAGELAB


def predict(setup, policy, frames, period=None, references=None):
	"""REFERENCES: the trace when the caller already has it (it is the same per setup)."""
	lines = references if references is not None else trace(setup)
	params = {"anon_percent": 0, "file_access": "syscall"} if setup.workload.file \
		else {"anon_percent": 100}
	if policy == "counter_clock" and period:
		params["period"] = max(1, int(period))
	command = [str(pagelab()), "run", "--policy", policy, "--frames", str(max(1, frames)),
		   "--trace", "-", "--json"]
	for name, value in params.items():
		command += ["--param", f"{name}={value}"]
	proc = subprocess.run(command, input="\n".join(lines) + "\n", stdout=subprocess.PIPE,
			      stderr=subprocess.PIPE, text=True)
	if proc.returncode != 0:
		raise ExperimentError(f"{' '.join(command)}: {proc.stderr.strip()}")
	distinct = len({line.rstrip("w") for line in lines})
	return Prediction(policy, frames, params, len(lines), distinct, json.loads(proc.stdout),
			  setup.workload.file)
