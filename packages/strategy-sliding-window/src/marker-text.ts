/** The text of the marker left where `count` messages were skipped. */
export function markerText(count: number): string {
  return `[${count} earlier ${count === 1 ? 'message' : 'messages'} skipped to fit the context window.]`;
}
