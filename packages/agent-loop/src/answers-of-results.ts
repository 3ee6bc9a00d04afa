import type { ItemAnswers } from './conversation-adapter.js';

/**
 * The `answersOf` of an API whose tool results are items of their own (a tool message, a function output):
 * the items answer the calls their results name, and any other item closes the turn.
 */
export function answersOfResults<Item>(
  resultCallId: (item: Item) => string | undefined,
): (items: readonly Item[]) => ItemAnswers {
  return (items) => {
    const ids = items.map(resultCallId);
    return {
      callIds: ids.filter((id): id is string => id !== undefined),
      closesTurn: ids.includes(undefined),
    };
  };
}
