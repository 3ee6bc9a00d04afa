import { findMessageIssues } from '@compaction/core';
import { deepFreeze } from '@compaction/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mastraMessagesArbitrary } from '../__fixtures__/mastra-message-arbitrary.js';
import { fromMastra } from './from-mastra.js';
import { toMastra } from './to-mastra.js';

describe('fromMastra and toMastra', () => {
  it('give Mastra messages back as they were, through plain JSON core messages', () => {
    fc.assert(
      fc.property(mastraMessagesArbitrary, (messages) => {
        const core = fromMastra(deepFreeze(messages));
        expect(toMastra(structuredClone(core))).toEqual(messages);
      }),
    );
  });

  it('make core messages the core accepts', () => {
    fc.assert(
      fc.property(mastraMessagesArbitrary, (messages) => {
        expect(findMessageIssues(fromMastra(messages))).toEqual([]);
      }),
    );
  });
});
