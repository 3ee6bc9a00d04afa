import { costPolicies } from './cost-policies.js';
import { basePolicies, type Policy } from './policies.js';

/** Every policy evaluated: Compaction's strategies and pipelines, the cost levers, then the references. */
export const policies: readonly Policy[] = [
  ...basePolicies.filter((policy) => policy.kind !== 'reference'),
  ...costPolicies.filter((policy) => policy.kind !== 'reference'),
  ...basePolicies.filter((policy) => policy.kind === 'reference'),
  ...costPolicies.filter((policy) => policy.kind === 'reference'),
];
