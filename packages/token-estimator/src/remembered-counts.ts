/** Which texts a {@link RememberedCounts} keeps, and how many characters of them at most. */
export interface RememberedLengths {
  /** Texts shorter than this are counted again. */
  shortest: number;
  /** Texts longer than this are counted again. */
  longest: number;
  /** At most this many characters of text are kept, then all are forgotten at once. */
  characters: number;
}

/**
 * The token counts of texts already counted, by their text, for counts that cost more than a lookup: an
 * estimator's texts counted through the vocabulary (byte-pair merging costs several times the feature scan,
 * and a proxy parses every request anew, so each resent message is a new object that core's per-message memo
 * cannot know), and a vocabulary's stretches around characters outside ASCII (cut by a regular expression,
 * the same few line after line). Bounded by characters and forgotten at once when full, which keeps it cheap
 * to run.
 */
export class RememberedCounts {
  private readonly counts = new Map<string, number>();
  private characters = 0;
  private readonly lengths: RememberedLengths;

  /** By default, texts of 64 characters and more (shorter ones cost about a lookup), 4 million characters (8 MB). */
  constructor(
    lengths: RememberedLengths = { shortest: 64, longest: Number.POSITIVE_INFINITY, characters: 4_000_000 },
  ) {
    this.lengths = lengths;
  }

  /** The remembered count of `text`, or `count()`'s, remembered. */
  count(text: string, count: () => number): number {
    const known = this.counts.get(text);
    if (known !== undefined) return known;
    const counted = count();
    const { shortest, longest, characters } = this.lengths;
    if (text.length >= shortest && text.length <= longest) {
      if (this.characters + text.length > characters) {
        this.counts.clear();
        this.characters = 0;
      }
      this.counts.set(text, counted);
      this.characters += text.length;
    }
    return counted;
  }
}
