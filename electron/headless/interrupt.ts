// Ctrl+C (and SIGTERM) for a command that ends gracefully. The listeners stay for the life of the process: the
// settings file's writer (`atomically`, through `when-exit`) answers the first signal by sending it again, and with
// no listener of ours left, the settings lock's `signal-exit` takes that echo as unhandled and kills the process
// (exit 130) before the graceful end.
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Calls `stop` once, on the first Ctrl+C or SIGTERM; later ones (the echo among them) are absorbed. */
export function onInterrupt(stop: () => void): void {
  let stopped = false;
  const listener = () => {
    if (stopped) return;
    stopped = true;
    stop();
  };
  for (const signal of SIGNALS) process.on(signal, listener);
}
