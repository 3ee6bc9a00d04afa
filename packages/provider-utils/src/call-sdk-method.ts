/** A method of an SDK resource, typed loosely: its request types differ between SDK versions. */
export type SdkMethod = (body: never, options?: never) => PromiseLike<unknown>;

/**
 * Calls `method` of an SDK resource (such as `client.messages.create`) on its owner, so `this` stays bound,
 * with a body and the caller's abort signal. The answer is typed as the adapter reads it.
 */
export async function callSdkMethod<Body, Answer>(
  owner: object,
  method: SdkMethod,
  body: Body,
  signal: AbortSignal | undefined,
): Promise<Answer> {
  const call = method as unknown as (body: Body, options?: { signal: AbortSignal }) => PromiseLike<Answer>;
  return call.call(owner, body, signal === undefined ? undefined : { signal });
}
