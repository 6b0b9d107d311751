/*
 * main-thread.mjs - how long the page's main thread was busy without a break
 * while something happened: Chromium's own trace of every task it ran on the
 * renderer's main thread (CDP Tracing, category "toplevel"), not a
 * PerformanceObserver, which only reports tasks of 50 ms and more.
 *
 * Each task has two lengths: its wall time (what a user waits) and its
 * thread CPU time (what the page's code cost).  On a machine shared with
 * other work the two part: a task of 15 ms CPU can take 70 ms of wall time
 * while the thread waits for a core.  A lecturer's laptop has a core to
 * spare, so the CPU time is the figure that holds under load; both are
 * reported.
 *
 * Interface:
 *   traceMainThread(page, action) -> { result, tasks, longest, longestCpu, maxCpu, over50,
 *                                      over50Cpu, busy, cpu, workerBusy, workerCpu,
 *                                      longestParts, windows }
 *     runs `action()` while tracing; `tasks` counts the main thread's tasks,
 *     `longest` is the longest one in ms (wall), `longestCpu` that task's CPU
 *     time, `maxCpu` the most CPU any task took, `over50`/`over50Cpu` how
 *     many took over 50 ms (wall / CPU), `busy`/`cpu` their totals in ms.
 *     The worker's threads are not counted in those (work moved off the main
 *     thread is what they measure); `workerBusy`/`workerCpu` are the page's
 *     Web Workers' task times in ms, apart.  `longestParts` says what the
 *     longest task did (its largest parts, wall and CPU).
 *     `windows` pairs the page's performance marks `<name>:start` and
 *     `<name>:end` (User Timing, in the trace's clock): for each pair in
 *     order, { wall, mainCpu, workerCpu } in ms, the CPU the main thread and
 *     the workers spent inside it (a task reaching over an edge counts by
 *     the share of its wall time inside).
 *   describeTasks(trace) -> "longest 72.1 ms wall, 16.4 ms CPU (parts), most CPU in a task 20.3 ms, ..."
 */

const CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'].join(',');
const TASK_NAMES = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);

export async function traceMainThread(page, action) {
	const cdp = await page.context().newCDPSession(page);
	const events = [];
	cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
	await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
	let result;
	try {
		result = await action();
	} finally {
		const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
		await cdp.send('Tracing.end');
		await complete;
		await cdp.detach();
	}
	const threads = (name) =>
		new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === name).map((e) => `${e.pid}:${e.tid}`));
	const main = threads('CrRendererMain');
	const outer = outerTasks(events, main);
	const workerTasks = outerTasks(events, threads('DedicatedWorker thread'));
	if (!main.size || !outer.length)
		throw new Error('the trace has no task of the renderer main thread (did Chromium change its trace names?)');
	const wall = (t) => (t.end - t.start) / 1000;
	const longestTask = outer.reduce((a, b) => (wall(b) > wall(a) ? b : a));
	const sum = (tasks, f) => tasks.reduce((total, t) => total + f(t), 0);
	return {
		result,
		tasks: outer.length,
		longest: wall(longestTask),
		longestCpu: longestTask.cpu / 1000,
		maxCpu: Math.max(...outer.map((t) => t.cpu / 1000)),
		over50: outer.filter((t) => wall(t) > 50).length,
		over50Cpu: outer.filter((t) => t.cpu > 50_000).length,
		busy: sum(outer, wall),
		cpu: sum(outer, (t) => t.cpu / 1000),
		workerBusy: sum(workerTasks, wall),
		workerCpu: sum(workerTasks, (t) => t.cpu / 1000),
		longestParts: partsOf(events, longestTask),
		windows: markedWindows(events, outer, workerTasks),
	};
}

/* What an event is, for a reader: a script call by its function and place, anything else by Chromium's name. */
function eventLabel(e) {
	const data = e.args?.data;
	if (e.name === 'FunctionCall' && data?.url)
		return `script ${data.functionName || '(anonymous)'} ${data.url.split('/').pop()}:${data.lineNumber}`;
	if (e.name === 'EventDispatch' && data?.type) return `event ${data.type}`;
	if (e.name === 'TimerFire') return 'timer';
	return e.name;
}

