/*
 * ViewErrorBoundary.tsx - a view that throws while rendering shows what went
 * wrong in its place, never a white page: the error's message, the link to
 * the state that caused it (taken when the error happened, so it can be
 * reported and reproduced), a report to copy, and ways back.
 *
 * Props
 *   view        what failed, in words ("compare view", "page")
 *   reportLink  the link to the state now; called only when an error is caught
 *   resetKey    a change (another view, scenario or step) clears the error
 *   actions     the ways back, as buttons ({ label, testId, onClick }); a
 *               "Try again" that re-renders the view is always offered
 *
 * Test ids: view-error (the panel, data-view = the view), view-error-link,
 * view-error-report, view-error-retry, view-error-copy.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';

export interface WayBack {
	label: string;
	testId: string;
	onClick: () => void;
}

interface Props {
	view: string;
	reportLink: () => string;
	resetKey: unknown;
	actions?: WayBack[];
	children: ReactNode;
}

interface Caught {
	error: Error;
	/** null until the render that caught the error has stamped it with the props of that moment. */
	link: string | null;
	resetKey: unknown;
}

/** What a lecturer pastes into a bug report: where, what, and the first frames of the stack. */
export function errorReport(view: string, link: string, error: Error, componentStack = ''): string {
	const stack = (error.stack ?? '').split('\n').slice(0, 8).join('\n');
	const where = componentStack.trim().split('\n').slice(0, 4).join('\n');
	return [`pagelab: the ${view} failed`, `link: ${link}`, `error: ${error.message}`, stack, where].filter(Boolean).join('\n');
}

export class ViewErrorBoundary extends Component<Props, { caught: Caught | null; componentStack: string }> {
	state = { caught: null as Caught | null, componentStack: '' };

	static getDerivedStateFromError(error: unknown): Partial<{ caught: Caught | null }> {
		return { caught: { error: error instanceof Error ? error : new Error(String(error)), link: null, resetKey: null } };
	}

	static getDerivedStateFromProps(props: Props, state: { caught: Caught | null }) {
		/* The link and reset key are taken in the render that caught the error. */
		if (state.caught && state.caught.link === null)
			return { caught: { ...state.caught, link: props.reportLink(), resetKey: props.resetKey } };
		if (state.caught && state.caught.resetKey !== props.resetKey) return { caught: null, componentStack: '' };
		return null;
	}

	componentDidCatch(_error: Error, info: ErrorInfo): void {
		this.setState({ componentStack: info.componentStack ?? '' });
	}

	private retry = () => this.setState({ caught: null, componentStack: '' });

	render() {
		const { caught, componentStack } = this.state;
		if (!caught) return this.props.children;
		const link = caught.link ?? this.props.reportLink();
		const report = errorReport(this.props.view, link, caught.error, componentStack);
		return (
			<section className="pl-app-failure" role="alert" data-testid="view-error" data-view={this.props.view}>
				<h2>The {this.props.view} failed</h2>
				<p>
					<strong>{caught.error.message}</strong>
				</p>
				<p>
					Nothing you entered is lost. This link opens the state that failed, so the failure can be reported and
					reproduced:{' '}
					<a href={link} data-testid="view-error-link">
						{link.length > 120 ? `${link.slice(0, 117)}…` : link}
					</a>
				</p>
				<div className="pl-app-failure-actions">
					<button type="button" className="pl-primary" data-testid="view-error-retry" onClick={this.retry}>
						Try again
					</button>
					{this.props.actions?.map((action) => (
						<button
							type="button"
							key={action.testId}
							data-testid={action.testId}
							onClick={() => {
								action.onClick();
								this.retry();
							}}
						>
							{action.label}
						</button>
					))}
					<button type="button" data-testid="view-error-copy" onClick={() => void navigator.clipboard?.writeText(report)}>
						Copy the report
					</button>
				</div>
				<details>
					<summary>Report</summary>
					<pre data-testid="view-error-report">{report}</pre>
				</details>
			</section>
		);
	}
}
