import { describe, expect, it } from 'vitest';
import { ConversionProblem } from './conversion-problem.js';

describe('ConversionProblem', () => {
  it('carries the path inside the message and the reason', () => {
    const problem = new ConversionProblem('content[2].input', 'must be JSON');
    expect(problem).toBeInstanceOf(Error);
    expect(problem.path).toBe('content[2].input');
    expect(problem.message).toBe('must be JSON');
  });
});
