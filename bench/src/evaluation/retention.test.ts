import { describe, expect, it } from 'vitest';
import { assistant, toolTurn, user } from './__fixtures__/messages.js';
import { contextText } from './context-text.js';
import { measureRetention } from './retention.js';

describe('contextText', () => {
  it('reads tool inputs as raw values, so quoted commands match as typed', () => {
    const [call, result] = toolTurn(
      '1',
      'bash',
      { command: 'grep -n "x y" a.py', timeout: 30 },
      'a.py:1: x y',
    );
    const text = contextText([call, result]);
    expect(text).toContain('grep -n "x y" a.py');
    expect(text).toContain('30');
    expect(text).not.toContain('\\"');
  });

  it('collapses whitespace', () => {
    expect(contextText([user('a\n\n  b'), assistant('c\td')])).toBe('a b c d');
  });
});

describe('measureRetention', () => {
  it('counts the probes still present, by kind, and lists the lost ones', () => {
    const context = [user('Fix src/app.py'), ...toolTurn('1', 'bash', { command: 'pytest' }, 'ok')];
    const retention = measureRetention(
      [
        { kind: 'task', text: 'Fix src/app.py' },
        { kind: 'file', text: 'src/app.py' },
        { kind: 'command', text: 'pytest' },
        { kind: 'error', text: 'TypeError: boom' },
      ],
      context,
    );
    expect(retention.kept).toBe(3);
    expect(retention.total).toBe(4);
    expect(retention.share).toBe(0.75);
    expect(retention.byKind.error).toEqual({ total: 1, kept: 0 });
    expect(retention.byKind.file).toEqual({ total: 1, kept: 1 });
    expect(retention.lost).toEqual([{ kind: 'error', text: 'TypeError: boom' }]);
  });

  it('is complete when there is nothing to keep', () => {
    expect(measureRetention([], []).share).toBe(1);
  });
});
