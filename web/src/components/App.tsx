/*
 * App.tsx - the page shell: header with the tabs and lecture mode, the
 * scenario form, and the step, compare and charts views.
 *
 * The App owns the applied scenario, the view, the step, lecture mode, the
 * teaching switches (hide answers, predict) and the compare and charts
 * views' choices of policies, and mirrors them into the URL fragment
 * (model/url.ts) so a link restores them; a trace too large for a link is
 * shared as a scenario file (ShareBar).  What a link got wrong is shown in
 * a banner above the view, in lecture mode too.  B (or '.', what
 * clickers send for "black screen") blanks the screen until the next key.
 * Applying a scenario runs it in the worker; on success the new run
 * replaces the old one (whose session is disposed), on failure the error
 * is shown and everything else stays as it was.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createWorkerClient } from '../wasm/client';
import { PagelabError, type PolicyInfo } from '../wasm/protocol';
import { loadRun, type Run } from '../model/run';
import { DEFAULT_SCENARIO, referenceText, toTraceSource, type Scenario } from '../model/scenario';
import { decodeState, linkFor, type AppState, type CompareChoice, type View } from '../model/url';
import { ShareBar } from './ShareBar';
import { Shortened } from './Shortened';
import { elementTakesTyping } from './step/StepView';
import './lecture.css';
import { ScenarioForm } from './ScenarioForm';
import { StepView } from './step/StepView';
import { CompareView } from './compare/CompareView';
import { ChartsView } from './charts/ChartsView';
import { useSimulation } from './useSimulation';
import { ViewErrorBoundary } from './ViewErrorBoundary';
import './app.css';

/* An uploaded trace this short is kept as its reference string, so the URL can carry it. */
const URL_REFS_LIMIT = 2000;
const STEP_URL_DELAY_MS = 600;

const client = createWorkerClient();

/* `more` is left out in lecture mode, where the header must fit a 1024-pixel projector. */
const TABS: Array<{ view: View; label: string; more: string }> = [
	{ view: 'step', label: 'Step', more: ' by step' },
	{ view: 'compare', label: 'Compare', more: ' policies' },
	{ view: 'charts', label: 'Charts', more: '' },
];

/** A view's name in sentences ("compare policies view"). */
function viewName(view: View): string {
	const tab = TABS.find((t) => t.view === view)!;
	return `${tab.label}${tab.more} view`.toLowerCase();
}

/** A small uploaded trace becomes the reference string it holds (writes keep their 'w'). */
function portable(scenario: Scenario, run: Run): Scenario {
	if (scenario.trace.kind !== 'file' || run.result.trace.references > URL_REFS_LIMIT) return scenario;
	return { ...scenario, trace: { kind: 'refs', text: referenceText(run.result.trace) } };
}

function samePolicies(a: string[] | undefined, b: string[]): boolean {
	return a !== undefined && a.length === b.length && a.every((name, i) => name === b[i]);
}

function describeError(error: unknown, scenario: Scenario): string {
	const message = error instanceof Error ? error.message : String(error);
	if (scenario.trace.kind === 'file' && !message.includes(scenario.trace.name)) return `${scenario.trace.name}: ${message}`;
	return error instanceof PagelabError ? message : `unexpected failure: ${message}`;
}

