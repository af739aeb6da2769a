// The one handler every door runs on what a worker sends: frames or posted messages in, checked messages or one protocol fault out.
//
// A worker runs a stranger's code, so nothing it sends is trusted, and nothing it sends may throw
// into the host's event loop (an exception in a stream or 'message' listener ends the host). The
// first message that is not a protocol message ends the intake for good: the door stops listening
// and the host kills the worker with WORKER_PROTOCOL.
import { describeFrameFault, FrameDecoder, MAX_FRAME_CHARS, parseWorkerMessage, type FrameFault, type WorkerToHostMessage } from '../../../shared/protocol';

export interface IntakeSink {
  message(message: WorkerToHostMessage): void;
  /** Called once, with what was wrong, for people. */
  violation(reason: string): void;
}

export interface WorkerIntake {
  /** One message as the door received it (posted object, or a decoded frame). */
  accept(raw: unknown): void;
  /** Text read from a framed pipe. */
  acceptText(chunk: string): void;
  /** Stop delivering (the worker is being killed). */
  close(): void;
  readonly closed: boolean;
}

export function createWorkerIntake(sink: IntakeSink, maxFrameChars = MAX_FRAME_CHARS): WorkerIntake {
  let closed = false;
  const violate = (reason: string) => {
    if (closed) return;
    closed = true;
    sink.violation(reason);
  };
  const accept = (raw: unknown) => {
    if (closed) return;
    let parsed: ReturnType<typeof parseWorkerMessage>;
    try {
      parsed = parseWorkerMessage(raw);
    } catch (err) {
      // A getter that throws, a proxy: the shape could not even be read.
      violate(`sent a message that could not be read (${err instanceof Error ? err.message.slice(0, 120) : 'error'})`);
      return;
    }
    if (!parsed.ok) {
      violate(`sent an invalid message: ${parsed.reason}`);
      return;
    }
    try {
      sink.message(parsed.message);
    } catch (err) {
      // The host's handler logs its own failures; this only keeps a bug in it from escaping into the event loop.
      violate(`sent a ${parsed.message.type} message the host could not handle (${err instanceof Error ? err.message.slice(0, 120) : 'error'})`);
    }
  };
  const decoder = new FrameDecoder(accept, (fault: FrameFault) => violate(describeFrameFault(fault)), maxFrameChars);
  return {
    accept,
    acceptText(chunk) {
      if (!closed) decoder.push(chunk);
    },
    close() {
      closed = true;
    },
    get closed() {
      return closed;
    },
  };
}
