/** A parsed JSON object, read field by field: validators take `unknown` requests and never trust their shape. */
export type JSONRecord = Record<string, unknown>;

/** Whether `value` is a JSON object (not null, not an array). */
export function isJSONRecord(value: unknown): value is JSONRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The string at `record[key]`, or undefined when it is missing or not a string. */
export function stringField(record: JSONRecord, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

/** The object at `record[key]`, or undefined when it is missing or not an object. */
export function recordField(record: JSONRecord, key: string): JSONRecord | undefined {
  const value = record[key];
  return isJSONRecord(value) ? value : undefined;
}
