// A foreground server's end: resolves on the first SIGINT or SIGTERM (Ctrl-C, or a service manager stopping it),
// so the caller closes what it holds and exits 0. Below every layer: the local service and the gateway both use it.
export function stopSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
