// A foreground server's end: resolves on the first SIGINT or SIGTERM (Ctrl-C, or a service manager stopping it),
// or when `abort` aborts (a caller running the command in its own process: a test), so the caller closes what it
// holds and exits 0. Below every layer: the local service and the gateway both use it.
export function stopSignal(abort?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      abort?.removeEventListener('abort', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    if (abort?.aborted) stop();
    else abort?.addEventListener('abort', stop);
  });
}
