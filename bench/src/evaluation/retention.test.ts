import { archiveItem, recallHint } from '@compaction/strategy-kit';
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
    expect(measureRetention([], []).recoverableShare).toBe(1);
  });

  it('counts as recoverable the probes reachable through handles the context names, and through their texts', () => {
    const masked = archiveItem('bash output', 'Traceback\nTypeError: boom');
    const dropped = archiveItem(
      'turns 2-5',
      `[bash output, cleared: ${recallHint(masked)}]\nedited lib/util.py`,
    );
    const stranger = archiveItem('other', 'KeyError: never named');
    const archived = new Map([masked, dropped, stranger].map((item) => [item.handle, item]));
    const context = [user('Fix src/app.py'), assistant(`[4 messages removed: ${recallHint(dropped)}]`)];
    const retention = measureRetention(
      [
        { kind: 'task', text: 'Fix src/app.py' },
        { kind: 'error', text: 'TypeError: boom' },
        { kind: 'file', text: 'lib/util.py' },
        { kind: 'error', text: 'KeyError: never named' },
      ],
      context,
      archived,
    );
    expect(retention.kept).toBe(1);
    expect(retention.recoverable).toBe(3);
    expect(retention.recoverableShare).toBe(0.75);
    expect(retention.lost.map((probe) => probe.text)).toContain('KeyError: never named');
  });
});
