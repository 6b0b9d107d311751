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
 *     `workerBusy` is the page's Web Workers' task time in ms, apart.
 *   describeTasks(trace) -> "longest 12.3 ms, 0 over 50 ms (4,210 tasks, 1.2 s busy)"
 */

const CATEGORIES = ['toplevel', 'disabled-by-default-devtools.timeline'].join(',');
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
	const ms = outerTasks(events, main);
	if (!main.size || !ms.length)
		throw new Error('the trace has no task of the renderer main thread (did Chromium change its trace names?)');
	return {
		result,
		tasks: ms.length,
		longest: Math.max(...ms),
		over50: ms.filter((d) => d > 50).length,
		busy: ms.reduce((sum, d) => sum + d, 0),
		workerBusy: outerTasks(events, threads('DedicatedWorker thread')).reduce((sum, d) => sum + d, 0),
	};
}

/* The durations in ms of the outermost tasks of `threads` (a task can run a nested loop: its inner tasks are its work). */
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
	return outer.map((t) => (t.end - t.start) / 1000);
}

export function describeTasks(trace) {
	return `longest ${trace.longest.toFixed(1)} ms, ${trace.over50} over 50 ms ` +
		`(${trace.tasks.toLocaleString('en')} tasks, ${(trace.busy / 1000).toFixed(2)} s busy)`;
}
