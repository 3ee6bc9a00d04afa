/** Makes unique ids and opaque tokens (signatures, encrypted content) for one generated request. */
export interface IdSource {
  /** `${prefix}_0001`, `${prefix}_0002`, ... unique across prefixes too. */
  next(prefix: string): string;
  /** An opaque base64-looking token, unique in the request. */
  token(): string;
}

/** A fresh {@link IdSource}: generation stays deterministic for the same plan. */
export function createIdSource(): IdSource {
  let count = 0;
  return {
    next: (prefix) => `${prefix}_${String(++count).padStart(4, '0')}`,
    token: () => `EqQBCkYIAxgCKkD${(++count).toString(36).padStart(6, '0')}AbCdEfGh+/Zz09==`,
  };
}
