/*
 * main.tsx - the page's entry point: mounts the App.  Each view has its own
 * error boundary (App.tsx); this one catches a failure of the shell itself,
 * so even then the page says what happened instead of going white.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles.css';
import { App } from './components/App';
import { ViewErrorBoundary } from './components/ViewErrorBoundary';

createRoot(document.getElementById('root')!).render(
	<StrictMode>
		<ViewErrorBoundary
			view="page"
			reportLink={() => window.location.href}
			resetKey={null}
			actions={[{ label: 'Reload the page', testId: 'view-error-reload', onClick: () => window.location.reload() }]}
		>
			<App />
		</ViewErrorBoundary>
	</StrictMode>,
);
