import { anthropicProfile, createTextEstimator, o200kProfile } from '@compaction/token-estimator';
import { describe, expect, it } from 'vitest';
import { CompactionError } from '../errors/compaction-error.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { createFastEstimator } from './fast-estimator.js';
import { defaultMessageOverhead } from './message-estimator.js';
import { createTokenCounter } from './token-counter.js';

const estimator = createFastEstimator();

describe('createFastEstimator', () => {
  it('counts text as the text estimator of the same profile does', () => {
    const text = 'The agent reads 上下文 and getUserName(42) 😀\n'.repeat(8);
    expect(estimator.countText(text)).toBe(createTextEstimator().countText(text));
    const anthropic = createFastEstimator({ profile: anthropicProfile, safetyFactor: 2 });
    expect(anthropic.name).toBe('fast:anthropic');
    expect(anthropic.countText(text)).toBe(
      createTextEstimator({ profile: anthropicProfile, safetyFactor: 2 }).countText(text),
    );
  });

  it('counts through the vocabulary by default, and by the features when asked, as the text estimator does', () => {
    const text = '压缩对话历史以保持在上下文窗口之内。'.repeat(20);
    const features = createFastEstimator({ vocabulary: false });
    expect(estimator.countText(text)).toBe(createTextEstimator().countText(text));
    expect(features.countText(text)).toBe(createTextEstimator({ vocabulary: false }).countText(text));
    expect(features.name).toBe('features:o200k');
    expect(features.countText(text)).not.toBe(estimator.countText(text));
  });

  it('counts messages with the message overhead', () => {
    const text = 'Run the tests.';
    expect(estimator.countMessage({ role: 'user', content: [{ type: 'text', text }] })).toBe(
      defaultMessageOverhead.message + defaultMessageOverhead.part + estimator.countText(text),
    );
    const custom = createFastEstimator({ overhead: { message: 10 } });
    expect(custom.countMessage({ role: 'user', content: [] })).toBe(10);
  });

  it('is the default estimator of the token counter', () => {
    expect(createTokenCounter().estimator.name).toBe('fast:o200k');
  });

  it('rejects a bad safety factor or weight with a typed error', () => {
    expect(() => createFastEstimator({ safetyFactor: 0 })).toThrow(InvalidOptionsError);
    try {
      createFastEstimator({
        profile: { ...o200kProfile, weights: { ...o200kProfile.weights, cjk: Number.NaN } },
      });
      expect.unreachable('the profile is invalid');
    } catch (error) {
      expect(CompactionError.isInstance(error)).toBe(true);
      expect((error as InvalidOptionsError).issues.map((issue) => issue.path)).toEqual([
        'profile.weights.cjk',
      ]);
      expect((error as Error).message).toMatch(/fast estimator: profile\.weights\.cjk/);
    }
  });
});
