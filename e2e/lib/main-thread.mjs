/*
 * main-thread.mjs - how long the page's main thread was busy without a break
 * while something happened: Chromium's own trace of every task it ran on the
 * renderer's main thread (CDP Tracing, category "toplevel"), not a
 * PerformanceObserver, which only reports tasks of 50 ms and more.
 *
 * Interface:
 *   traceMainThread(page, action) -> { result, tasks, longest, over50, busy }
 *     runs `action()` while tracing; `tasks` counts the main thread's tasks,
 *     `longest` is the longest one in ms, `over50` how many took over 50 ms,
 *     `busy` their total in ms.  The worker's threads are not counted: work
 *     moved off the main thread is what this measures.
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
	const main = new Set(
		events
			.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
			.map((e) => `${e.pid}:${e.tid}`),
	);
	/* Tasks nest (a task can run a nested loop); the outermost ones are the main thread's work. */
	const tasks = events
		.filter((e) => e.ph === 'X' && TASK_NAMES.has(e.name) && main.has(`${e.pid}:${e.tid}`))
		.map((e) => ({ start: e.ts, end: e.ts + (e.dur ?? 0) }))
		.sort((a, b) => a.start - b.start);
	const outer = [];
	for (const task of tasks)
		if (!outer.length || task.start >= outer[outer.length - 1].end) outer.push(task);
	const ms = outer.map((t) => (t.end - t.start) / 1000);
	if (!main.size || !ms.length)
		throw new Error('the trace has no task of the renderer main thread (did Chromium change its trace names?)');
	return {
		result,
		tasks: ms.length,
		longest: Math.max(...ms),
		over50: ms.filter((d) => d > 50).length,
		busy: ms.reduce((sum, d) => sum + d, 0),
	};
}

export function describeTasks(trace) {
	return `longest ${trace.longest.toFixed(1)} ms, ${trace.over50} over 50 ms ` +
		`(${trace.tasks.toLocaleString('en')} tasks, ${(trace.busy / 1000).toFixed(2)} s busy)`;
}
