/*
 * ScenarioForm.tsx - the scenario: policy, its parameters (one field each,
 * from the core's reflection), frames and the trace (typed, generated,
 * uploaded or a preset).
 *
 * The form edits a draft; Apply (or choosing a preset or a file) hands a
 * Scenario to the App, which simulates it and either adopts it or shows the
 * error in `scenario-error` and keeps the previous scenario on screen.
 * Fields hold text while typed and become numbers only on Apply, where a bad
 * one is named in the CLI's words (model/inputCheck.ts) and marked invalid;
 * the browser's own validation popups are off (noValidate).
 *
 * The reference string is not React state: a 1M-reference paste would be
 * copied into a render on every keystroke.  The textarea keeps its own text
 * (read on Apply, set when another scenario is applied) and stays mounted
 * while the generator is shown, so switching back keeps what was typed.
 * A paste of more than LARGE_TEXT characters (or an applied trace that long)
 * is held outside the textarea too: a browser re-lays out the whole text of
 * a textarea on every key, seconds per key for megabytes.  The box then says
 * what it holds (refs-held) and takes typing for references after it; Clear
 * (refs-held-clear) drops the held part.
 *
 * A scenario this form asked for may take seconds to simulate.  What is
 * typed meanwhile (in the box or any field) is newer than the request, so
 * when that run lands the form keeps it instead of showing the applied
 * scenario again; a scenario applied from elsewhere (a link, an opened
 * file) is shown as always.
 */
import { memo, useEffect, useRef, useState, type ClipboardEvent } from 'react';
import { PagelabError, type GeneratorSpec, type PolicyInfo } from '../wasm/protocol';
import { PRESETS, presetById, presetTitle, type Scenario } from '../model/scenario';
import { parseFrames, parseParam } from '../model/inputCheck';
import './scenarioForm.css';

/* More text than this is held, not put in the textarea (about 30,000 references). */
const LARGE_TEXT = 200_000;

interface Props {
	policies: PolicyInfo[];
	applied: Scenario;
	busy: boolean;
	error: string | null;
	/** Hide answers / predict mode: preset titles without their results (presetTitle). */
	hideAnswers: boolean;
	onApply: (scenario: Scenario) => void;
	onError: (message: string) => void;
}

type Source = 'refs' | 'generator';

interface Draft {
	policy: string;
	frames: string;
	params: Record<string, string>;
	source: Source;
	generator: Record<string, string>;
}

const GENERATOR_DEFAULTS: Record<string, string> = {
	kind: 'zipf',
	length: '1000',
	pages: '50',
	exponent: '0.9',
	seed: '1',
	phases: '4',
	workingSet: '8',
};

const GENERATOR_FIELDS: Record<GeneratorSpec['kind'], string[]> = {
	uniform: ['length', 'pages', 'seed'],
	zipf: ['length', 'pages', 'exponent', 'seed'],
	loop: ['length', 'pages'],
	phases: ['length', 'phases', 'workingSet', 'seed'],
};

function draftOf(scenario: Scenario): Draft {
	const trace = scenario.trace;
	return {
		policy: scenario.policy,
		frames: String(scenario.frames),
		params: Object.fromEntries(Object.entries(scenario.params).map(([k, v]) => [k, String(v)])),
		source: trace.kind === 'generator' ? 'generator' : 'refs',
		generator:
			trace.kind === 'generator'
				? { ...GENERATOR_DEFAULTS, ...Object.fromEntries(Object.entries(trace.spec).map(([k, v]) => [k, String(v)])) }
				: GENERATOR_DEFAULTS,
	};
}

function number(label: string, text: string): number {
	const value = Number(text);
	if (text.trim() === '' || !Number.isFinite(value)) throw new PagelabError(`${label}: '${text}' is not a number`);
	return value;
}

/* Characters counted between two pauses: a few milliseconds of work. */
const COUNT_SLICE = 500_000;

/*
 * Roughly how many references a text holds: its tokens (for the held-paste
 * note only; the core counts exactly).  Counted in slices with a macrotask
 * between them, so a 5 MB paste never freezes the page; `cancelled()` stops
 * a count whose text was replaced meanwhile.
 */
async function countReferences(text: string, cancelled: () => boolean): Promise<number | null> {
	let count = 0;
	let inToken = false;
	for (let from = 0; from < text.length; from += COUNT_SLICE) {
		if (from > 0) await new Promise((resolve) => setTimeout(resolve, 0));
		if (cancelled()) return null;
		const to = Math.min(text.length, from + COUNT_SLICE);
		for (let i = from; i < to; i++) {
			const code = text.charCodeAt(i);
			const separator = code === 32 || code === 10 || code === 13 || code === 9 || code === 44;
			if (!separator && !inToken) count++;
			inToken = !separator;
		}
	}
	return count;
}

/* An error on Apply remembers which field it is about, so that field is marked. */
function checked<T>(field: string, parse: () => T): T {
	try {
		return parse();
	} catch (e) {
		throw Object.assign(e as Error, { field });
	}
}

