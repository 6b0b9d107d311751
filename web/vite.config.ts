/*
 * Vite builds the page (npm start serves it, npm run build writes web/dist)
 * and Vitest runs the unit and differential tests under Node.  `base: './'`
 * makes the built site work from any directory of any static server.
 */
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
	base: './',
	plugins: [react()],
	worker: { format: 'es' },
	build: { target: 'es2022', chunkSizeWarningLimit: 1024 },
	test: {
		include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
		environment: 'node',
		testTimeout: 60000,
		reporters: ['default', './test/summary-reporter.ts'],
	},
});
