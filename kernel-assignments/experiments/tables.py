"""The experiment's table: mean ± sd per kernel, the simulator's prediction beside each.

Interface:
    Column(kernel, runs, prediction)    one kernel: its runs ([{metric: number}]) and the
                                        simulator's Prediction for it (or None)
    markdown(columns, heading) -> str   the table as Markdown (also what ./run prints)
    write_csv(columns, path_runs, path_summary)
        runs.csv: one row per boot (kernel, run, every metric);
        summary.csv: metric, kernel, n, mean, sd, model policy, model value
    svg(columns, title) -> str          one small bar chart per key metric: the means, ±1 sd
                                        whiskers, the model's value as a black tick

Rows: ROWS, in order; a metric no run reported (a counter this kernel lacks) is left out.
sd is the sample standard deviation (n - 1); with one run it is not defined and shows "—".
"""
import csv
import statistics
from html import escape

# (metric, what it is); metrics are named as the guest reports them (exp_workload.c)
ROWS = [
	("wall_s", "wall time, s"),
	("sys_s", "system time, s"),
	("user_s", "user time, s"),
	("read_pages", "pages read from disk (pgpgin/4)"),
	("majflt", "major faults (rusage)"),
	("minflt", "minor faults (rusage)"),
	("vm.pgpgin", "pgpgin, KiB"),
	("vm.pgmajfault", "pgmajfault"),
	("vm.pswpin", "pswpin"),
	("vm.pswpout", "pswpout"),
	("vm.pgactivate", "pgactivate"),
	("vm.pgdeactivate", "pgdeactivate"),
	("vm.pgrefill", "pgrefill"),
	("vm.pgscan_kswapd", "pgscan_kswapd"),
	("vm.pgscan_direct", "pgscan_direct"),
	("vm.pgscan_anon", "pgscan_anon"),
	("vm.pgscan_file", "pgscan_file"),
	("vm.pgsteal_kswapd", "pgsteal_kswapd"),
	("vm.pgsteal_direct", "pgsteal_direct"),
	("vm.pgsteal_anon", "pgsteal_anon"),
	("vm.pgsteal_file", "pgsteal_file"),
	("vm.workingset_refault_anon", "workingset_refault_anon"),
	("vm.workingset_refault_file", "workingset_refault_file"),
	("avail_pages", "MemAvailable before, pages"),
]
PLOTTED = ["wall_s", "sys_s", "read_pages", "majflt", "vm.pswpout", "vm.pgactivate",
	   "vm.pgdeactivate", "vm.pgscan_file"]
# the simulator's counters that count the same events as the kernel's of the same name
SAME_NAME = {"vm.pgactivate", "vm.pgdeactivate", "vm.pgrefill", "vm.pgscan_anon",
	     "vm.pgscan_file", "vm.pgsteal_anon", "vm.pgsteal_file"}
STOCK_COLOUR, PATCHED_COLOUR = "#0072B2", "#D55E00"  # Okabe-Ito blue and vermilion


class Column:
	def __init__(self, kernel, runs, prediction):
		self.kernel = kernel
		self.runs = runs
		self.prediction = prediction

	def values(self, metric):
		return [run[metric] for run in self.runs if metric in run]

	def mean(self, metric):
		values = self.values(metric)
		return statistics.mean(values) if values else None

	def sd(self, metric):
		values = self.values(metric)
		return statistics.stdev(values) if len(values) > 1 else None


def model_value(prediction, metric):
	"""The simulator's figure for METRIC, or None where it has none."""
	if prediction is None:
		return None
	if metric == "read_pages":
		return prediction.disk_reads
	if metric in SAME_NAME:
		return prediction.counters.get(metric[3:])
	if prediction.params.get("anon_percent") == 100:
		if metric in ("majflt", "vm.pgmajfault", "vm.pswpin"):
			return prediction.disk_reads
		if metric == "vm.pswpout":  # every page was written: each eviction a swap-out
			return prediction.counters.get("pgsteal_anon")
	return None


def number(value, seconds):
	if value is None:
		return "—"
	return f"{value:.2f}" if seconds else f"{value:,.0f}"


def mean_sd(column, metric):
	seconds = metric.endswith("_s")
	mean = column.mean(metric)
	if mean is None:
		return "—"
	sd = column.sd(metric)
	return number(mean, seconds) + " ± " + (number(sd, seconds) if sd is not None else "—")


def shown_rows(columns):
	return [(metric, label) for metric, label in ROWS
		if any(column.values(metric) for column in columns)]


def markdown(columns, heading):
	header = ["measure"]
	for column in columns:
		header.append(f"{column.kernel.label} (mean ± sd, n={len(column.runs)})")
		if column.prediction:
			header.append(f"model `{column.prediction.policy}`")
	if len(columns) == 2:
		header.append(f"{columns[1].kernel.label} / {columns[0].kernel.label}")
	lines = list(heading) + ["", "| " + " | ".join(header) + " |",
				 "|" + "---|" + "---:|" * (len(header) - 1)]
	for metric, label in shown_rows(columns):
		cells = [label]
		for column in columns:
			cells.append(mean_sd(column, metric))
			if column.prediction:
				cells.append(number(model_value(column.prediction, metric), False)
					     if model_value(column.prediction, metric) is not None else "")
		if len(columns) == 2:
			first, second = columns[0].mean(metric), columns[1].mean(metric)
			cells.append(f"×{second / first:.2f}" if first and second is not None else "")
		lines.append("| " + " | ".join(cells) + " |")
	return "\n".join(lines) + "\n"


