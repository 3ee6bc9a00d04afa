/**
 * Shortens `text` to about `keepCharacters`: two thirds from the start and one third from the end (where
 * commands print their errors and summaries), with a note in between saying how many characters were
 * omitted. Cuts fall on line breaks when one is near (within a fifth of the head, or half of the tail), so kept lines
 * stay whole. With `recall` (a recall hint, see `recallHint`), the note also names where the whole text is.
 */
export function truncateText(text: string, keepCharacters: number, recall?: string): string {
  const keep = Math.max(0, Math.floor(keepCharacters));
  if (text.length <= keep) return text;
  let headEnd = Math.ceil((keep * 2) / 3);
  let tailStart = text.length - (keep - headEnd);
  const lineBreak = text.lastIndexOf('\n', headEnd);
  if (lineBreak >= headEnd * 0.8 && lineBreak > 0) headEnd = lineBreak;
  // The tail is short (a third of what is kept): a line break within its first half is still worth a whole
  // first line, where a tighter allowance would leave short tails starting mid-line.
  const nextLine = text.indexOf('\n', tailStart);
  if (nextLine !== -1 && nextLine - tailStart <= (text.length - tailStart) * 0.5) tailStart = nextLine + 1;
  if (tailStart < headEnd) tailStart = headEnd;
  const omitted = tailStart - headEnd;
  const where = recall === undefined ? '' : `; ${recall} for the whole output`;
  return `${text.slice(0, headEnd)}\n[... ${omitted} characters omitted${where} ...]\n${text.slice(tailStart)}`;
}
