import type { NativeCompaction, Provider } from '@compaction/core';

/** The native compaction a configured provider offers, if any (its `nativeCompaction`). */
export function nativeCompactionOf(provider: Provider | undefined): NativeCompaction | undefined {
  return provider?.nativeCompaction;
}
