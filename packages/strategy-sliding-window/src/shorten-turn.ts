import {
  type Message,
  type TokenCounter,
  type ToolMessage,
  type ToolResultPart,
  type Turn,
  truncateText,
  withCompactionMetadata,
} from '@compaction/core';

/** Tokens a truncation note adds to a result, allowed for when sharing out the room. */
const noteAllowance = 16;

interface ResultSize {
  messageIndex: number;
  partIndex: number;
  tokens: number;
  characters: number;
}

/**
 * Shortens the tool results of one turn (an assistant message and its tool messages) so that the turn
 * counts at most `room` tokens; the calls, and so the pairing, stay as they are. Every result is cut to
 * the same token cap, chosen so the largest results give up the most. Returns undefined when the turn has
 * no results to shorten or cannot fit even so.
 */
export function shortenTurn(
  messages: readonly Message[],
  turn: Turn,
  counter: TokenCounter,
  room: number,
  marks: { round: number; strategy: string },
): Message[] | undefined {
  const sizes: ResultSize[] = [];
  let turnTokens = 0;
  for (let index = turn.start; index < turn.end; index++) {
    const message = messages[index]!;
    const messageTokens = counter.countMessage(message);
    turnTokens += messageTokens;
    if (message.role !== 'tool') continue;
    const characters = message.content.map(resultCharacters);
    const messageCharacters = characters.reduce((sum, value) => sum + value, 0);
    message.content.forEach((_, partIndex) => {
      // The counter measures whole messages; a result's share of its message follows its share of the text.
      const share = messageCharacters === 0 ? 0 : characters[partIndex]! / messageCharacters;
      sizes.push({
        messageIndex: index,
        partIndex,
        tokens: messageTokens * share,
        characters: characters[partIndex]!,
      });
    });
  }
  if (sizes.length === 0 || turnTokens <= room) return undefined;
  const resultTokens = sizes.reduce((sum, size) => sum + size.tokens, 0);
  let available = room - (turnTokens - resultTokens) - noteAllowance * sizes.length;
  for (let attempt = 0; attempt < 4 && available > 0; attempt++) {
    const cap = waterLevel(
      sizes.map((size) => size.tokens),
      available,
    );
    const shortened = buildTurn(messages, turn, sizes, cap, marks);
    const tokens = counter.estimate(shortened);
    if (tokens <= room) return shortened;
    available -= tokens - room;
  }
  return undefined;
}

/** The cap `c` for which the sizes, each cut to `c`, add up to at most `available`. */
function waterLevel(sizes: readonly number[], available: number): number {
  const sorted = [...sizes].sort((left, right) => left - right);
  let remaining = available;
  for (let index = 0; index < sorted.length; index++) {
    const share = remaining / (sorted.length - index);
    if (sorted[index]! > share) return share;
    remaining -= sorted[index]!;
  }
  return Number.POSITIVE_INFINITY;
}

function buildTurn(
  messages: readonly Message[],
  turn: Turn,
  sizes: readonly ResultSize[],
  cap: number,
  marks: { round: number; strategy: string },
): Message[] {
  const result = messages.slice(turn.start, turn.end);
  const byMessage = new Map<number, ResultSize[]>();
  for (const size of sizes) {
    if (size.tokens <= cap) continue;
    const list = byMessage.get(size.messageIndex) ?? [];
    list.push(size);
    byMessage.set(size.messageIndex, list);
  }
  for (const [messageIndex, shortenedSizes] of byMessage) {
    const message = messages[messageIndex] as ToolMessage;
    const content = [...message.content];
    for (const size of shortenedSizes) {
      const charactersPerToken = size.characters / size.tokens;
      content[size.partIndex] = shortenResult(content[size.partIndex]!, Math.floor(cap * charactersPerToken));
    }
    result[messageIndex - turn.start] = withCompactionMetadata<ToolMessage>(
      { ...message, content },
      { kind: 'modified', round: marks.round, strategy: marks.strategy },
    );
  }
  return result;
}

function resultCharacters(part: ToolResultPart): number {
  if (typeof part.output === 'string') return part.output.length;
  let characters = 0;
  for (const item of part.output) if (item.type === 'text') characters += item.text.length;
  return characters;
}

/** A result cut to about `keepCharacters` of text; images and files in it are replaced by a note. */
function shortenResult(part: ToolResultPart, keepCharacters: number): ToolResultPart {
  if (typeof part.output === 'string') return { ...part, output: truncateText(part.output, keepCharacters) };
  const texts: string[] = [];
  let omittedParts = 0;
  for (const item of part.output) {
    if (item.type === 'text') texts.push(item.text);
    else omittedParts++;
  }
  const note = omittedParts > 0 ? `\n[${omittedParts} image or file parts omitted]` : '';
  return { ...part, output: truncateText(texts.join('\n'), keepCharacters) + note };
}
