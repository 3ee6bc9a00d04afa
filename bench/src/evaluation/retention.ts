import type { Message } from '@compaction/core';
import { contextText } from './context-text.js';
import { type Probe, type ProbeKind, probeKinds } from './probe.js';

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
  byKind: Record<ProbeKind, KindRetention>;
  lost: Probe[];
}

/** Measures which probes are still present, as text, in a context. */
export function measureRetention(probes: readonly Probe[], context: readonly Message[]): Retention {
  const text = contextText(context);
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
  return { total: probes.length, kept, share: probes.length === 0 ? 1 : kept / probes.length, byKind, lost };
}
