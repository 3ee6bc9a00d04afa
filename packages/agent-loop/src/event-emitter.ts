/** A minimal typed event emitter (no `node:events`, so the adapters run in every runtime). */
export class EventEmitter<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<(payload: never) => void>>();

  /**
   * @param onListenerError Told of a listener that threw, with the event it was given. By default the error
   * is thrown again outside the emit, as an uncaught error of its own, so it is never lost.
   */
  constructor(
    private readonly onListenerError: <Name extends keyof Events>(
      error: unknown,
      name: Name,
      payload: Events[Name],
    ) => void = (error) =>
      queueMicrotask(() => {
        throw error;
      }),
  ) {}

  /** Adds a listener; returns a function that removes it. */
  on<Name extends keyof Events>(name: Name, listener: (payload: Events[Name]) => void): () => void {
    let set = this.listeners.get(name);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(name, set);
    }
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  /** Calls every listener of `name`. A listener that throws does not stop the others or the caller. */
  emit<Name extends keyof Events>(name: Name, payload: Events[Name]): void {
    for (const listener of this.listeners.get(name) ?? []) {
      try {
        (listener as (payload: Events[Name]) => void)(payload);
      } catch (error) {
        // Listeners are observers; their failures must not change the outcome of a compaction.
        this.onListenerError(error, name, payload);
      }
    }
  }
}
