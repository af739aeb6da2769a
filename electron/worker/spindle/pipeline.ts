// The prompt-pipeline registrations (macros, interceptors, context handlers, frontend messages): the
// handlers stay in the worker, the host learns what is registered and runs them during a chat turn.
import type { HostRequests } from '../host-requests';
import type { SpindleMethod } from '../../../shared/spindle/requests';
import type { SpindleLog } from './log';
import { FRONTEND_PART_CHARS, MAX_TO_FRONTEND_CHARS } from '../../../shared/limits';
import type { CancelReason } from '../../../shared/protocol';
import { CallSignals } from './call-signals';
import { abortReason } from './tools';

type Handler = (...args: unknown[]) => unknown;

const callWords = (reason: CancelReason) => abortReason(reason, 'call');

export type PipelineKind =
  | 'macro'
  | 'interceptor'
  | 'context_handler'
  | 'macro_interceptor'
  | 'world_info_interceptor'
  | 'message_content_processor'
  // Other extensions' reads of its shared RPC endpoints, and the host's invocations of its providers.
  | 'rpc_endpoint'
  | 'provider';

export class PipelineRegistry {
  /** kind → id → handler. */
  private readonly handlers = new Map<PipelineKind, Map<string, Handler>>();
  /** Handlers that take the call's AbortSignal (the wrappers the worker makes, never an extension's own function). */
  private readonly signalled = new WeakSet<Handler>();
  /** Ids of the messages sent to the frontend in parts. */
  private frontendParts = 0;
  private readonly frontendHandlers = new Set<(payload: unknown, userId: string) => unknown>();
  private seq = 0;

  constructor(
    private readonly requests: HostRequests,
    private readonly log: SpindleLog,
    private readonly userId: string,
    /** The worker's calls' signals, shared with its tool calls (call-signals.ts). */
    private readonly signals = new CallSignals(),
  ) {}

  handler(kind: PipelineKind, id: string): Handler | undefined {
    return this.handlers.get(kind)?.get(id);
  }

  /**
   * Runs a registered handler for the host; a missing one (unregistered since) fails NOT_FOUND. A handler stored
   * with `signal` gets the call's AbortSignal after the host's arguments, and an interceptor as its context's
   * `signal`; the host's cancel or deadline aborts it.
   */
  async run(requestId: string, kind: string, id: string, args: unknown[]): Promise<unknown> {
    const handler = this.handler(kind as PipelineKind, id);
    if (!handler) throw Object.assign(new Error(`No ${kind} handler "${id}" is registered.`), { code: 'NOT_FOUND' });
    // An interceptor finds the call's signal in its context, as in Lumiverse (context.signal).
    if (kind === 'interceptor' && typeof args[1] === 'object' && args[1] !== null) {
      try {
        return await handler(args[0], { ...args[1], signal: this.signals.begin(requestId, callWords) });
      } finally {
        this.signals.end(requestId);
      }
    }
    if (!this.signalled.has(handler)) return handler(...args);
    try {
      return await handler(...args, this.signals.begin(requestId, callWords));
    } finally {
      this.signals.end(requestId);
    }
  }


  /** Fire and forget, as Lumiverse's registrations are: a refusal (a permission, a bad name) lands in the log. */
  private tell(method: string, params: Record<string, unknown>): void {
    this.requests.call(`pipeline.${method}` as SpindleMethod, params as never).catch((err: Error) => this.log.warn(`spindle.${method}: ${err.message}`));
  }

  /** Drops a handler the host calls by kind and id (an RPC endpoint's, a provider's); false when it held none. */
  release(kind: PipelineKind, id: string): boolean {
    return this.handlers.get(kind)?.delete(id) === true;
  }

  store(kind: PipelineKind, id: string, handler: unknown, what: string, options: { signal?: boolean } = {}): void {
    if (typeof handler !== 'function') throw new TypeError(`${what} expects a handler function.`);
    let byId = this.handlers.get(kind);
    if (!byId) this.handlers.set(kind, (byId = new Map()));
    byId.set(id, handler as Handler);
    if (options.signal) this.signalled.add(handler as Handler);
  }

  private unregisterer(kind: PipelineKind, id: string): () => void {
    return () => {
      if (this.handlers.get(kind)?.delete(id)) this.tell('unregister', { kind, id });
    };
  }

  /** registerInterceptor, registerContextHandler and the other `register*(handler, options)` forms. */
  register(kind: PipelineKind, what: string, handler: unknown, options: unknown): () => void {
    const id = `${kind}-${++this.seq}`;
    this.store(kind, id, handler, what);
    const settings = typeof options === 'number' ? { priority: options } : typeof options === 'object' && options !== null ? { ...(options as object) } : {};
    this.tell('register', { kind, id, options: JSON.parse(JSON.stringify(settings)) as unknown });
    return this.unregisterer(kind, id);
  }

