/** A figure as providers print it, thousands separators allowed ("130,512"). */
const figure = String.raw`(\d[\d,]*)`;

/** The figures providers state in their refusals; the phrase-anchored OpenAI form before the looser Anthropic one. */
const figurePatterns: ReadonlyArray<{ pattern: RegExp; request: number; maximum: number }> = [
  // OpenAI: "maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens"
  {
    pattern: new RegExp(
      `maximum context length is ${figure} tokens.*?(?:resulted in|requested) ${figure}`,
      'is',
    ),
    request: 2,
    maximum: 1,
  },
  // Anthropic: "prompt is too long: 210000 tokens > 200000 maximum"
  { pattern: new RegExp(`${figure} tokens? > ${figure}`, 'i'), request: 1, maximum: 2 },
];

/**
 * The request's size and the model's maximum that a provider's "too long" message states, as OpenAI ("maximum
 * context length is 128000 tokens. However, your messages resulted in 130,512 tokens") and Anthropic ("prompt is
 * too long: 210000 tokens > 200000 maximum") word them, for integrations that see a model's refusal only as text
 * (through another SDK's error). `undefined` when the text states neither form; it does not decide whether the
 * text is an overflow at all.
 */
export function overflowFiguresOfText(
  text: string,
): { requestTokens: number; maximumTokens: number } | undefined {
  for (const { pattern, request, maximum } of figurePatterns) {
    const match = pattern.exec(text);
    if (match === null) continue;
    const tokensAt = (index: number) => Number(match[index]!.replaceAll(',', ''));
    return { requestTokens: tokensAt(request), maximumTokens: tokensAt(maximum) };
  }
  return undefined;
}
