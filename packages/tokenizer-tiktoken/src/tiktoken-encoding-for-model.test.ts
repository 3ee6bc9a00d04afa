import { describe, expect, it } from 'vitest';
import { encodingForModel } from './tiktoken-encoding-for-model.js';

describe('encodingForModel', () => {
  it.each([
    ['gpt-4o', 'o200k_base'],
    ['gpt-4o-mini-2024-07-18', 'o200k_base'],
    ['gpt-4.1', 'o200k_base'],
    ['gpt-5-mini', 'o200k_base'],
    ['o3-mini', 'o200k_base'],
    ['openai/gpt-oss-120b', 'o200k_base'],
    ['a-model-from-next-year', 'o200k_base'],
    ['gpt-4', 'cl100k_base'],
    ['gpt-4-turbo', 'cl100k_base'],
    ['gpt-4-0613', 'cl100k_base'],
    ['GPT-3.5-Turbo', 'cl100k_base'],
    ['ft:gpt-3.5-turbo:acme::abc123', 'cl100k_base'],
    ['text-embedding-3-small', 'cl100k_base'],
  ])('%s uses %s', (model, encoding) => {
    expect(encodingForModel(model)).toBe(encoding);
  });
});
