"""The experiment harness's check in the kernel suite (autograder/tests/run.py imports it):
the smallest experiment (one workload, the stock and the RRIP reference kernels, one run
each), run through the real command, must leave a table with sane numbers from both
kernels and the simulator's prediction beside each.  Nothing here depends on timing.
"""
import csv
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from harness import check, expect

RUN = Path(__file__).resolve().parent / "run"


def summary(out):
	"""{(metric, kernel): row} of summary.csv."""
	with open(out / "summary.csv", newline="") as handle:
		return {(row["metric"], row["kernel"]): row for row in csv.DictReader(handle)}


def expect_sane(rows, kernel, policy, distinct):
	def value(metric, field="mean"):
		row = rows.get((metric, kernel))
		expect(row is not None and row[field] != "", f"{kernel}: no {field} of {metric}")
		return float(row[field])

	expect(value("wall_s") > 0, f"{kernel}: a wall time of {value('wall_s')} s")
	expect(value("sys_s") > 0, f"{kernel}: no system time, yet the workload read a file")
	# the page cache was dropped: every page of the file is read from the disk at least once
	expect(value("read_pages") >= distinct, f"{kernel}: {value('read_pages'):.0f} pages read"
	       f" from disk, fewer than the {distinct} distinct pages the workload read")
	expect(value("vm.pgscan_file") > 0, f"{kernel}: the file workload never made reclaim scan")
	expect(rows[("read_pages", kernel)]["model_policy"] == policy,
	       f"{kernel}: modelled by {rows[('read_pages', kernel)]['model_policy']!r},"
	       f" not {policy!r}")
	model = value("read_pages", "model_value")
	expect(distinct <= model, f"{kernel}: the model reads {model:.0f} pages, fewer than the"
	       f" {distinct} distinct pages")


@check("an experiment (hotscan, stock vs the rrip reference, one run each) prints a table"
       " with numbers from both kernels and the simulator's prediction beside each")
def smallest_experiment():
	with tempfile.TemporaryDirectory(prefix="pagelab-experiment-") as scratch:
		out = Path(scratch) / "out"
		proc = subprocess.run([sys.executable, str(RUN), "rrip", "--workload", "hotscan",
				       "--runs", "1", "--out", str(out)], stdout=subprocess.PIPE,
				      stderr=subprocess.PIPE, text=True)
		expect(proc.returncode == 0, f"run exited {proc.returncode}:\n{proc.stderr[-3000:]}")
		table = (out / "table.md").read_text()
		expect("| stock (mean ± sd, n=1) | model `linux` | rrip (mean ± sd, n=1) |"
		       " model `linux_rrip` |" in table, "the table lacks a kernel's columns:\n" + table)
		expect(table == proc.stdout.strip() + "\n", "the printed table is not table.md")
		with open(out / "predictions.json") as handle:
			distinct = json.load(handle)["stock"]["distinct"]
		rows = summary(out)
		expect_sane(rows, "stock", "linux", distinct)
		expect_sane(rows, "rrip", "linux_rrip", distinct)
		expect((out / "plot.svg").read_text().count("<rect ") >= 2 * 4,
		       "plot.svg has fewer bars than two kernels times four metrics")
