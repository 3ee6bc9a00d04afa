/** The tiktoken encodings this package counts with. */
export type TiktokenEncodingName = 'o200k_base' | 'cl100k_base';

/** The encodings, for validation and documentation. */
export const tiktokenEncodingNames: readonly TiktokenEncodingName[] = ['o200k_base', 'cl100k_base'];

/** Model id prefixes that use cl100k_base; every other OpenAI model since GPT-4o uses o200k_base. */
const cl100kPrefixes = ['gpt-4-', 'gpt-3.5', 'gpt-35', 'text-embedding-3', 'text-embedding-ada-002'];

/**
 * The encoding of an OpenAI model id: cl100k_base for GPT-4 (not 4o, 4.1 or 4.5), GPT-3.5 and the embedding
 * models; o200k_base for GPT-4o, GPT-4.1, GPT-4.5, GPT-5, the o-series, gpt-oss and any model not known
 * here, since every model released since GPT-4o uses it. Provider prefixes such as `openai/` and fine-tune
 * prefixes (`ft:`) are ignored.
 */
export function encodingForModel(modelId: string): TiktokenEncodingName {
  const id = modelId.toLowerCase().replace(/^.*\//, '').replace(/^ft:/, '');
  if (id === 'gpt-4' || cl100kPrefixes.some((prefix) => id.startsWith(prefix))) {
    // gpt-4-turbo and gpt-4-0613 are cl100k; gpt-4o, gpt-4.1 and gpt-4.5 do not match `gpt-4-`.
    return 'cl100k_base';
  }
  return 'o200k_base';
}
