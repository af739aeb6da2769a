// The worker's one link to the host: Electron utilityProcess (process.parentPort) or child_process.fork IPC.

export interface HostPort {
  readonly kind: 'utility' | 'fork';
  /** Never throws; a message to a gone host is dropped. `done` runs once the message is handed over (or dropped). */
  send(message: unknown, done?: () => void): void;
  onMessage(listener: (message: unknown) => void): void;
  /** The host went away (fork only; a utilityProcess dies with its parent). */
  onDisconnect(listener: () => void): void;
}

interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

function utilityPort(parentPort: ParentPortLike): HostPort {
  return {
    kind: 'utility',
    send(message, done) {
      try {
        parentPort.postMessage(message);
      } catch {
        // A closed port drops the message, like utilityProcess itself.
      }
      done?.();
    },
    onMessage(listener) {
      parentPort.on('message', (event) => listener(event.data));
    },
    onDisconnect() {},
  };
}

function ignoreSendError(): void {}

function forkPort(): HostPort {
  return {
    kind: 'fork',
    send(message, done) {
      if (!process.send || !process.connected) {
        done?.();
        return;
      }
      try {
        // With a callback, a closed channel reports to it instead of throwing or emitting 'error'.
        process.send(message, undefined, {}, done ?? ignoreSendError);
      } catch {
        done?.();
      }
    },
    onMessage(listener) {
      process.on('message', (message) => listener(message));
    },
    onDisconnect(listener) {
      process.on('disconnect', listener);
    },
  };
}

/** Picks the transport the process was started with, or null when it has no parent channel. */
export function detectHostPort(): HostPort | null {
  const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
  if (parentPort && typeof parentPort.postMessage === 'function') return utilityPort(parentPort);
  if (typeof process.send === 'function') return forkPort();
  return null;
}
