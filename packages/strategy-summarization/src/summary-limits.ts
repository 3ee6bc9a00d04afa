/**
 * Below this many tokens for the summary text, the LLM is not asked and no digest is written: so little text
 * would say nothing the verbatim task and the trail do not already say.
 */
export const minimumSummaryTokens = 48;

/** What the blank lines between the header, the summary text and the trail may cost. */
export const separatorTokens = 2;

/**
 * How far (as a share of its room) a summary may overshoot and still be shortened rather than rejected:
 * about what separates one tokenizer's count from another's.
 */
export const shortenableOverflow = 0.25;
