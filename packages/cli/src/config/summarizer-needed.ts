/**
 * Whether any strategy entry among `entries` is a summarization that calls a model: its name as a string, or
 * an entry named `summarization` whose `maxOutputTokens` is not 0 (with 0, the summary is the artifact trail
 * alone and no provider is needed). Entries nested in options, such as the `native` strategy's fallback, count.
 */
export function needsSummarizerProvider(entries: unknown): boolean {
  if (entries === 'summarization') return true;
  if (Array.isArray(entries)) return entries.some(needsSummarizerProvider);
  if (typeof entries !== 'object' || entries === null) return false;
  const entry = entries as { name?: unknown; options?: unknown };
  const options = entry.options as { maxOutputTokens?: unknown } | undefined;
  if (entry.name === 'summarization' && options?.maxOutputTokens !== 0) return true;
  // Any value in the options may hold strategy entries (a fallback, a list of stages).
  return (
    typeof options === 'object' && options !== null && Object.values(options).some(needsSummarizerProvider)
  );
}
