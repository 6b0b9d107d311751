"""Writes a grading Report two ways: Gradescope's results.json and a text report for people.

Interface:
    gradescope_json(report) -> dict    score, output, tests[name, score, max_score, output,
                                        visibility, status]; hidden tests "after_published"
    text_report(report) -> str         one line per test, failures with their explanation

Invariants: both views show the same entries with the same scores; the text report starts
with the score so a TA scanning hundreds of them sees it first.  Every string is printable
(safetext); in the text report every line of text a submission can influence (test
output, kernel lines in the notes) starts with "|", so nothing the student's kernel prints
or names can pass for a line of the report's own.
"""
import textwrap

import safetext

OUTPUT_INDENT = "        | "
OUTPUT_LINES_SHOWN = 25


def entry_status(entry):
	if entry.points == 0:
		return "info"
	if entry.score >= entry.points:
		return "passed"
	return "partial" if entry.score > 0 else "failed"


def gradescope_json(report):
	return safetext.clean({
		"score": report.score(),
		"output": "\n".join(report.notes + [f"GRADER ERROR: {e}" for e in report.grader_errors]),
		"visibility": "visible",
		"stdout_visibility": "hidden",
		"tests": [{
			"name": entry.title,
			"score": entry.score,
			"max_score": entry.points,
			"status": "passed" if entry_status(entry) in ("passed", "info") else "failed",
			"output": entry.output,
			"visibility": "after_published" if entry.hidden else "visible",
		} for entry in report.entries],
	})


def indented(text):
	lines = safetext.printable(text).splitlines()
	if len(lines) > OUTPUT_LINES_SHOWN:
		lines = lines[:OUTPUT_LINES_SHOWN] + [f"... ({len(lines) - OUTPUT_LINES_SHOWN} more"
						      " lines in results.json)"]
	return textwrap.indent("\n".join(lines), OUTPUT_INDENT)


def format_points(value):
	return f"{value:g}"


def entry_lines(entry):
	status = entry_status(entry)
	if status == "info":
		first, _, rest = entry.output.partition("\n")
		return [f"  {entry.title}: {safetext.name(first)}"] + ([indented(rest)] if rest else [])
	label = {"passed": "PASS", "partial": "PART", "failed": "FAIL"}[status]
	points = f"{format_points(entry.score)}/{format_points(entry.points)}"
	hidden = " (hidden)" if entry.hidden else ""
	lines = [f"  {label} {points:>7}  {entry.title}{hidden}"]
	if entry.output and status != "passed":
		lines.append(indented(entry.output))
	return lines


def text_report(report):
	functional = [e for e in report.entries if e.functional and e.points > 0]
	lines = [f"{report.assignment.name}: {format_points(report.score())}/"
		 f"{format_points(report.max_score())} points"
		 f" ({format_points(sum(e.score for e in functional))}/"
		 f"{format_points(sum(e.points for e in functional))} functional)"
		 f" — {safetext.name(str(report.submission_path))}"]
	for entry in report.entries:
		lines += entry_lines(entry)
	for note in report.notes:
		first, _, rest = note.partition("\n")
		lines += [safetext.name(first)] + ([indented(textwrap.dedent(rest))] if rest else [])
	lines += [f"GRADER ERROR: {error}" for error in report.grader_errors]
	return "\n".join(lines) + "\n"
