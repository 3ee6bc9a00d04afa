/**
 * Splits text into the pieces that byte-pair encoding then encodes one by one, with the tokenizer's pattern,
 * as tiktoken does (its `find_iter`: the matches, left to right, text between them skipped).
 *
 * The sticky expression's `test` finds each piece without allocating a match; where it does not match at the
 * current position (no character the patterns leave out is known, but tiktoken skips such text), a search
 * finds the next match.
 */
export class PreTokenizer {
  /** The current piece is text[start..end). */
  start = 0;
  end = 0;
  private readonly sticky: RegExp;
  private readonly searching: RegExp;

  constructor(pattern: string) {
    this.sticky = new RegExp(pattern, 'uy');
    this.searching = new RegExp(pattern, 'ug');
  }

  /** Starts over at the beginning of a text. */
  reset(): void {
    this.start = 0;
    this.end = 0;
  }

  /** Moves to the next piece of text; false at the end. */
  next(text: string): boolean {
    const from = this.end;
    if (from >= text.length) return false;
    this.sticky.lastIndex = from;
    if (this.sticky.test(text) && this.sticky.lastIndex > from) {
      this.start = from;
      this.end = this.sticky.lastIndex;
      return true;
    }
    return this.search(text, from);
  }

  private search(text: string, from: number): boolean {
    this.searching.lastIndex = from;
    for (;;) {
      const match = this.searching.exec(text);
      if (match === null) {
        this.end = text.length;
        return false;
      }
      if (match[0].length > 0) {
        this.start = match.index;
        this.end = match.index + match[0].length;
        return true;
      }
      // An empty match moves nothing: step past it (by a whole code point, as the `u` flag does).
      this.searching.lastIndex = match.index + 1;
    }
  }
}
