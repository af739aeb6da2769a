// Ctrl+C (and SIGTERM) for a command that ends gracefully. The listeners stay while it ends: the settings file's
// writer (`atomically`, through `when-exit`) answers the first signal by sending it again at once, and with no
// listener of ours left, the settings lock's `signal-exit` takes that echo as unhandled and kills the process (exit
// 130) before the graceful end. A signal that comes later is the person asking again: the process ends at once.
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
/** The echo comes within this long of the first signal. */
const ECHO_MS = 1000;

/**
 * Calls `stop` once, on the first Ctrl+C or SIGTERM; the echo is absorbed, and a later signal exits at once (130 for
 * Ctrl+C, 143 for SIGTERM, as a shell reports them). Returns what takes the listeners away.
 */
export function onInterrupt(stop: () => void, options: { echoMs?: number } = {}): () => void {
  const echoMs = options.echoMs ?? ECHO_MS;
  let first: number | null = null;
  const listener = (signal: NodeJS.Signals) => {
    if (first === null) {
      first = Date.now();
      stop();
    } else if (Date.now() - first >= echoMs) process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  for (const signal of SIGNALS) process.on(signal, listener);
  return () => {
    for (const signal of SIGNALS) process.off(signal, listener);
  };
}
