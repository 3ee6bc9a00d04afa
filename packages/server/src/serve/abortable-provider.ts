import type { GenerateRequest, Provider } from '@compaction/core';

/** Runs `operation` with a signal that aborts when either signal does; its listeners go when it ends. */
async function withEitherSignal<T>(
  first: AbortSignal | undefined,
  second: AbortSignal,
  operation: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  if (first === undefined) return operation(second);
  const controller = new AbortController();
  const abortFirst = () => controller.abort(first.reason);
  const abortSecond = () => controller.abort(second.reason);
  if (first.aborted) abortFirst();
  else if (second.aborted) abortSecond();
  first.addEventListener('abort', abortFirst, { once: true });
  second.addEventListener('abort', abortSecond, { once: true });
  try {
    return await operation(controller.signal);
  } finally {
    // The server's signal lives as long as the server: a listener left on it per call would pile up.
    first.removeEventListener('abort', abortFirst);
    second.removeEventListener('abort', abortSecond);
  }
}

/**
 * Wraps a provider so every `generate` also stops when `signal` aborts: when a stop's timeout passes, the
 * summaries still waiting on the model are abandoned, so nothing holds the process open after the server
 * closed. Everything else is passed through.
 */
export function abortableProvider(provider: Provider, signal: AbortSignal): Provider {
  const wrapped: Provider = {
    specificationVersion: 'v1',
    name: provider.name,
    modelId: provider.modelId,
    generate: (request: GenerateRequest) =>
      withEitherSignal(request.abortSignal, signal, (abortSignal) =>
        provider.generate({ ...request, abortSignal }),
      ),
    modelLimits: (modelId) => provider.modelLimits(modelId),
  };
  if (provider.countTokens !== undefined) wrapped.countTokens = (request) => provider.countTokens!(request);
  if (provider.parseContextOverflow !== undefined) {
    wrapped.parseContextOverflow = (error) => provider.parseContextOverflow!(error);
  }
  return wrapped;
}
