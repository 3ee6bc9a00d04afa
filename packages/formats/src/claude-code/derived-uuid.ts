import { createHash } from 'node:crypto';

/**
 * A UUID-shaped id derived from a seed, for the lines Compaction writes: the same input gives the same output
 * (compaction is deterministic), and the id looks like the random v4 ids Claude Code writes.
 */
export function derivedUuid(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
