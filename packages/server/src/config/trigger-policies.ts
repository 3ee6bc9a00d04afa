import type { TriggerPolicyFactory } from '@compaction/core';
import { cacheAwareTriggerFromConfig } from '@compaction/strategy-kit';

/** The trigger policies a config may name in `triggerPolicy`, on the wall clock. */
export const cliTriggerPolicies: Readonly<Record<string, TriggerPolicyFactory>> = {
  'cache-aware': (options) => cacheAwareTriggerFromConfig(options),
};

/** The same, on a replay's clock, for `simulate`. */
export function replayTriggerPolicies(now: () => number): Readonly<Record<string, TriggerPolicyFactory>> {
  return { 'cache-aware': (options) => cacheAwareTriggerFromConfig(options, now) };
}
