import type { ContractViolation } from './contract-violation.js';
import { isJSONRecord, type JSONRecord } from './json-record.js';

/** Reports one breach of a provider's shape rule at `path`. */
export type ShapeReport = (path: string, message: string) => void;

/** The checks a provider's shape rule is made of, each reporting under that rule. */
export interface ShapeChecker {
  report: ShapeReport;
  /** Whether `entry.role` is one of `roles`; reports it when not. */
  hasKnownRole(
    entry: JSONRecord,
    roles: ReadonlySet<string>,
    path: string,
    what?: string,
  ): entry is JSONRecord & { role: string };
  /**
   * The entries of `list` that are objects with a string `type`, with their paths; each other entry is
   * reported as not being a `name`.
   */
  typedRecords(
    list: readonly unknown[],
    path: string,
    name: string,
  ): Array<{ record: JSONRecord & { type: string }; path: string }>;
  /** Reports each field that `fieldsByType[type]` asks of `record` (an SDK param type) and is not a string. */
  requiredStrings(
    record: JSONRecord,
    type: string,
    fieldsByType: Readonly<Record<string, readonly string[]>>,
    path: string,
    name: string,
  ): void;
}

/** Where an entry of the conversation list stands. */
export interface EntryLocation {
  path: string;
  index: number;
  /** Whether it is the list's last entry (a final assistant message may be a prefill). */
  last: boolean;
}

/** What one provider's request shape rule asks of a request, read by {@link requestShapeViolations}. */
export interface RequestShape {
  /** The rule every breach is reported under, e.g. `anthropic.request-shape`. */
  rule: string;
  /** The field that holds the conversation (`messages`, `input`). */
  listField: string;
  /** What one entry of the list is called in messages (`message`, `item`). */
  entryName: string;
  /** Ends "`<listField>` ..." when the list field is of the wrong type. */
  listExpected: string;
  /** Whether a string stands for the whole list (Responses `input`), which leaves nothing more to check. */
  stringList?: boolean;
  /** The message for an empty list; without it an empty list passes. */
  emptyList?: string;
  /** Checks the request's other fields (system prompt, settings). */
  checkFields?(request: JSONRecord, shape: ShapeChecker): void;
  /** Checks one entry of the list that is an object. */
  checkEntry(entry: JSONRecord, location: EntryLocation, shape: ShapeChecker): void;
}

/**
 * The breaches of `shape` in `request`, appended to `violations` (which may already hold a provider's other
 * rules). A request that is not an object, or whose list is of the wrong type, is reported and not read further.
 */
export function requestShapeViolations(
  shape: RequestShape,
  request: unknown,
  violations: ContractViolation[] = [],
): ContractViolation[] {
  const checker = shapeChecker((path, message) => violations.push({ rule: shape.rule, path, message }));
  const report = checker.report;
  if (!isJSONRecord(request)) {
    report('', 'the request is not a JSON object');
    return violations;
  }
  shape.checkFields?.(request, checker);
  const list = request[shape.listField];
  if (shape.stringList === true && typeof list === 'string') return violations;
  if (!Array.isArray(list)) {
    report(shape.listField, `\`${shape.listField}\` ${shape.listExpected}`);
    return violations;
  }
  if (list.length === 0 && shape.emptyList !== undefined) report(shape.listField, shape.emptyList);
  for (const [index, entry] of list.entries()) {
    const path = `${shape.listField}[${index}]`;
    if (isJSONRecord(entry))
      shape.checkEntry(entry, { path, index, last: index === list.length - 1 }, checker);
    else report(path, `the ${shape.entryName} is not an object`);
  }
  return violations;
}

function shapeChecker(report: ShapeReport): ShapeChecker {
  return {
    report,
    hasKnownRole(entry, roles, path, what = 'role'): entry is JSONRecord & { role: string } {
      if (typeof entry.role === 'string' && roles.has(entry.role)) return true;
      report(`${path}.role`, `unknown ${what} ${JSON.stringify(entry.role)}`);
      return false;
    },
    typedRecords(list, path, name) {
      return list.flatMap((entry, index) => {
        const entryPath = `${path}[${index}]`;
        if (isJSONRecord(entry) && typeof entry.type === 'string') {
          return [{ record: entry as JSONRecord & { type: string }, path: entryPath }];
        }
        report(entryPath, `the ${name} is not an object with a string \`type\``);
        return [];
      });
    },
    requiredStrings(record, type, fieldsByType, path, name) {
      for (const field of fieldsByType[type] ?? []) {
        if (typeof record[field] !== 'string') {
          report(`${path}.${field}`, `a ${type} ${name} needs a string \`${field}\``);
        }
      }
    },
  };
}
