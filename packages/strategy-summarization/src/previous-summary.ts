import { compactionMetadataOf, type Message, textOf } from '@compaction/core';
import {
  type ArtifactTrail,
  emptyArtifactTrail,
  mergeArtifactTrails,
  parseArtifactTrail,
} from './artifact-trail.js';
import { readRenderedSummary } from './read-rendered-trail.js';

/** What earlier summaries carry into the next one. */
export interface PreviousSummary {
  /** The summarizer-written text (without the header and the trail), joined when there are several. */
  text: string | undefined;
  /** The artifact trail carried in their metadata. */
  trail: ArtifactTrail;
  /** The highest summary round among them (0 when there are none). */
  round: number;
  /** Messages they summarized in total, as recorded. */
  summarizedMessages: number;
}

/**
 * Reads earlier summaries. A summary written by this strategy carries its own text and trail in
 * `metadata.compaction`; one read back from a provider's format, its metadata gone, gives them in its text
 * (the body under its first line, the trail as rendered); a summary from another strategy contributes its
 * message text.
 */
export function readPreviousSummaries(summaries: readonly Message[]): PreviousSummary {
  const texts: string[] = [];
  let trail = emptyArtifactTrail();
  let round = 0;
  let summarizedMessages = 0;
  for (const message of summaries) {
    const marks = compactionMetadataOf(message);
    // Read back from a provider's format, a summary has lost its metadata: its text says the same.
    const rendered =
      message.metadata?.compaction === undefined ? readRenderedSummary(textOf(message)) : undefined;
    const text =
      typeof marks?.summaryText === 'string'
        ? marks.summaryText
        : rendered
          ? (rendered.body ?? '')
          : textOf(message);
    if (text.trim().length > 0) texts.push(text.trim());
    const carried = parseArtifactTrail(marks?.artifactTrail) ?? rendered?.trail;
    if (carried !== undefined) trail = mergeArtifactTrails(trail, carried);
    const summaryRound = typeof marks?.summaryRound === 'number' ? marks.summaryRound : marks?.round;
    if (typeof summaryRound === 'number' && summaryRound > round) round = summaryRound;
    if (typeof marks?.summarizedMessages === 'number') summarizedMessages += marks.summarizedMessages;
  }
  return {
    text: texts.length === 0 ? undefined : texts.join('\n\n'),
    trail,
    round: summaries.length > 0 && round === 0 ? 1 : round,
    summarizedMessages,
  };
}