function scenarioOf(draft: Draft, policy: PolicyInfo, refs: string): Scenario {
	const params: Record<string, number> = {};
	for (const param of policy.params) {
		const text = draft.params[param.name];
		if (text !== undefined && text !== '') params[param.name] = checked(`param-${param.name}`, () => parseParam(policy, param.name, text));
	}
	const frames = checked('frames-input', () => parseFrames(draft.frames));
	if (draft.source === 'refs') return { policy: policy.name, frames, params, trace: { kind: 'refs', text: refs } };
	const kind = draft.generator.kind as GeneratorSpec['kind'];
	const spec: Record<string, unknown> = { kind };
	for (const field of GENERATOR_FIELDS[kind]) spec[field] = number(`generator: ${field}`, draft.generator[field]);
	return { policy: policy.name, frames, params, trace: { kind: 'generator', spec: spec as unknown as GeneratorSpec } };
}

/*
 * `value` is the field's text, or undefined while the user has not touched
 * it: then the default is shown as the value (a grey placeholder read as
 * "disabled" on a projector).  A field cleared to '' also means the default.
 */
function ParamField({ policy, name, value, invalid, onChange }: { policy: PolicyInfo; name: string; value: string | undefined; invalid: boolean; onChange: (v: string) => void }) {
	const param = policy.params.find((p) => p.name === name)!;
	const id = `param-${name}`;
	return (
		<label className="pl-form-field" title={param.help}>
			<span>{name.replace(/_/g, ' ')}</span>
			{param.choices ? (
				<select data-testid={id} aria-invalid={invalid} value={value || String(param.def)} onChange={(e) => onChange(e.target.value)}>
					{param.choices.map((choice, i) => (
						<option key={choice} value={String(i)}>
							{choice}
						</option>
					))}
				</select>
			) : (
				<input
					data-testid={id}
					type="text"
					inputMode="numeric"
					aria-invalid={invalid}
					placeholder={String(param.def)}
					value={value ?? String(param.def)}
					onChange={(e) => onChange(e.target.value)}
				/>
			)}
			<small>{param.help}</small>
		</label>
	);
}

