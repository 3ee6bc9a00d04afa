import { AsyncLocalStorage } from 'node:async_hooks';
import { type Context, type ContextManager, ROOT_CONTEXT } from '@opentelemetry/api';

/** The context manager the Node SDK registers, in its few lines: the active context follows async calls. */
export class AsyncContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();

  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }

  with<Arguments extends unknown[], Callback extends (...args: Arguments) => ReturnType<Callback>>(
    context: Context,
    callback: Callback,
    thisArgument?: ThisParameterType<Callback>,
    ...args: Arguments
  ): ReturnType<Callback> {
    return this.storage.run(context, () => callback.apply(thisArgument, args));
  }

  bind<Target>(_context: Context, target: Target): Target {
    return target;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.storage.disable();
    return this;
  }
}
