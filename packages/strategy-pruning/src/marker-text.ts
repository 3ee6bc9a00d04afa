/** The text of the marker left where `count` messages were removed. */
export function markerText(count: number): string {
  return `[${count} earlier ${count === 1 ? 'message' : 'messages'} removed to save space.]`;
}