  registerMacro(def: unknown): void {
    const d = (typeof def === 'object' && def !== null ? def : {}) as Record<string, unknown>;
    if (typeof d.name !== 'string' || d.name.trim() === '') throw new TypeError('spindle.registerMacro expects a definition with a name.');
    if (typeof d.handler === 'string' && d.handler.trim() !== '') {
      // As Lumiverse: a string handler would be eval; it is refused.
      this.log.error(`Macro "${d.name}" was registered with a string handler; string handlers are not run. The macro was NOT registered.`);
      return;
    }
    const name = d.name.toLowerCase();
    // Without a handler function the macro is push-only: its value comes from updateMacroValue.
    if (typeof d.handler === 'function') this.store('macro', name, d.handler, 'spindle.registerMacro');
    const { handler: _handler, ...definition } = d;
    this.tell('registerMacro', { definition: JSON.parse(JSON.stringify(definition)) as unknown, hasHandler: typeof d.handler === 'function' });
  }

  unregisterMacro(name: unknown): void {
    if (typeof name !== 'string') throw new TypeError('spindle.unregisterMacro expects a macro name.');
    this.handlers.get('macro')?.delete(name.toLowerCase());
    this.tell('unregisterMacro', { name });
  }

  updateMacroValue(name: unknown, value: unknown): void {
    if (typeof name !== 'string') throw new TypeError('spindle.updateMacroValue expects a macro name.');
    this.tell('updateMacroValue', { name, value: String(value ?? '') });
  }

  /** Lumiverse's promptRegex.setOwnedChats: the chats whose prompt regex this extension applies itself (the host skips its own pass). */
  setPromptRegexChats(chatIds: unknown): void {
    if (!Array.isArray(chatIds)) throw new TypeError('spindle.promptRegex.setOwnedChats expects an array of chat ids.');
    this.tell('setPromptRegexChats', { chatIds: chatIds.map(String) });
  }

  sendToFrontend(payload: unknown): void {
    const json = JSON.stringify(payload ?? null);
    if (json.length <= FRONTEND_PART_CHARS) return this.tell('sendToFrontend', { payload: JSON.parse(json) as unknown });
    if (json.length > MAX_TO_FRONTEND_CHARS) return this.log.warn(`spindle.sendToFrontend: the message is ${json.length} characters of JSON; the limit is ${MAX_TO_FRONTEND_CHARS}.`);
    // A bootstrap larger than one request carries: its JSON in parts, in order (the host puts them together).
    const id = ++this.frontendParts;
    const count = Math.ceil(json.length / FRONTEND_PART_CHARS);
    for (let index = 0; index < count; index++) this.tell('sendToFrontendPart', { id, index, count, part: json.slice(index * FRONTEND_PART_CHARS, (index + 1) * FRONTEND_PART_CHARS) });
  }

  onFrontendMessage(handler: unknown): () => void {
    if (typeof handler !== 'function') throw new TypeError('spindle.onFrontendMessage expects a handler function.');
    const h = handler as (payload: unknown, userId: string) => unknown;
    this.frontendHandlers.add(h);
    return () => this.frontendHandlers.delete(h);
  }

  async deliverFrontendMessage(payload: unknown): Promise<void> {
    const bridged = corsProxyRequest(payload);
    if (bridged) return this.answerCorsProxy(bridged);
    for (const handler of [...this.frontendHandlers]) {
      try {
        await handler(payload, this.userId);
      } catch (err) {
        this.log.warn('An onFrontendMessage handler failed:', err);
      }
    }
  }

  /**
   * Lumiverse's built-in bridge for its frontends' corsProxy (Subsonic Controls' album art): the runtime answers the
   * request itself through spindle.cors, the body as base64, and the extension's own handlers never see it. Without
   * cors_proxy the host refuses it, and the frame is told so.
   */
  private async answerCorsProxy(request: { requestId: string; url: string; options: Record<string, unknown> }): Promise<void> {
    const { signal: _signal, ...options } = request.options;
    try {
      const result = await this.requests.call('cors.fetch', { url: request.url, init: { ...options, responseType: 'arraybuffer' } } as never);
      this.sendToFrontend({ type: '__cors_proxy_response', requestId: request.requestId, result });
    } catch (err) {
      this.sendToFrontend({ type: '__cors_proxy_response', requestId: request.requestId, error: (err as Error)?.message || 'CORS proxy request failed' });
    }
  }
}

/** A frontend's corsProxy request, as Lumiverse's frontends send one, or null. */
function corsProxyRequest(payload: unknown): { requestId: string; url: string; options: Record<string, unknown> } | null {
  const p = payload as { type?: unknown; requestId?: unknown; url?: unknown; options?: unknown } | null;
  if (typeof p !== 'object' || p === null || p.type !== '__cors_proxy_request' || typeof p.requestId !== 'string' || typeof p.url !== 'string') return null;
  return { requestId: p.requestId, url: p.url, options: typeof p.options === 'object' && p.options !== null ? (p.options as Record<string, unknown>) : {} };
}
