import { describe, expect, it } from 'vitest';
import { truncateText } from './truncate-text.js';

describe('truncateText', () => {
  it('returns text that fits unchanged', () => {
    expect(truncateText('short', 10)).toBe('short');
  });

  it('keeps two thirds from the start and one third from the end, whole lines when a break is near', () => {
    const text = Array.from({ length: 100 }, (_, index) => `line ${index}`).join('\n');
    const result = truncateText(text, 300);
    const [head, note, tail] = result.split(/\n(\[\.\.\. \d+ characters omitted \.\.\.\])\n/);
    expect(text.startsWith(head!)).toBe(true);
    expect(text.endsWith(tail!)).toBe(true);
    expect(head!.length).toBeGreaterThan(160);
    expect(head!.length).toBeLessThanOrEqual(200);
    expect(tail!.startsWith('line ')).toBe(true);
    expect(note).toBe(`[... ${text.length - head!.length - tail!.length} characters omitted ...]`);
  });

  it('cuts anywhere in text without line breaks', () => {
    const result = truncateText('x'.repeat(1000), 90);
    expect(result).toBe(`${'x'.repeat(60)}\n[... 910 characters omitted ...]\n${'x'.repeat(30)}`);
  });
});

describe('truncateText with a recall hint', () => {
  it('names the hint in its note, and leaves text that fits alone', () => {
    const hint = 'recall "abc"';
    expect(truncateText('x'.repeat(1000), 90, hint)).toBe(
      `${'x'.repeat(60)}\n[... 910 characters omitted; recall "abc" for the whole output ...]\n${'x'.repeat(30)}`,
    );
    expect(truncateText('short', 10, hint)).toBe('short');
  });
});
