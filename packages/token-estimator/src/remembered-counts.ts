/**
 * The counts of the texts an estimator counted through the vocabulary, by their text: byte-pair merging costs
 * several times the feature scan, and the same texts come back (a proxy parses every request anew, so each
 * resent message is a new object that core's per-message memo cannot know). Short texts are cheap to count and
 * not kept; the whole is bounded by characters and forgotten at once when full, which keeps it cheap to run.
 */
export class RememberedCounts {
  private readonly counts = new Map<string, number>();
  private characters = 0;

  /** The remembered count of `text`, or `count()`'s, remembered. */
  count(text: string, count: () => number): number {
    const known = this.counts.get(text);
    if (known !== undefined) return known;
    const counted = count();
    if (text.length >= minimumLength) {
      if (this.characters + text.length > maximumCharacters) {
        this.counts.clear();
        this.characters = 0;
      }
      this.counts.set(text, counted);
      this.characters += text.length;
    }
    return counted;
  }
}

/** Texts shorter than this are counted again: a lookup would cost about as much. */
const minimumLength = 64;
/** At most this many characters of text are kept (about 8 MB of strings). */
const maximumCharacters = 4_000_000;
