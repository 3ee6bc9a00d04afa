import { createFastEstimator } from '@compaction/core';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { createExactCounter } from './exact-counters.js';

/** A text counter under benchmark. */
export interface BenchCounter {
  name: string;
  count: (text: string) => number;
}

const noSpecialTokens = { disallowedSpecial: new Set<string>() };

/** The counters compared by the benchmark; `free` releases tiktoken's encoder. */
export function createBenchCounters() {
  const tiktoken = createExactCounter('o200k_base');
  const features = createFastEstimator({ vocabulary: false });
  const counters = {
    features: {
      name: 'fast estimator (o200k profile, features)',
      count: (text: string) => features.countText(text),
    },
    quarter: { name: 'chars/4', count: (text: string) => Math.ceil(text.length / 4) },
    tiktoken: { name: 'tiktoken o200k_base', count: tiktoken.count },
    gptTokenizer: {
      name: 'gpt-tokenizer o200k_base',
      count: (text: string) => countTokens(text, noSpecialTokens),
    },
  } satisfies Record<string, BenchCounter>;
  return { counters, free: tiktoken.free };
}
