/** What the scripted model answers: tool calls, or text that ends the turn. */
export type ScriptedTurn =
  | { kind: 'tools'; calls: Array<{ id: string; name: string; input: Record<string, unknown> }> }
  | { kind: 'text'; text: string };

/** One block of a request, whatever the wire: text, a tool call or a tool result, with its message's role. */
export type ScriptBlock =
  | { role: string; type: 'text'; text: string }
  | { role: string; type: 'tool_use'; name: string; input: Record<string, unknown> }
  | { role: string; type: 'tool_result'; text: string };

/**
 * A model that reads, one call at a time, the files the latest user request names (`read a.ts, b.ts`), then
 * says it is done; asked to recall, it calls `recall` with the first handle a placeholder names. Call ids are
 * numbered across the conversation, so they stay unique whatever compaction leaves of it.
 */
export function fileReadingScript(
  prefix = 'toolu',
): (blocks: ScriptBlock[], recallArguments: string[]) => ScriptedTurn {
  let calls = 0;
  return (blocks, recallArguments) => answer(blocks, recallArguments, `${prefix}_${++calls}`);
}

/** `recallArguments`: the arguments the request's `recall` tool takes, which the model gives (null if unused). */
function answer(blocks: ScriptBlock[], recallArguments: string[], id: string): ScriptedTurn {
  const start = blocks.findLastIndex((block) => block.role === 'user' && block.type === 'text');
  const latest = blocks[start];
  const request = latest?.type === 'text' ? latest.text : '';
  const called = blocks.slice(start + 1).flatMap((block) => (block.type === 'tool_use' ? [block] : []));
  if (request.startsWith('Recall')) {
    if (called.length > 0) return { kind: 'text', text: 'Recalled.' };
    const handle = /recall \\?"([A-Za-z0-9_-]+)\\?"/.exec(JSON.stringify(blocks))?.[1];
    if (handle === undefined) return { kind: 'text', text: 'Nothing to recall.' };
    const input = Object.fromEntries(
      recallArguments.map((name) => [name, name === 'handle' ? handle : null]),
    );
    return { kind: 'tools', calls: [{ id, name: 'recall', input }] };
  }
  const files = /read (.+)$/.exec(request)?.[1]?.split(', ') ?? [];
  const read = new Set(called.map((block) => block.input.path));
  const next = files.find((file) => !read.has(file));
  if (next === undefined) return { kind: 'text', text: `Read ${files.length} files.` };
  return { kind: 'tools', calls: [{ id, name: 'read_file', input: { path: next } }] };
}
