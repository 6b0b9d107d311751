/*
 * The page's TypeScript type-checks (tsc --noEmit over src/ and test/):
 * Vite and Vitest strip types without checking them, so this is where a
 * type error in any layer shows up.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const web = fileURLToPath(new URL('..', import.meta.url));
const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));

it('the sources type-check with no errors', () => {
	let output = '';
	try {
		execFileSync(process.execPath, [tsc, '--noEmit', '-p', web], { encoding: 'utf8', stdio: 'pipe' });
	} catch (error) {
		output = String((error as { stdout?: string }).stdout ?? error);
	}
	expect(output).toBe('');
}, 180_000);
