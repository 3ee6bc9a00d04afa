import { createTokenCounter } from '@compaction/core';
import { defaultPriceModel } from '@compaction/simulation';
import { archiveItem, recallHint } from '@compaction/strategy-kit';
import { describe, expect, it } from 'vitest';
import { assistant, user } from './__fixtures__/messages.js';
import { recallCost, recallMessages } from './recall-cost.js';

const counter = createTokenCounter();
const masked = archiveItem('bash output', 'Traceback\nTypeError: boom\nValueError: also here');
const dropped = archiveItem('turns 2-5', `[bash output, cleared: ${recallHint(masked)}]\nedited lib/util.py`);
const stranger = archiveItem('other', 'KeyError: never named');
const archived = new Map([masked, dropped, stranger].map((item) => [item.handle, item]));
const context = [user('Fix src/app.py'), assistant(`[4 messages removed: ${recallHint(dropped)}]`)];

describe('recallCost', () => {
  it('is nothing when no lost probe is reachable', () => {
    const cost = recallCost(
      [{ kind: 'error', text: 'KeyError: never named' }],
      context,
      archived,
      counter,
      defaultPriceModel,
    );
    expect(cost).toEqual({ calls: 0, inputTokens: 0, billedInputTokens: 0, outputTokens: 0 });
  });

  it('follows the chain of handles, one request per item, and answers later probes from items already recalled', () => {
    const probes = [
      { kind: 'error', text: 'TypeError: boom' },
      { kind: 'file', text: 'lib/util.py' },
      { kind: 'error', text: 'ValueError: also here' },
    ] as const;
    const cost = recallCost(probes, context, archived, counter, defaultPriceModel);
    // TypeError is two hops away (dropped names masked); the other two are in the items recalled for it.
    expect(cost.calls).toBe(2);
    const first = counter.count(recallMessages(dropped.handle, 0, dropped.text));
    const second = counter.count(recallMessages(masked.handle, 1, masked.text));
    const base = counter.count(context);
    expect(cost.inputTokens).toBe(base + first + (base + first + second));
    // With caching: what was sent before is read at 0.1, the new call and its result written at 1.25.
    expect(cost.billedInputTokens).toBeCloseTo(
      0.1 * base + 1.25 * first + 0.1 * (base + first) + 1.25 * second,
    );
    expect(cost.outputTokens).toBeGreaterThan(0);
  });

  it('bills every token at the input price without caching', () => {
    const probes = [{ kind: 'file', text: 'lib/util.py' }] as const;
    const cost = recallCost(probes, context, archived, counter, { ...defaultPriceModel, caching: false });
    expect(cost.calls).toBe(1);
    expect(cost.billedInputTokens).toBe(cost.inputTokens);
  });
});
