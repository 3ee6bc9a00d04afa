import type { ArchivedItem, Message } from '@compaction/core';
import { recallHandlesIn } from '@compaction/strategy-kit';
import { contextText } from './context-text.js';
import { normalizeText, type Probe, type ProbeKind, probeKinds } from './probe.js';

/** How many probes of one kind there were and how many survived. */
export interface KindRetention {
  total: number;
  kept: number;
}

/** What survived of a conversation's probes in a compacted context. */
export interface Retention {
  total: number;
  kept: number;
  /** `kept / total`, 1 when there are no probes. */
  share: number;
  /** Probes present, or reachable through a recall handle the context names (directly or through the text of another). */
  recoverable: number;
  /** `recoverable / total`, 1 when there are no probes. */
  recoverableShare: number;
  byKind: Record<ProbeKind, KindRetention>;
  lost: Probe[];
}

/**
 * Measures which probes are still present, as text, in a context, and which a model could still get back with
 * the `recall` tool from `archived` (the session's archive, by handle).
 */
export function measureRetention(
  probes: readonly Probe[],
  context: readonly Message[],
  archived: ReadonlyMap<string, ArchivedItem> = new Map(),
): Retention {
  const text = contextText(context);
  const reachable = reachableText(text, archived);
  const byKind = Object.fromEntries(probeKinds.map((kind) => [kind, { total: 0, kept: 0 }])) as Record<
    ProbeKind,
    KindRetention
  >;
  const lost: Probe[] = [];
  for (const probe of probes) {
    const counts = byKind[probe.kind];
    counts.total++;
    if (text.includes(probe.text)) counts.kept++;
    else lost.push(probe);
  }
  const kept = probes.length - lost.length;
  const recoverable = kept + lost.filter((probe) => reachable.includes(probe.text)).length;
  const share = (count: number) => (probes.length === 0 ? 1 : count / probes.length);
  return {
    total: probes.length,
    kept,
    share: share(kept),
    recoverable,
    recoverableShare: share(recoverable),
    byKind,
    lost,
  };
}

/** The normalized texts of every archived item a handle in `text` leads to, following handles inside them too. */
function reachableText(text: string, archived: ReadonlyMap<string, ArchivedItem>): string {
  const seen = new Set<string>();
  const pending = recallHandlesIn(text);
  const texts: string[] = [];
  while (pending.length > 0) {
    const handle = pending.pop()!;
    const item = archived.get(handle);
    if (item === undefined || seen.has(handle)) continue;
    seen.add(handle);
    texts.push(normalizeText(item.text));
    pending.push(...recallHandlesIn(item.text));
  }
  return texts.join('\n');
}
