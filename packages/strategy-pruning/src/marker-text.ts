/**
 * The text of the marker left where `count` messages were removed; with `recall` (the hint of the archived
 * messages), it says how to read them again.
 */
export function markerText(count: number, recall?: string): string {
  const messages = count === 1 ? 'message' : 'messages';
  if (recall === undefined) return `[${count} earlier ${messages} removed to save space.]`;
  return `[${count} earlier ${messages} removed to save space; ${recall} to read ${count === 1 ? 'it' : 'them'}.]`;
}