/*
 * The largest parts of `task` by label: the events on its thread directly
 * inside it, each taken down to the one event inside it that covers 90% of
 * it (a message handler is labelled by the script it ran).
 */
function partsOf(events, task) {
	const inside = events
		.filter((e) => e.ph === 'X' && !TASK_NAMES.has(e.name) && `${e.pid}:${e.tid}` === task.thread && e.ts >= task.start && e.ts + (e.dur ?? 0) <= task.end)
		.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
	const end = (e) => e.ts + (e.dur ?? 0);
	const totals = new Map();
	for (let i = 0; i < inside.length; ) {
		let part = inside[i];
		let j = i + 1;
		/* Descend while the next event nested in the part covers nearly all of it. */
		while (j < inside.length && end(inside[j]) <= end(part) && (inside[j].dur ?? 0) >= 0.9 * (part.dur ?? 0)) part = inside[j++];
		const label = eventLabel(part);
		const total = totals.get(label) ?? { wall: 0, cpu: 0 };
		total.wall += (part.dur ?? 0) / 1000;
		total.cpu += (part.tdur ?? 0) / 1000;
		totals.set(label, total);
		const partEnd = end(inside[i]);
		while (i < inside.length && inside[i].ts < partEnd) i++;
	}
	return [...totals.entries()]
		.sort((a, b) => b[1].wall - a[1].wall)
		.slice(0, 3)
		.map(([label, { wall, cpu }]) => `${label} ${wall.toFixed(1)} ms / ${cpu.toFixed(1)} CPU`)
		.join(', ');
}

/* The outermost tasks of `threads` ({start, end} in µs, cpu in µs, thread): a task can run a nested loop, its inner tasks are its work. */
function outerTasks(events, threads) {
	const tasks = events
		.filter((e) => e.ph === 'X' && TASK_NAMES.has(e.name) && threads.has(`${e.pid}:${e.tid}`))
		.map((e) => ({ start: e.ts, end: e.ts + (e.dur ?? 0), cpu: e.tdur ?? e.dur ?? 0, thread: `${e.pid}:${e.tid}` }))
		.sort((a, b) => a.start - b.start);
	const outer = [];
	const last = new Map();
	for (const task of tasks)
		if (!last.has(task.thread) || task.start >= last.get(task.thread).end) {
			outer.push(task);
			last.set(task.thread, task);
		}
	return outer;
}

/* CPU (ms) of `tasks` inside [from, to] (µs), each task counted by the share of its wall time inside. */
function cpuWithin(tasks, from, to) {
	let total = 0;
	for (const t of tasks) {
		const inside = Math.min(t.end, to) - Math.max(t.start, from);
		if (inside > 0) total += (t.cpu * inside) / Math.max(1, t.end - t.start);
	}
	return total / 1000;
}

/* Every `<name>:start` .. `<name>:end` pair of performance marks, in order. */
function markedWindows(events, mainTasks, workerTasks) {
	const marks = events.filter((e) => e.cat?.includes('blink.user_timing') && /:(start|end)$/.test(e.name)).sort((a, b) => a.ts - b.ts);
	const open = new Map();
	const windows = [];
	for (const mark of marks) {
		const [name, edge] = [mark.name.slice(0, mark.name.lastIndexOf(':')), mark.name.slice(mark.name.lastIndexOf(':') + 1)];
		if (edge === 'start') open.set(name, mark.ts);
		else if (open.has(name)) {
			const from = open.get(name);
			open.delete(name);
			windows.push({ name, wall: (mark.ts - from) / 1000, mainCpu: cpuWithin(mainTasks, from, mark.ts), workerCpu: cpuWithin(workerTasks, from, mark.ts) });
		}
	}
	return windows;
}

export function describeTasks(trace) {
	return `longest ${trace.longest.toFixed(1)} ms wall, ${trace.longestCpu.toFixed(1)} ms CPU (${trace.longestParts || 'no traced part'}); ` +
		`most CPU in one task ${trace.maxCpu.toFixed(1)} ms; over 50 ms: ${trace.over50} wall, ${trace.over50Cpu} CPU ` +
		`(${trace.tasks.toLocaleString('en')} tasks, ${(trace.busy / 1000).toFixed(2)} s busy, ${(trace.cpu / 1000).toFixed(2)} s CPU)`;
}
