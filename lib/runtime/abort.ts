/**
 * Abort-signal helpers shared by every layer: waiting on work that may ignore its signal, and
 * sleeping in a way a cancellation cuts short.
 */

/** Settles with the promise, or rejects with the signal's reason as soon as it aborts, even if the work ignores it. */
export function abortable<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  const p = Promise.resolve(promise);
  if (signal.aborted) {
    // Nobody will await the abandoned promise: keep its own rejection from going unhandled.
    p.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      p.catch(() => undefined); // the abandoned work may still fail later; nobody listens any more
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** setTimeout as a promise that rejects with the signal's reason when aborted. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
