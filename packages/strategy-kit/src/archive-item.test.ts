import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { archiveItem, recallHandlesIn, recallHint } from './archive-item.js';

describe('archive items', () => {
  it('name one text with one handle, and different texts with different handles', () => {
    expect(archiveItem('a', 'same text').handle).toBe(archiveItem('b', 'same text').handle);
    const handles = new Set(
      Array.from({ length: 20_000 }, (_, index) => archiveItem('x', `output ${index}`).handle),
    );
    expect(handles.size).toBe(20_000);
  });

  it('have handles the core accepts and the hints name them so they can be found again', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }),
        fc.array(fc.string({ maxLength: 200 }), { maxLength: 5 }),
        (text, others) => {
          const item = archiveItem('output', text);
          expect(item.handle).toMatch(/^[a-z0-9]{11}$/);
          expect(item.text).toBe(text);
          const hint = `[${item.label}, cleared: ${recallHint(item)}]`;
          const around = [...others, hint, ...others].join('\n');
          expect(recallHandlesIn(around)).toContain(item.handle);
        },
      ),
    );
  });

  it('finds each handle once, in order', () => {
    const text = 'see recall "b2" and recall "a1", again recall "b2"; not recall a1 nor recall "has space"';
    expect(recallHandlesIn(text)).toEqual(['b2', 'a1']);
  });
});

describe('recallHandlesIn', () => {
  it('finds hints in plain text and in JSON text, each handle once', () => {
    const text = `see recall "a1" and ${JSON.stringify({ note: 'recall "b2"' })}, again recall "a1"`;
    expect(recallHandlesIn(text)).toEqual(['a1', 'b2']);
  });
});
