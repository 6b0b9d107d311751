/*
 * EntryEditor.tsx - one compared entry in the compare toolbar: its policy,
 * its frames and every one of its parameters, shown with the value it runs
 * with (no hidden defaults).  A typed value is checked with the CLI's rules
 * and words (model/inputCheck.ts) when the field is left or Enter is
 * pressed; a bad one is named through onError and the entry keeps its old
 * value.
 *
 * Test ids (i = the entry's place): compare-policy-i, compare-frames-i,
 * compare-param-i-<name>, compare-remove-i.
 */
import { useEffect, useState, type KeyboardEvent } from 'react';
import type { PolicyInfo } from '../../wasm/protocol';
import { parseFrames, parseParam } from '../../model/inputCheck';
import type { CompareEntry } from '../../model/compareEntries';

interface Props {
	index: number;
	entry: CompareEntry;
	policies: PolicyInfo[];
	removable: boolean;
	onPolicy: (name: string) => void;
	onChange: (entry: CompareEntry) => void;
	onRemove: () => void;
	onError: (message: string | null) => void;
}

/* A text field that commits on blur or Enter and shows the committed value otherwise. */
function CommitField({ testId, label, value, commit }: { testId: string; label: string; value: string; commit: (text: string) => boolean }) {
	const [text, setText] = useState(value);
	const [invalid, setInvalid] = useState(false);
	useEffect(() => setText(value), [value]);
	const done = () => {
		if (text === value) return;
		const ok = commit(text);
		setInvalid(!ok);
	};
	return (
		<label className="pl-compare-field">
			<span>{label}</span>
			<input
				data-testid={testId}
				type="text"
				inputMode="numeric"
				size={Math.max(2, text.length)}
				aria-invalid={invalid}
				value={text}
				onChange={(e) => {
					setText(e.target.value);
					setInvalid(false);
				}}
				onBlur={done}
				onKeyDown={(e: KeyboardEvent) => e.key === 'Enter' && done()}
			/>
		</label>
	);
}

export function EntryEditor({ index, entry, policies, removable, onPolicy, onChange, onRemove, onError }: Props) {
	const info = policies.find((p) => p.name === entry.policy);
	const attempt = (change: () => CompareEntry): boolean => {
		try {
			onChange(change());
			onError(null);
			return true;
		} catch (e) {
			onError((e as Error).message);
			return false;
		}
	};
	return (
		<fieldset className="pl-compare-choice" aria-label={`compared run ${index + 1}`}>
			<label className="pl-compare-field">
				<span>Run {index + 1}</span>
				<select data-testid={`compare-policy-${index}`} value={entry.policy} onChange={(e) => onPolicy(e.target.value)}>
					{policies.map((p) => (
						<option key={p.name} value={p.name} title={p.help}>
							{p.name}
						</option>
					))}
				</select>
			</label>
			<CommitField
				testId={`compare-frames-${index}`}
				label="frames"
				value={String(entry.frames)}
				commit={(text) => attempt(() => ({ ...entry, frames: parseFrames(text) }))}
			/>
			{info?.params.map((param) =>
				param.choices ? (
					<label key={param.name} className="pl-compare-field" title={param.help}>
						<span>{param.name.replace(/_/g, ' ')}</span>
						<select
							data-testid={`compare-param-${index}-${param.name}`}
							value={entry.params[param.name]}
							onChange={(e) => attempt(() => ({ ...entry, params: { ...entry.params, [param.name]: Number(e.target.value) } }))}
						>
							{param.choices.map((choice, value) => (
								<option key={choice} value={value}>
									{choice}
								</option>
							))}
						</select>
					</label>
				) : (
					<CommitField
						key={param.name}
						testId={`compare-param-${index}-${param.name}`}
						label={param.name.replace(/_/g, ' ')}
						value={String(entry.params[param.name])}
						commit={(text) =>
							attempt(() => ({ ...entry, params: { ...entry.params, [param.name]: parseParam(info, param.name, text) } }))
						}
					/>
				),
			)}
			{removable && (
				<button type="button" data-testid={`compare-remove-${index}`} aria-label={`Remove run ${index + 1}`} onClick={onRemove}>
					✕
				</button>
			)}
		</fieldset>
	);
}
