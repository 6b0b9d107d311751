/*
 * ShareBar.tsx - sharing a scenario: copy the link (the state lives in the
 * URL fragment, model/url.ts), download the scenario as a file (the only
 * way to share a trace too large for a link: `tooLarge` says so), and open
 * such a file.  A file is as untrusted as a link: readScenarioFile() checks
 * it against the same schema, and what is wrong goes to onError.
 */
import { referenceText } from '../model/scenario';
import { useRef, useState } from 'react';
import type { Run } from '../model/run';
import { readScenarioFile, scenarioFile, type AppState } from '../model/url';

interface Props {
	state: AppState;
	run: Run | null;
	/** Why the link leaves the trace out, or null. */
	tooLarge: string | null;
	onOpen: (state: AppState) => void;
	onError: (message: string) => void;
}

/* The state with its trace as a reference string, so the file carries the data even of an upload. */
function withTraceData(state: AppState, run: Run | null): AppState {
	if (state.scenario.trace.kind !== 'file' || !run) return state;
	return { ...state, scenario: { ...state.scenario, trace: { kind: 'refs', text: referenceText(run.result.trace) } } };
}

function download(name: string, text: string): void {
	const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
	const a = document.createElement('a');
	a.href = url;
	a.download = name;
	a.click();
	setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ShareBar({ state, run, tooLarge, onOpen, onError }: Props) {
	const input = useRef<HTMLInputElement>(null);
	const [copied, setCopied] = useState<string | null>(null);

	const copy = async () => {
		try {
			await navigator.clipboard.writeText(window.location.href);
			setCopied('link copied');
		} catch {
			setCopied('the browser did not allow copying: copy the address bar instead');
		}
	};

	const open = async (file: File) => {
		const decoded = readScenarioFile(await file.text(), file.name);
		if (decoded.errors.length) onError(decoded.errors.join('; '));
		else onOpen(decoded.state);
	};

	return (
		<section className="pl-app-share-bar" aria-label="share">
			<h2>Share</h2>
			<div className="pl-app-share-buttons">
				<button data-testid="copy-link" onClick={() => void copy()} disabled={tooLarge !== null}>
					copy link
				</button>
				<button data-testid="download-scenario" onClick={() => download('pagelab-scenario.json', scenarioFile(withTraceData(state, run)))}>
					download scenario
				</button>
				<button data-testid="open-scenario" onClick={() => input.current?.click()}>
					open scenario…
				</button>
				<input
					ref={input}
					type="file"
					accept=".json,application/json"
					hidden
					data-testid="open-scenario-file"
					onChange={(e) => {
						const file = e.target.files?.[0];
						e.target.value = '';
						if (file) void open(file);
					}}
				/>
			</div>
			{tooLarge && (
				<p className="pl-note pl-app-warning" role="status" data-testid="link-too-large">
					{tooLarge}
				</p>
			)}
			{copied && <p className="pl-note" role="status">{copied}</p>}
		</section>
	);
}