def write_csv(columns, path_runs, path_summary):
	metrics = [metric for metric, _ in shown_rows(columns)]
	with open(path_runs, "w", newline="") as out:
		writer = csv.writer(out)
		writer.writerow(["kernel", "run"] + metrics)
		for column in columns:
			for index, run in enumerate(column.runs, 1):
				writer.writerow([column.kernel.label, index] + [run.get(m, "") for m in metrics])
	with open(path_summary, "w", newline="") as out:
		writer = csv.writer(out)
		writer.writerow(["metric", "kernel", "n", "mean", "sd", "model_policy", "model_value"])
		for metric in metrics:
			for column in columns:
				model = model_value(column.prediction, metric)
				sd = column.sd(metric)
				writer.writerow([metric, column.kernel.label, len(column.values(metric)),
						 column.mean(metric), "" if sd is None else sd,
						 column.prediction.policy if column.prediction else "",
						 "" if model is None else model])


def svg_panel(columns, metric, x, y, width, height):
	"""One metric: a bar per kernel (mean), a whisker of ±1 sd, the model as a tick."""
	colours = [STOCK_COLOUR, PATCHED_COLOUR]
	tops = []
	for column in columns:
		mean, sd = column.mean(metric) or 0, column.sd(metric) or 0
		model = model_value(column.prediction, metric)
		tops += [mean + sd, model or 0]
	top = max(tops) or 1
	plot_top, plot_bottom = y + 38, y + height - 22
	scale = (plot_bottom - plot_top) / top
	parts = [f'<text x="{x + width / 2}" y="{y + 14}" text-anchor="middle" font-size="12">'
		 f'{dict(ROWS)[metric]}</text>',
		 f'<line x1="{x + 10}" y1="{plot_bottom}" x2="{x + width - 10}" y2="{plot_bottom}"'
		 ' stroke="#555"/>']
	bar = (width - 40) / len(columns)
	for index, column in enumerate(columns):
		left = x + 20 + index * bar + bar * 0.15
		middle = left + bar * 0.35
		mean, sd = column.mean(metric), column.sd(metric)
		if mean is not None:
			parts.append(f'<rect x="{left:.1f}" y="{plot_bottom - mean * scale:.1f}"'
				     f' width="{bar * 0.7:.1f}" height="{mean * scale:.1f}"'
				     f' fill="{colours[index % 2]}"><title>{escape(column.kernel.label)}:'
				     f' {mean_sd(column, metric)}</title></rect>')
			parts.append(f'<text x="{middle:.1f}" y="{plot_bottom + 14}" text-anchor="middle"'
				     f' font-size="11">{escape(column.kernel.label)}</text>')
			parts.append(f'<text x="{middle:.1f}" y="{plot_bottom - mean * scale - 4:.1f}"'
				     f' text-anchor="middle" font-size="10" fill="#fff" stroke="#fff"'
				     f' stroke-width="3">{number(mean, metric.endswith("_s"))}</text>'
				     f'<text x="{middle:.1f}" y="{plot_bottom - mean * scale - 4:.1f}"'
				     f' text-anchor="middle" font-size="10">'
				     f'{number(mean, metric.endswith("_s"))}</text>')
		if mean is not None and sd:
			parts.append(f'<line x1="{middle:.1f}" x2="{middle:.1f}"'
				     f' y1="{plot_bottom - (mean - sd) * scale:.1f}"'
				     f' y2="{plot_bottom - (mean + sd) * scale:.1f}" stroke="#000"/>')
		model = model_value(column.prediction, metric)
		if model is not None:
			level = plot_bottom - model * scale
			parts.append(f'<line x1="{left - 4:.1f}" x2="{left + bar * 0.7 + 4:.1f}"'
				     f' y1="{level:.1f}" y2="{level:.1f}" stroke="#000" stroke-width="3">'
				     f'<title>model {column.prediction.policy}: {model:,.0f}</title></line>')
	return parts


def plotted_metrics(columns):
	"""PLOTTED, less the metrics that are zero (or absent) everywhere, the model included."""
	return [metric for metric in PLOTTED
		if any(column.mean(metric) or model_value(column.prediction, metric)
		       for column in columns)]


def svg(columns, title):
	plotted = plotted_metrics(columns)
	width, height, per_row = 230, 180, 4
	rows = (len(plotted) + per_row - 1) // per_row
	total_width, total_height = per_row * width, rows * height + 50
	parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_width}"'
		 f' height="{total_height}" font-family="sans-serif">',
		 f'<rect width="{total_width}" height="{total_height}" fill="#fff"/>',
		 f'<text x="10" y="20" font-size="15">{escape(title)}</text>',
		 f'<text x="10" y="40" font-size="12">bars: mean of the runs; whiskers: ±1 sd;'
		 ' black tick: the simulator\'s prediction</text>']
	for index, metric in enumerate(plotted):
		parts += svg_panel(columns, metric, (index % per_row) * width,
				   50 + (index // per_row) * height, width, height)
	return "\n".join(parts + ["</svg>"]) + "\n"
