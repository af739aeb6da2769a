// The AbortSignals of the host's calls in flight in this worker (tool calls and provider calls alike), by request
// id: one home, so the host's cancel finds its call whichever kind it is. The cancel can arrive before its call has
// begun here (the call waits for the extension to finish loading; both can come in one batch), so a cancel for an id
// not yet begun is remembered, and that call begins already aborted.
import type { CancelReason } from '../../../shared/protocol';

/** Cancels kept for calls not yet begun: a few calls' worth, the oldest forgotten first. */
const EARLY_CANCELS = 64;

/** An aborted signal's reason, in the words of the call it is (a tool call, a provider's call). */
export type AbortWords = (reason: CancelReason) => Error;

export class CallSignals {
  private readonly inFlight = new Map<string, { controller: AbortController; words: AbortWords }>();
  private readonly early = new Map<string, CancelReason>();

  /** The call's signal (aborted at once when its cancel came first); end() it when the call is done. */
  begin(requestId: string, words: AbortWords): AbortSignal {
    const controller = new AbortController();
    const cancelled = this.early.get(requestId);
    if (cancelled) {
      this.early.delete(requestId);
      controller.abort(words(cancelled));
    }
    this.inFlight.set(requestId, { controller, words });
    return controller.signal;
  }

  end(requestId: string): void {
    this.inFlight.delete(requestId);
  }

  cancel(requestId: string, reason: CancelReason): void {
    const call = this.inFlight.get(requestId);
    if (call) {
      this.inFlight.delete(requestId);
      call.controller.abort(call.words(reason));
      return;
    }
    this.early.set(requestId, reason);
    if (this.early.size > EARLY_CANCELS) this.early.delete(this.early.keys().next().value!);
  }
}
