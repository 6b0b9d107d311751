/*
 * usePolicyList - the core's policies, loaded once per client, for views that
 * offer a choice of policies (compare, charts).  A failure goes to onError.
 */
import { useEffect, useState } from 'react';
import type { PagelabClient, PolicyInfo } from '../wasm/protocol';

export function usePolicyList(client: PagelabClient, onError: (message: string) => void): PolicyInfo[] {
	const [policies, setPolicies] = useState<PolicyInfo[]>([]);
	useEffect(() => {
		let live = true;
		client.listPolicies().then(
			(list) => live && setPolicies(list),
			(e: Error) => live && onError(e.message),
		);
		return () => {
			live = false;
		};
	}, [client]);
	return policies;
}
