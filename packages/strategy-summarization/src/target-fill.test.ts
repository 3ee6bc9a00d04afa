import { protectedTokens } from '@compaction/testing';
import { describeTargetFill } from '@compaction/testing/vitest';
import { summarizingProvider } from './__fixtures__/summaries.js';
import { createSummarization } from './create-summarization.js';

/** The default share of the target kept as verbatim recent turns. */
const recentShare = 0.3;
/** Room for the summary message's header beside the protected turns. */
const summaryHeader = 64;

/**
 * Summarization ends below its target by design: the summarized span becomes one short summary. What it must
 * not do is end far below it without cause. When the protected turns are small (a tenth of the target) and the
 * history has more than the target beyond them, its verbatim recent turns take `recentShare` of the target,
 * less the allowance of every strategy (the slack, one turn's calls and text, a few tokens per gap): a huge
 * tool result among them is shortened to fill that share rather than summarized with everything older. It
 * reaches every target that holds the protected turns and a summary's header.
 */
for (const archive of [false, true]) {
  // Archiving, the header names a recall handle: its room grows by what the hint and its words cost.
  const header = archive ? summaryHeader + 36 : summaryHeader;
  describeTargetFill('summarization', {
    strategy: () => createSummarization({ provider: summarizingProvider() }),
    // Results up to 400,000 characters: the summarizer's requests are rendered from them, run after run.
    hugeResult: { maxCharacters: 400_000 },
    floor: (messages, counter) => protectedTokens(messages, counter, { archive }) + header,
    lowerBound: ({ total, target, floor, allowance }) =>
      floor - header <= target * 0.1 && total - floor >= target ? recentShare * target - allowance : 0,
    ...(archive ? { archive, numRuns: 100 } : {}),
  });
}
