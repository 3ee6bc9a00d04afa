import { InvalidMessagesError, type MessageIssue } from '../errors/invalid-messages-error.js';
import { describeType, isJSONValue, isRecord } from '../json.js';
import type { Message, Role } from './message.js';

const partTypesByRole: Record<Role, readonly string[]> = {
  system: ['text'],
  user: ['text', 'image', 'file'],
  assistant: ['text', 'reasoning', 'tool-call', 'file'],
  tool: ['tool-result'],
};

const resultContentTypes = ['text', 'image', 'file'];

type Report = (path: string, message: string) => void;

/**
 * Messages already found well-formed. Messages are immutable by contract (every function here returns new
 * objects rather than editing), so a message checked once need not be checked again: re-validating a long
 * history after each appended message costs only the new message.
 */
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
    if (typeof message === 'object' && message !== null && wellFormed.has(message)) continue;
    const before = issues.length;
    checkMessage(message, (path, text) => {
      issues.push({ index, path, message: text });
    });
    if (issues.length === before && typeof message === 'object' && message !== null) wellFormed.add(message);
  }
  return issues;
}

/** Throws {@link InvalidMessagesError} unless `messages` is a well-formed message list. */
export function validateMessages(messages: unknown): asserts messages is Message[] {
  const issues = findMessageIssues(messages);
  if (issues.length > 0) throw new InvalidMessagesError({ issues });
}

function checkMessage(message: unknown, report: Report): void {
  if (!isRecord(message)) {
    report('', `expected a message object, got ${describeType(message)}`);
    return;
  }
  const role = message.role;
  if (typeof role !== 'string' || !(role in partTypesByRole)) {
    report('role', `unknown role ${JSON.stringify(role)}; expected one of system, user, assistant, tool`);
    return;
  }
  if (message.metadata !== undefined && !isPlainObject(message.metadata))
    report('metadata', 'must be a JSON object');
  if (message.id !== undefined && typeof message.id !== 'string') report('id', 'must be a string');
  if (!Array.isArray(message.content)) {
    report('content', `must be an array of parts, got ${describeType(message.content)}`);
    return;
  }
  const allowed = partTypesByRole[role as Role];
  for (const [partIndex, part] of (message.content as unknown[]).entries()) {
    const path = `content[${partIndex}]`;
    if (!isRecord(part)) report(path, `expected a part object, got ${describeType(part)}`);
    else if (typeof part.type !== 'string' || !allowed.includes(part.type)) {
      report(`${path}.type`, `a ${role} message cannot carry a ${JSON.stringify(part.type)} part`);
    } else checkPart(part, path, report);
  }
}

function checkPart(part: Record<string, unknown>, path: string, report: Report): void {
  if (part.metadata !== undefined && !isPlainObject(part.metadata))
    report(`${path}.metadata`, 'must be a JSON object');
  const requireString = (field: string, nonEmpty = false) => {
    const value = part[field];
    if (typeof value !== 'string' || (nonEmpty && value.length === 0)) {
      report(`${path}.${field}`, nonEmpty ? 'must be a non-empty string' : 'must be a string');
    }
  };
  const optionalString = (field: string) => {
    if (part[field] !== undefined) requireString(field);
  };
  switch (part.type) {
    case 'text':
      requireString('text');
      break;
    case 'image':
      requireString('image', true);
      optionalString('mediaType');
      break;
    case 'file':
      requireString('data');
      requireString('mediaType', true);
      break;
    case 'reasoning':
      requireString('text');
      optionalString('signature');
      optionalString('redactedData');
      break;
    case 'tool-call':
      requireString('toolCallId', true);
      requireString('toolName', true);
      if (!isJSONValue(part.input)) {
        report(
          `${path}.input`,
          'must be JSON (parse string inputs; functions, NaN and cycles are not allowed)',
        );
      }
      break;
    case 'tool-result':
      requireString('toolCallId', true);
      requireString('toolName');
      if (part.isError !== undefined && typeof part.isError !== 'boolean')
        report(`${path}.isError`, 'must be a boolean');
      checkResultOutput(part.output, `${path}.output`, report);
      break;
  }
}

function checkResultOutput(output: unknown, path: string, report: Report): void {
  if (typeof output === 'string') return;
  if (!Array.isArray(output)) {
    report(path, 'must be a string or an array of parts');
    return;
  }
  for (const [index, item] of (output as unknown[]).entries()) {
    const itemPath = `${path}[${index}]`;
    if (!isRecord(item) || typeof item.type !== 'string' || !resultContentTypes.includes(item.type)) {
      report(itemPath, 'must be a text, image or file part');
    } else checkPart(item, itemPath, report);
  }
}

function isPlainObject(value: unknown): boolean {
  return isRecord(value) && isJSONValue(value);
}
