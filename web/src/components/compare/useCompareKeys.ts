/*
 * useCompareKeys - the compare view's keys: ←/→ step, Home goes to the
 * start, D to the next difference (as in the step view).  Keys typed into a
 * form field are the field's.
 */
import { useEffect } from 'react';

/* Keys typed into a form field are the field's, not the view's. */
function typingInField(target: EventTarget | null): boolean {
	return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName));
}

export function useCompareKeys(step: number, nextDifference: number | null, onStep: (step: number) => void): void {
	useEffect(() => {
		const onKey = (event: KeyboardEvent) => {
			if (typingInField(event.target) || event.ctrlKey || event.metaKey || event.altKey)
				return;
			const target =
				event.key === 'ArrowRight' ? step + 1
				: event.key === 'ArrowLeft' ? step - 1
				: event.key === 'Home' ? 0
				: (event.key === 'd' || event.key === 'D') && nextDifference !== null ? nextDifference
				: null;
			if (target === null)
				return;
			event.preventDefault();
			onStep(target);
		};
		window.addEventListener('keydown', onKey);
		return () => window.removeEventListener('keydown', onKey);
	}, [step, nextDifference, onStep]);
}
