import { InvalidMessagesError, type MessageIssue } from '../errors/invalid-messages-error.js';
import { describeType, isJSONValue, isRecord } from '../json.js';
import type { Message, Role } from './message.js';

type Report = (path: string, message: string) => void;
type Check = (value: unknown, path: string, report: Report) => void;

/** A check that reports `text` unless `ok(value)` (or, when `optional`, the value is `undefined`). */
const rule =
  (ok: (value: unknown) => boolean, text: string, optional = false): Check =>
  (value, path, report) => {
    if (!ok(value) && !(optional && value === undefined)) report(path, text);
  };
const isString = (value: unknown) => typeof value === 'string';
const string = rule(isString, 'must be a string');
const optionalString = rule(isString, 'must be a string', true);
const nonEmpty = rule((value) => isString(value) && value !== '', 'must be a non-empty string');
const jsonObject = rule((value) => isRecord(value) && isJSONValue(value), 'must be a JSON object', true);
const resultContentTypes = ['text', 'image', 'file'];

/** The fields each part type requires, checked in this order after its metadata. */
const partChecks: Record<string, Record<string, Check>> = {
  text: { text: string },
  image: { image: nonEmpty, mediaType: optionalString },
  file: { data: string, mediaType: nonEmpty },
  reasoning: { text: string, signature: optionalString, redactedData: optionalString },
  'tool-call': {
    toolCallId: nonEmpty,
    toolName: nonEmpty,
    input: rule(isJSONValue, 'must be JSON (parse string inputs; functions, NaN and cycles are not allowed)'),
  },
  'tool-result': {
    toolCallId: nonEmpty,
    toolName: string,
    isError: rule((value) => typeof value === 'boolean', 'must be a boolean', true),
    output: (output, path, report) => {
      if (typeof output === 'string') return;
      if (!Array.isArray(output)) return report(path, 'must be a string or an array of parts');
      for (const [index, item] of (output as unknown[]).entries()) {
        if (isRecord(item) && resultContentTypes.includes(item.type as string)) {
          checkPart(item, `${path}[${index}]`, report);
        } else report(`${path}[${index}]`, 'must be a text, image or file part');
      }
    },
  },
};

const partTypesByRole: Record<Role, readonly string[]> = {
  system: ['text'],
  user: resultContentTypes,
  assistant: ['text', 'reasoning', 'tool-call', 'file'],
  tool: ['tool-result'],
};

/** Messages found well-formed: immutable by contract, so a growing history is re-checked only for new ones. */
const wellFormed = new WeakSet<object>();

/**
 * Lists what is structurally wrong with a message list: unknown roles, parts a role may not carry,
 * missing or mistyped fields, tool inputs or metadata that are not plain JSON. Does not look at tool
 * pairing, which {@link repairHistory} handles. Text is never inspected: strings such as `<|endoftext|>`
 * are ordinary text.
 */
export function findMessageIssues(messages: unknown): MessageIssue[] {
  if (!Array.isArray(messages)) {
    return [{ index: -1, path: '', message: `expected an array of messages, got ${describeType(messages)}` }];
  }
  const issues: MessageIssue[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message: unknown = messages[index];
    const object = typeof message === 'object' && message !== null;
    if (object && wellFormed.has(message)) continue;
    const before = issues.length;
    checkMessage(message, (path, text) => issues.push({ index, path, message: text }));
    if (issues.length === before && object) wellFormed.add(message);
  }
  return issues;
}

/** Throws {@link InvalidMessagesError} unless `messages` is a well-formed message list. */
export function validateMessages(messages: unknown): asserts messages is Message[] {
  const issues = findMessageIssues(messages);
  if (issues.length > 0) throw new InvalidMessagesError({ issues });
}

function checkMessage(message: unknown, report: Report) {
  if (!isRecord(message)) return report('', `expected a message object, got ${describeType(message)}`);
  const role = message.role;
  if (typeof role !== 'string' || !(role in partTypesByRole)) {
    return report(
      'role',
      `unknown role ${JSON.stringify(role)}; expected one of system, user, assistant, tool`,
    );
  }
  jsonObject(message.metadata, 'metadata', report);
  optionalString(message.id, 'id', report);
  if (!Array.isArray(message.content)) {
    return report('content', `must be an array of parts, got ${describeType(message.content)}`);
  }
  const allowed = partTypesByRole[role as Role];
  for (const [index, part] of (message.content as unknown[]).entries()) {
    const path = `content[${index}]`;
    if (!isRecord(part)) report(path, `expected a part object, got ${describeType(part)}`);
    else if (typeof part.type !== 'string' || !allowed.includes(part.type)) {
      report(`${path}.type`, `a ${role} message cannot carry a ${JSON.stringify(part.type)} part`);
    } else checkPart(part, path, report);
  }
}

function checkPart(part: Record<string, unknown>, path: string, report: Report): void {
  jsonObject(part.metadata, `${path}.metadata`, report);
  const checks = partChecks[part.type as string]!;
  for (const field in checks) checks[field]!(part[field], `${path}.${field}`, report);
}
