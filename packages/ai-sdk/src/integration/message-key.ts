import { bytesToBase64 } from '../convert/data-content.js';

const keys = new WeakMap<object, string>();

/**
 * A content key of an AI SDK message: equal messages get equal keys, whether or not they are the same
 * object. Keys of objects already seen are remembered, so a step that adds one message keys one message.
 */
export function messageKey(message: object): string {
  let key = keys.get(message);
  if (key === undefined) {
    key = JSON.stringify(message, (_name, value: unknown) => {
      if (value instanceof Uint8Array) return { $bytes: bytesToBase64(value) };
      if (value instanceof ArrayBuffer) return { $arrayBuffer: bytesToBase64(new Uint8Array(value)) };
      return value;
    });
    keys.set(message, key);
  }
  return key;
}
