// The AbortSignals of the host's calls in flight in this worker, by request id. The host's cancel can arrive before
// its call has begun here (the call waits for the extension to finish loading; both can come in one batch), so a
// cancel for an id not yet begun is remembered, and that call begins already aborted.
import type { CancelReason } from '../../../shared/protocol';

/** Cancels kept for calls not yet begun: a few calls' worth, the oldest forgotten first. */
const EARLY_CANCELS = 64;

export class CallSignals {
  private readonly inFlight = new Map<string, AbortController>();
  private readonly early = new Map<string, Error>();

  /** `reason` makes an aborted signal's reason, in the words of the calls these are. */
  constructor(private readonly reason: (reason: CancelReason) => Error) {}

  /** The call's signal (aborted at once when its cancel came first); end() it when the call is done. */
  begin(requestId: string): AbortSignal {
    const controller = new AbortController();
    const cancelled = this.early.get(requestId);
    if (cancelled) {
      this.early.delete(requestId);
      controller.abort(cancelled);
    }
    this.inFlight.set(requestId, controller);
    return controller.signal;
  }

  end(requestId: string): void {
    this.inFlight.delete(requestId);
  }

  cancel(requestId: string, reason: CancelReason): void {
    const controller = this.inFlight.get(requestId);
    if (controller) {
      this.inFlight.delete(requestId);
      controller.abort(this.reason(reason));
      return;
    }
    this.early.set(requestId, this.reason(reason));
    if (this.early.size > EARLY_CANCELS) this.early.delete(this.early.keys().next().value!);
  }
}
