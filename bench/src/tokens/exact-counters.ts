import { get_encoding, type Tiktoken, type TiktokenEncoding } from 'tiktoken';

/** An exact token counter over tiktoken; special-token strings count as ordinary text. */
export interface ExactCounter {
  count(text: string): number;
  free(): void;
}

export function createExactCounter(encoding: TiktokenEncoding): ExactCounter {
  const encoder: Tiktoken = get_encoding(encoding);
  return {
    // No special tokens allowed, none disallowed: `<|endoftext|>` is encoded as plain text.
    count: (text) => encoder.encode(text, [], []).length,
    free: () => encoder.free(),
  };
}