export function App() {
	const initial = useMemo(() => decodeState(window.location.hash || window.location.search), []);
	const [state, setState] = useState<AppState>(initial.state);
	const [policies, setPolicies] = useState<PolicyInfo[]>([]);
	const [run, setRun] = useState<Run | null>(null);
	const { run: load, progress, error, setError } = useSimulation<number>();
	const [formOpen, setFormOpen] = useState(false);
	const [linkProblem, setLinkProblem] = useState<string | null>(initial.errors.join('; ') || null);
	const [tooLarge, setTooLarge] = useState<string | null>(null);
	const [blank, setBlank] = useState(false);

	/** Resolves to the error shown, or null when the scenario was adopted (or superseded). */
	const apply = useCallback(
		(scenario: Scenario, step = 0): Promise<string | null> =>
			load(
				async (signal, report) => {
					report(0);
					const list = await client.listPolicies();
					return loadRun(client, scenario, list, { signal, onProgress: (done, total) => report(done / Math.max(1, total)) });
				},
				(next) => {
					const adopted = portable(scenario, next);
					setRun((old) => {
						void old?.session.dispose();
						return { ...next, scenario: adopted };
					});
					setState((s) => ({ ...s, scenario: adopted, step: Math.min(step, next.timeline.steps) }));
				},
				{ discard: (next) => void next.session.dispose(), describe: (e) => describeError(e, scenario) },
			),
		[load],
	);

	useEffect(() => {
		client.listPolicies().then(setPolicies, (e) => setError(`the simulation core did not load: ${(e as Error).message}`));
		/* A link whose scenario fails still opens the page, on the default scenario, with the error shown. */
		void apply(initial.state.scenario, initial.state.step).then(async (failure) => {
			if (failure && (await apply(DEFAULT_SCENARIO)) === null) {
				setError(failure);
				setLinkProblem(`link: ${failure}; the default scenario is shown instead`);
			}
			else if (!failure && initial.errors.length) setError(initial.errors.join('; '));
		});
	}, [apply, initial]);

	/*
	 * history.replaceState is slow (tens of ms under load) and throttled by
	 * browsers, so a new scenario, view, mode or choice of policies is written
	 * at once, while a change of step alone is written once stepping has paused.
	 */
	const writtenUrl = useRef<AppState | null>(null);
	useEffect(() => {
		if (!run) return;
		const written = writtenUrl.current;
		const write = () => {
			writtenUrl.current = state;
			const link = linkFor(state, run.result.trace.references);
			setTooLarge(link.tooLarge);
			window.history.replaceState(null, '', `${window.location.pathname}${link.fragment}`);
		};
		if (!written || written.scenario !== state.scenario || written.view !== state.view || written.lecture !== state.lecture
			|| written.compare !== state.compare || written.charts !== state.charts || written.hideAnswers !== state.hideAnswers
			|| written.predict !== state.predict) {
			write();
			return;
		}
		const timer = setTimeout(write, STEP_URL_DELAY_MS);
		return () => clearTimeout(timer);
	}, [state, run]);

	/* Lecture mode scales every rem from the root element. */
	useEffect(() => {
		document.documentElement.classList.toggle('pl-lecture', state.lecture);
	}, [state.lecture]);

	/* Blank screen: B or '.' (a clicker's black-screen key) anywhere but in a text field; any key brings it back. */
	useEffect(() => {
		const onKey = (event: KeyboardEvent) => {
			if (blank) {
				setBlank(false);
				event.preventDefault();
				event.stopImmediatePropagation();
				return;
			}
			if (elementTakesTyping(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
			if (event.key === 'b' || event.key === 'B' || event.key === '.') {
				setBlank(true);
				event.preventDefault();
			}
		};
		window.addEventListener('keydown', onKey, { capture: true });
		return () => window.removeEventListener('keydown', onKey, { capture: true });
	}, [blank]);

	const [fullscreen, setFullscreen] = useState(false);
	useEffect(() => {
		const onChange = () => setFullscreen(document.fullscreenElement !== null);
		document.addEventListener('fullscreenchange', onChange);
		return () => document.removeEventListener('fullscreenchange', onChange);
	}, []);
	const toggleFullscreen = () => {
		if (document.fullscreenElement) void document.exitFullscreen();
		else void document.documentElement.requestFullscreen?.().catch(() => setError('this browser refused full screen here (use F11)'));
	};

	const setStep = useCallback((step: number) => setState((s) => ({ ...s, step })), []);
	/* The views report their choice after every render that changes it; an unchanged one keeps the state as it is. */
	const setCompareChoice = useCallback(
		(choice: CompareChoice) =>
			setState((s) =>
				samePolicies(s.compare?.policies, choice.policies) && s.compare?.ghostOpt === choice.ghostOpt ? s : { ...s, compare: choice },
			),
		[],
	);
	const setChartsChoice = useCallback(
		(charts: string[]) => setState((s) => (samePolicies(s.charts, charts) ? s : { ...s, charts })),
		[],
	);
	const applyFromForm = useCallback((scenario: Scenario) => void apply(scenario), [apply]);
	/* A view that fails is reported with the link to the state it failed in. */
	const now = useRef({ state, run });
	now.current = { state, run };
	const reportLink = useCallback(() => {
		const { state: at, run: shown } = now.current;
		return `${window.location.origin}${window.location.pathname}${linkFor(at, shown?.result.trace.references ?? 0).fragment}`;
	}, []);
	const failureReset = useMemo(() => ({}), [state.view, state.step, run]);
	const answersHidden = (state.hideAnswers ?? false) || (state.predict ?? false);
	const compared = useMemo(
		() => run && { policy: run.scenario.policy, frames: run.scenario.frames, params: run.scenario.params, trace: toTraceSource(run.scenario.trace) },
		[run],
	);

	return (
		<div className={`pl-app${state.lecture ? ' pl-lecture' : ''}`}>
			<header className="pl-app-top">
				<h1>
					pagelab <small>page replacement, step by step</small>
				</h1>
				<nav className="pl-app-tabs" role="tablist">
					{TABS.map((tab) => (
						<button
							key={tab.view}
							role="tab"
							aria-selected={state.view === tab.view}
							className={state.view === tab.view ? 'pl-app-active' : ''}
							data-testid={`tab-${tab.view}`}
							onClick={() => setState((s) => ({ ...s, view: tab.view }))}
						>
							<Shortened full={tab.label + tab.more}>
								{tab.label}
								<span className="pl-app-label-text">{tab.more}</span>
							</Shortened>
						</button>
					))}
				</nav>
				<button className="pl-app-form-toggle" data-testid="toggle-scenario" onClick={() => setFormOpen((o) => !o)}>
					{formOpen ? 'hide scenario' : 'scenario…'}
				</button>
				<label className="pl-app-lecture-toggle">
					<input
						type="checkbox"
						data-testid="lecture-mode"
						checked={state.lecture}
						onChange={(e) => setState((s) => ({ ...s, lecture: e.target.checked }))}
					/>
					<Shortened full="lecture mode">
						lecture<span className="pl-app-label-text"> mode</span>
					</Shortened>
				</label>
				<label className="pl-app-lecture-toggle">
					<input
						type="checkbox"
						data-testid="hide-answers"
						aria-label="hide answers"
						checked={state.hideAnswers ?? false}
						onChange={(e) => setState((s) => ({ ...s, hideAnswers: e.target.checked || undefined }))}
					/>
					<Shortened full="hide answers">
						hide<span className="pl-app-label-text"> answers</span>
					</Shortened>
				</label>
				<label className="pl-app-lecture-toggle">
					<input
						type="checkbox"
						data-testid="predict-mode"
						checked={state.predict ?? false}
						onChange={(e) => setState((s) => ({ ...s, predict: e.target.checked || undefined }))}
					/>
					predict
				</label>
				<button
					className="pl-app-form-toggle"
					data-testid="fullscreen"
					onClick={toggleFullscreen}
					aria-pressed={fullscreen}
					aria-label={fullscreen ? 'exit full screen' : 'full screen'}
				>
					<svg className="pl-app-icon" viewBox="0 0 16 16" aria-hidden="true">
						<path d="M1 6V1h5M10 1h5v5M15 10v5h-5M6 15H1v-5" />
					</svg>
					<span className="pl-app-label-text">{fullscreen ? ' exit full screen' : ' full screen'}</span>
				</button>
			</header>
			{blank && (
				<div
					className="pl-app-blank-screen"
					data-testid="blank-screen"
					tabIndex={-1}
					ref={(overlay) => overlay?.focus()}
					onClick={() => setBlank(false)}
					aria-label="screen blanked: press any key"
				/>
			)}
			{linkProblem && (
				<div className="pl-banner pl-app-link-problem" role="alert" data-testid="link-problem">
					<span>{linkProblem}</span>
					<button onClick={() => setLinkProblem(null)}>dismiss</button>
				</div>
			)}
			{progress !== null && (
				<div className="pl-app-progress" data-testid="progress" role="progressbar" aria-valuenow={Math.round(progress * 100)}>
					<div className="pl-app-bar" style={{ width: `${Math.round(progress * 100)}%` }} />
					<span>simulating… {Math.round(progress * 100)}%</span>
				</div>
			)}
			<div className={`pl-app-body${formOpen ? ' pl-app-form-open' : ''}`}>
				<aside className="pl-app-side">
					<ScenarioForm
						policies={policies}
						applied={state.scenario}
						busy={progress !== null}
						error={error}
						hideAnswers={answersHidden}
						onApply={applyFromForm}
						onError={setError}
					/>
					<ShareBar
						state={state}
						run={run}
						tooLarge={tooLarge}
						onOpen={(opened) => {
							setState(opened);
							void apply(opened.scenario, opened.step);
						}}
						onError={setLinkProblem}
					/>
				</aside>
				<main className="pl-app-main">
					{/* Each view's heading, for screen readers (the tabs show it): the views' own headings sit under it. */}
					<h2 className="pl-visually-hidden">{TABS.filter((tab) => tab.view === state.view).map((tab) => tab.label + tab.more)}</h2>
					{!run && <p className="pl-note">{progress !== null ? 'simulating…' : 'no scenario yet'}</p>}
					<ViewErrorBoundary
						view={viewName(state.view)}
						reportLink={reportLink}
						resetKey={failureReset}
						actions={[
							{ label: 'Back to step 0', testId: 'view-error-step0', onClick: () => setStep(0) },
							...(state.view === 'step'
								? []
								: [{ label: 'Open the step-by-step view', testId: 'view-error-step-view', onClick: () => setState((s) => ({ ...s, view: 'step' as View })) }]),
						]}
					>
						{run && state.view === 'step' && (
							<StepView
								run={run}
								step={state.step}
								onStep={setStep}
								lecture={state.lecture}
								hideAnswers={state.hideAnswers ?? false}
								predict={state.predict ?? false}
							/>
						)}
						{run && compared && state.view === 'compare' && (
							<CompareView
								scenario={compared}
								client={client}
								lecture={state.lecture}
								selection={state.compare}
								onSelectionChange={setCompareChoice}
								step={state.step}
								onStepChange={setStep}
								hideAnswers={answersHidden}
							/>
						)}
						{run && compared && state.view === 'charts' && answersHidden && (
							<p className="pl-note pl-banner" data-testid="charts-answers-hidden">
								The charts show every run's results over the whole trace, so they are hidden while “hide answers” or predict
								mode is on.
							</p>
						)}
						{run && compared && state.view === 'charts' && !answersHidden && (
							<ChartsView
								scenario={compared}
								client={client}
								lecture={state.lecture}
								policies={state.charts}
								onPoliciesChange={setChartsChoice}
							/>
						)}
					</ViewErrorBoundary>
				</main>
			</div>
		</div>
	);
}
