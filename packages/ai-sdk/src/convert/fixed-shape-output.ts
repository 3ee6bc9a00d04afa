import type { JSONValue } from '@compaction/core';
import { isRecord, type JSONRecord } from './metadata-slot.js';

/**
 * What is needed to rebuild a JSON tool result of fixed shape around a shortened text: the shape of the
 * results of the OpenAI provider's shell (`{ output: [{ stdout, stderr, outcome }] }`), local shell
 * (`{ output }`) and apply-patch (`{ status, output? }`) tools, and the whole result of a client tool search
 * (`{ tools }`, which has no place for text). The provider writes those results as the item their call needs
 * only when they are JSON of that shape; as text they would go out as a `function_call_output`, which answers
 * no function call.
 */
export type FixedShape =
  | { kind: 'shell'; outcome: JSONValue }
  | { kind: 'local-shell' }
  | { kind: 'apply-patch'; status: JSONValue }
  | { kind: 'tool-search'; result: JSONValue };

/** The fixed shape of a JSON result value, or `undefined` for any other value. */
export function fixedShapeOf(value: JSONValue): FixedShape | undefined {
  if (!isRecord(value)) return undefined;
  const keys = Object.keys(value);
  const only = (...allowed: string[]) => keys.every((key) => allowed.includes(key));
  const { output, status } = value as JSONRecord;
  if (only('output') && Array.isArray(output) && output.length > 0 && output.every(isShellEntry)) {
    return { kind: 'shell', outcome: (output[0] as JSONRecord).outcome! };
  }
  if (only('output') && typeof output === 'string') return { kind: 'local-shell' };
  const { tools } = value as JSONRecord;
  if (
    only('tools') &&
    Array.isArray(tools) &&
    tools.every((tool) => isRecord(tool) && typeof tool.type === 'string')
  ) {
    return { kind: 'tool-search', result: value };
  }
  if (only('status', 'output') && (status === 'completed' || status === 'failed')) {
    if (output === undefined || typeof output === 'string') return { kind: 'apply-patch', status };
  }
  return undefined;
}

/** The result of a fixed shape holding `text` (a strategy's shortened form of the whole result). */
export function withFixedShape(shape: FixedShape, text: string): JSONValue {
  switch (shape.kind) {
    case 'shell':
      return { output: [{ stdout: text, stderr: '', outcome: shape.outcome }] };
    case 'local-shell':
      return { output: text };
    case 'apply-patch':
      return { status: shape.status, output: text };
    case 'tool-search':
      // Loaded tool definitions cannot hold text: the result goes back as it was.
      return shape.result;
  }
}

/** Reads a shape recorded by {@link fixedShapeOf} back from a message's extras. */
export function readFixedShape(value: JSONValue | undefined): FixedShape | undefined {
  if (!isRecord(value)) return undefined;
  const kind = (value as JSONRecord).kind;
  return kind === 'shell' || kind === 'local-shell' || kind === 'apply-patch' || kind === 'tool-search'
    ? (value as unknown as FixedShape)
    : undefined;
}

function isShellEntry(entry: JSONValue): boolean {
  if (!isRecord(entry)) return false;
  const { stdout, stderr, outcome } = entry as JSONRecord;
  return typeof stdout === 'string' && typeof stderr === 'string' && isRecord(outcome);
}
