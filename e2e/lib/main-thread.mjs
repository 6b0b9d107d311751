/*
 * main-thread.mjs - how long the page's main thread was busy without a break
 * while something happened: Chromium's own trace of every task it ran on the
 * renderer's main thread (CDP Tracing, category "toplevel"), not a
 * PerformanceObserver, which only reports tasks of 50 ms and more.
 *
 * Interface:
 *   traceMainThread(page, action) -> { result, tasks, longest, over50, busy, workerBusy }
 *     runs `action()` while tracing; `tasks` counts the main thread's tasks,
 *     `longest` is the longest one in ms, `over50` how many took over 50 ms,
 *     `busy` their total in ms.  The worker's threads are not counted in
 *     those (work moved off the main thread is what they measure);
 *     `workerBusy` is the page's Web Workers' task time in ms, apart;
 *     `longestParts` says what the longest task did (its largest parts).
 *   describeTasks(trace) -> "longest 12.3 ms, 0 over 50 ms (4,210 tasks, 1.2 s busy)"
 */

const CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline'].join(',');
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
	const ms = outer.map((t) => (t.end - t.start) / 1000);
	if (!main.size || !ms.length)
		throw new Error('the trace has no task of the renderer main thread (did Chromium change its trace names?)');
	return {
		result,
		tasks: ms.length,
		longest: Math.max(...ms),
		over50: ms.filter((d) => d > 50).length,
		busy: ms.reduce((sum, d) => sum + d, 0),
		workerBusy: outerTasks(events, threads('DedicatedWorker thread')).reduce((sum, t) => sum + (t.end - t.start) / 1000, 0),
		longestParts: partsOf(events, outer[ms.indexOf(Math.max(...ms))]),
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
		totals.set(label, (totals.get(label) ?? 0) + (part.dur ?? 0) / 1000);
		const partEnd = end(inside[i]);
		while (i < inside.length && inside[i].ts < partEnd) i++;
	}
	return [...totals.entries()]
		.sort((a, b) => b[1] - a[1])
		.slice(0, 3)
		.map(([label, ms]) => `${label} ${ms.toFixed(1)} ms`)
		.join(', ');
}

/* The outermost tasks of `threads` ({start, end} in µs, thread): a task can run a nested loop, its inner tasks are its work. */
function outerTasks(events, threads) {
	const tasks = events
		.filter((e) => e.ph === 'X' && TASK_NAMES.has(e.name) && threads.has(`${e.pid}:${e.tid}`))
		.map((e) => ({ start: e.ts, end: e.ts + (e.dur ?? 0), thread: `${e.pid}:${e.tid}` }))
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

export function describeTasks(trace) {
	return `longest ${trace.longest.toFixed(1)} ms (${trace.longestParts || 'no traced part'}), ${trace.over50} over 50 ms ` +
		`(${trace.tasks.toLocaleString('en')} tasks, ${(trace.busy / 1000).toFixed(2)} s busy)`;
}
