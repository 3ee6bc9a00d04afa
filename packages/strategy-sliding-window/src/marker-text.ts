/**
 * The text of the marker left where `count` messages were skipped; with `recall` (the hint of the archived
 * messages), it says how to read them again.
 */
export function markerText(count: number, recall?: string): string {
  const messages = count === 1 ? 'message' : 'messages';
  if (recall === undefined) return `[${count} earlier ${messages} skipped to fit the context window.]`;
  return `[${count} earlier ${messages} skipped to fit the context window; ${recall} to read ${count === 1 ? 'it' : 'them'}.]`;
}
