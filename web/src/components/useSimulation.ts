/*
 * useSimulation - one piece of worker work at a time, with its progress and
 * its error, for every view that asks the worker for something long (the
 * App's scenario run, the compare view's runs, the charts' curves).
 *
 *   const sim = useSimulation<number>();
 *   sim.run(
 *     (signal, report) => client.simulate(request, { signal, onProgress: (d, t) => report(d / t) }),
 *     (result) => setResult(result),              // adopt: only the latest run's result
 *     { discard: (result) => free(result) },      // a result that arrived after it was superseded
 *   );
 *   sim.progress   null when idle, else the last value the work reported
 *   sim.error      the last run's failure as a sentence, null after a new start
 *
 * Invariants
 *   - Starting a run aborts the one in flight (its AbortSignal fires); only
 *     the latest run's result is adopted.  A superseded or cancelled result
 *     is handed to `discard` (to dispose of worker sessions), never adopted.
 *   - Aborts are not errors: a cancelled run ends silently.
 *   - `run` and `cancel` keep their identity across renders, so effects may
 *     list them as dependencies; unmounting cancels the run in flight.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbortError } from '../wasm/client';

export type Work<T, P> = (signal: AbortSignal, report: (progress: P) => void) => Promise<T>;

export interface RunOptions<T> {
	/** Frees a result that arrived after its run was superseded or cancelled. */
	discard?: (value: T) => void;
	/** Turns a failure into the sentence shown (default: its message). */
	describe?: (error: unknown) => string;
}

export interface Simulation<P> {
	progress: P | null;
	error: string | null;
	/** Resolves to the error shown, or null when the result was adopted, superseded or cancelled. */
	run: <T>(work: Work<T, P>, adopt: (value: T) => void, options?: RunOptions<T>) => Promise<string | null>;
	cancel: () => void;
	/** Shows (or clears) an error that came from elsewhere, in the same place. */
	setError: (message: string | null) => void;
}

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export function useSimulation<P>(): Simulation<P> {
	const [progress, setProgress] = useState<P | null>(null);
	const [error, setError] = useState<string | null>(null);
	const inFlight = useRef<AbortController | null>(null);

	const cancel = useCallback(() => {
		inFlight.current?.abort();
		inFlight.current = null;
		setProgress(null);
	}, []);

	const run = useCallback(async <T>(work: Work<T, P>, adopt: (value: T) => void, options: RunOptions<T> = {}) => {
		inFlight.current?.abort();
		const controller = new AbortController();
		inFlight.current = controller;
		const current = () => inFlight.current === controller && !controller.signal.aborted;
		setError(null);
		try {
			const value = await work(controller.signal, (p) => current() && setProgress(() => p));
			if (!current()) {
				options.discard?.(value);
				return null;
			}
			adopt(value);
			return null;
		} catch (e) {
			if (!current() || isAbortError(e))
				return null;
			const message = (options.describe ?? messageOf)(e);
			setError(message);
			return message;
		} finally {
			if (inFlight.current === controller) {
				inFlight.current = null;
				setProgress(null);
			}
		}
	}, []);

	useEffect(() => () => inFlight.current?.abort(), []);
	return { progress, error, run, cancel, setError };
}
