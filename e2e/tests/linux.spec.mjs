/*
 * The Linux two-list model (wasm-core/src/policies/linux.c, lru_model.h): a
 * file page read through read()/write() enters the inactive list with
 * PG_referenced set; the next such access finds it referenced and promotes it
 * to the active list (folio_mark_accessed, pgactivate).  An access through a
 * mapping only sets the hardware accessed bit, which nobody looks at until
 * reclaim, so the same references leave the page inactive.  anon_percent 0
 * makes every page a file page, so the lanes are inactive_file / active_file.
 */
import { test, expect } from '../lib/fixtures.mjs';

const FILE_PAGES_ONLY = { anon_percent: 0 };

test.describe('Linux lists with 4 frames on 1 2 1', () => {
	test('a file page read twice moves from the inactive lane to the active lane', async ({ lab }) => {
		await lab.setScenario({ policy: 'linux', frames: 4, refs: '1 2 1', params: { ...FILE_PAGES_ONLY, file_access: 'syscall' } });
		await lab.goToStep(1);
		expect(await lab.listPages('inactive_file')).toEqual(['1']);
		expect(await lab.listPages('active_file')).toEqual([]);
		await lab.goToStep(2);
		expect(await lab.listPages('inactive_file')).toEqual(['2', '1']);
		await lab.goToStep(3);
		expect(await lab.listPages('inactive_file')).toEqual(['2']);
		expect(await lab.listPages('active_file')).toEqual(['1']);
		const promoted = (await lab.structurePages()).find((entry) => entry.page === '1');
		expect(promoted).toEqual({ list: 'active_file', page: '1', fields: { referenced: '0', active: '1', accessed: '0', eviction: '0', refault_distance: '0' } });
		await expect(lab.byTestId('narration')).toContainText(/activ|promot/i);
		await lab.screenshot('step-linux');
	});

	test('a mapped file page accessed twice only gets its accessed bit and stays inactive', async ({ lab }) => {
		await lab.setScenario({ policy: 'linux', frames: 4, refs: '1 2 1', params: { ...FILE_PAGES_ONLY, file_access: 'mapped' } });
		await lab.goToStep(3);
		expect(await lab.listPages('inactive_file')).toEqual(['2', '1']);
		expect(await lab.listPages('active_file')).toEqual([]);
		const page1 = (await lab.structurePages()).find((entry) => entry.page === '1');
		expect(page1.fields.accessed).toBe('1');
	});
});