/* Memoized: stepping re-renders the App, and the form has nothing to show for it. */
export const ScenarioForm = memo(function ScenarioForm({ policies, applied, busy, error, hideAnswers, onApply, onError }: Props) {
	const [draft, setDraft] = useState<Draft>(() => draftOf(applied));
	const [preset, setPreset] = useState('');
	const [invalid, setInvalid] = useState<string | null>(null);
	const refsBox = useRef<HTMLTextAreaElement>(null);
	/* A large reference string, held as text outside the page's DOM; `size` is what the box says of it. */
	const held = useRef('');
	const [heldSize, setHeldSize] = useState<{ chars: number; references: number | null } | null>(null);
	const hold = (text: string) => {
		if (text === held.current) return;
		held.current = text;
		setHeldSize(text ? { chars: text.length, references: null } : null);
		if (text)
			void countReferences(text, () => held.current !== text).then((references) => {
				if (references !== null) setHeldSize({ chars: text.length, references });
			});
	};
	/* Set by this form's own requests; `edited` when anything was typed after the latest one. */
	const request = useRef({ pending: false, edited: false });
	const requesting = (scenario: Scenario) => {
		request.current = { pending: true, edited: false };
		onApply(scenario);
	};
	const typed = () => {
		request.current.edited = true;
	};
	useEffect(() => {
		if (error) request.current.pending = false;
	}, [error]);
	useEffect(() => {
		const keepEdits = request.current.pending && request.current.edited;
		request.current.pending = false;
		setInvalid(null);
		if (keepEdits) return;
		setDraft(draftOf(applied));
		const text = applied.trace.kind === 'refs' ? applied.trace.text : '';
		const large = text.length > LARGE_TEXT;
		hold(large ? text : '');
		if (refsBox.current) refsBox.current.value = large ? '' : text;
	}, [applied]);
	const policy = policies.find((p) => p.name === draft.policy) ?? policies[0];
	const ready = policies.length > 0;
	const edit = (change: Partial<Draft>) => {
		typed();
		setDraft((d) => ({ ...d, ...change }));
		setInvalid(null);
	};

	const refs = () => {
		const typed = refsBox.current?.value ?? '';
		return held.current ? `${held.current}\n${typed}` : typed;
	};
	const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
		const pasted = event.clipboardData.getData('text/plain');
		const box = event.currentTarget;
		if (pasted.length + box.value.length <= LARGE_TEXT) return;
		event.preventDefault();
		typed();
		hold(`${held.current}${held.current ? '\n' : ''}${box.value.slice(0, box.selectionStart)}${pasted}${box.value.slice(box.selectionEnd)}`);
		box.value = '';
	};
	const apply = () => {
		if (!policy) return;
		try {
			requesting(scenarioOf(draft, policy, refs()));
		} catch (e) {
			onError((e as Error).message);
			setInvalid((e as { field?: string }).field ?? null);
		}
	};

	const upload = async (file: File | undefined) => {
		if (!file || !policy) return;
		try {
			const bytes = new Uint8Array(await file.arrayBuffer());
			requesting({ ...scenarioOf({ ...draft, source: 'refs' }, policy, ''), trace: { kind: 'file', name: file.name, bytes } });
		} catch (e) {
			onError((e as Error).message);
			setInvalid((e as { field?: string }).field ?? null);
		}
	};

	return (
		<form
			className="pl-form"
			noValidate
			onSubmit={(e) => {
				e.preventDefault();
				apply();
			}}
		>
			<h2>Scenario</h2>
			<label className="pl-form-field">
				<span>preset</span>
				<select
					data-testid="preset-select"
					value={preset}
					disabled={!ready}
					onChange={(e) => {
						setPreset(e.target.value);
						const chosen = presetById(e.target.value);
						if (chosen) requesting(chosen.scenario);
					}}
				>
					<option value="">— choose a preset —</option>
					{PRESETS.map((p) => (
						<option key={p.id} value={p.id}>
							{presetTitle(p, hideAnswers)}
						</option>
					))}
				</select>
			</label>
			<label className="pl-form-field">
				<span>policy</span>
				<select data-testid="policy-select" value={draft.policy} disabled={!ready} onChange={(e) => edit({ policy: e.target.value, params: {} })}>
					{policies.map((p) => (
						<option key={p.name} value={p.name}>
							{p.name} — {p.title}
						</option>
					))}
				</select>
			</label>
			{policy && <p className="pl-form-help">{policy.help}</p>}
			<label className="pl-form-field">
				<span>frames</span>
				<input
					data-testid="frames-input"
					type="text"
					inputMode="numeric"
					aria-invalid={invalid === 'frames-input'}
					aria-errormessage={invalid === 'frames-input' ? 'scenario-error' : undefined}
					value={draft.frames}
					onChange={(e) => edit({ frames: e.target.value })}
				/>
			</label>
			{policy?.params.map((param) => (
				<ParamField
					key={`${policy.name}-${param.name}`}
					policy={policy}
					name={param.name}
					value={draft.params[param.name]}
					invalid={invalid === `param-${param.name}`}
					onChange={(v) => edit({ params: { ...draft.params, [param.name]: v } })}
				/>
			))}
			<fieldset className="pl-form-trace-source">
				<legend>trace</legend>
				<label>
					<input type="radio" name="source" checked={draft.source === 'refs'} onChange={() => edit({ source: 'refs' })} /> type
				</label>
				<label>
					<input type="radio" name="source" checked={draft.source === 'generator'} onChange={() => edit({ source: 'generator' })} /> generate
				</label>
				{heldSize && draft.source === 'refs' && (
					<p className="pl-form-held" data-testid="refs-held">
						<span>
							Holding {heldSize.references === null ? 'the' : heldSize.references.toLocaleString('en')} pasted references ({(heldSize.chars / 1e6).toFixed(1)} MB), too many to edit
							here; what you type below comes after them.
						</span>
						<button type="button" data-testid="refs-held-clear" onClick={() => hold('')}>
							Clear
						</button>
					</p>
				)}
				<textarea
					data-testid="refs-input"
					ref={refsBox}
					onPaste={onPaste}
					onInput={typed}
					rows={3}
					hidden={draft.source !== 'refs'}
					/* A held text never goes in: setting megabytes as the default value lays them out (as in the effect above). */
					defaultValue={applied.trace.kind === 'refs' && applied.trace.text.length <= LARGE_TEXT ? applied.trace.text : ''}
					placeholder="7 0 1 2 0 3 0 4   (decimal or 0x-hex; 'w' marks a write: 3w)"
					spellCheck={false}
					autoComplete="off"
				/>
				{draft.source === 'generator' && (
					<div className="pl-form-generator">
						<label className="pl-form-field">
							<span>pattern</span>
							<select
								data-testid="generator-kind"
								value={draft.generator.kind}
								onChange={(e) => edit({ generator: { ...draft.generator, kind: e.target.value } })}
							>
								<option value="uniform">uniform</option>
								<option value="zipf">zipf (hot pages)</option>
								<option value="loop">loop</option>
								<option value="phases">phases (working-set shifts)</option>
							</select>
						</label>
						{GENERATOR_FIELDS[draft.generator.kind as GeneratorSpec['kind']].map((field) => (
							<label key={field} className="pl-form-field">
								<span>{field === 'workingSet' ? 'working set' : field}</span>
								<input
									data-testid={`generator-${field}`}
									type="number"
									value={draft.generator[field]}
									onChange={(e) => edit({ generator: { ...draft.generator, [field]: e.target.value } })}
								/>
							</label>
						))}
					</div>
				)}
				<label className="pl-form-field pl-form-upload">
					<span>or upload a trace file</span>
					<input
						data-testid="trace-upload"
						type="file"
						disabled={!ready}
						onChange={(e) => {
							void upload(e.target.files?.[0]);
							e.target.value = '';
						}}
					/>
				</label>
			</fieldset>
			<button data-testid="apply-scenario" className="pl-primary" type="submit" disabled={!ready || busy}>
				Apply
			</button>
			{error && (
				<p className="pl-form-error" id="scenario-error" data-testid="scenario-error" role="alert">
					{error}
				</p>
			)}
		</form>
	);
});
