import type { NativeCompaction } from '@compaction/core';

/**
 * A provider's own compaction, as the adapters offer it in their providers' `nativeCompaction`.
 * @deprecated The spec is core's `NativeCompaction` (a member of core's `Provider`): use that.
 */
export type ProviderNativeCompaction = NativeCompaction;
