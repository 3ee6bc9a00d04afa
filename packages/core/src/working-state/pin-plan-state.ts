import { compactionMetadataOf, withCompactionMetadata } from '../messages/compaction-metadata.js';
import type { Message, Metadata } from '../messages/message.js';
import { findPlanState } from './find-plan-state.js';
import type { PlanStateOptions } from './plan-tools.js';

/** The mark of a pin this module set, so that it can take it back when the plan moves on. */
const planPin = 'plan';

/**
 * A copy of `messages` in which the latest plan or todo state ({@link findPlanState}) is pinned, so every
 * strategy keeps it verbatim. A plan state pinned here before and now superseded is unpinned again, so only
 * the latest plan stays pinned; pins set by anyone else are left as they are. The input is not mutated, and
 * messages that need no change are the same objects.
 */
export function pinPlanState(messages: readonly Message[], options: PlanStateOptions = {}): Message[] {
  const latest = new Set(findPlanState(messages, options));
  return messages.map((message, index) => {
    const marks = compactionMetadataOf(message);
    if (latest.has(index)) {
      return marks?.pinned === true
        ? message
        : withCompactionMetadata(message, { pinned: true, pinnedBy: planPin });
    }
    return marks?.pinned === true && marks.pinnedBy === planPin ? withoutPlanPin(message) : message;
  });
}

/** A copy of `message` without the plan pin: its other marks and metadata kept, empty records dropped. */
function withoutPlanPin<M extends Message>(message: M): M {
  const { pinned: _pinned, pinnedBy: _pinnedBy, ...marks } = compactionMetadataOf(message) ?? {};
  const { compaction: _compaction, ...others } = message.metadata ?? {};
  const metadata: Metadata = Object.keys(marks).length > 0 ? { ...others, compaction: marks } : others;
  const { metadata: _metadata, ...rest } = message;
  return (Object.keys(metadata).length > 0 ? { ...rest, metadata } : rest) as M;
}
