/** A context window a transcript is evaluated at. */
export interface EvaluationWindow {
  /** `16k`, `32k`, `64k` or `scaled`. */
  label: string;
  contextWindow: number;
}

/** The fixed windows every transcript is run at. */
export const fixedWindows: readonly EvaluationWindow[] = [
  { label: '16k', contextWindow: 16_000 },
  { label: '32k', contextWindow: 32_000 },
  { label: '64k', contextWindow: 64_000 },
];

/**
 * Share of a transcript's size the scaled window has. With Compaction's default budget (a quarter of a small
 * window reserved for output, 5% margin, trigger at 0.85 of the limit) the limit is about half the transcript
 * and compaction fires at about 40% of it, so every transcript needs compaction at least once.
 */
export const scaledWindowShare = 0.7;

/** The scaled window of a transcript of `tokens` tokens, rounded up to 500 tokens (at least 1,000). */
export function scaledWindow(tokens: number): EvaluationWindow {
  return {
    label: 'scaled',
    contextWindow: Math.max(1000, Math.ceil((tokens * scaledWindowShare) / 500) * 500),
  };
}
