// The `spindle` global an extension sees: registerTool, unregisterTool, on/off, log, generate, and its invocation dispatch.
import { formatWithOptions } from 'node:util';
import {
  MAX_LOG_MESSAGE_CHARS,
  MAX_REGISTRATION_BYTES,
  MAX_RESULT_BYTES,
  toWorkerToolError,
  utf8ByteLength,
  validateGenerateInput,
  type CancelReason,
  type GenerateKind,
  type GenerateResultMessage,
  type LogLevel,
  type QuietGenerateInput,
  type RawGenerateInput,
  type RawGenerateResult,
  type ToolInvocationResultMessage,
  type WorkerToHostMessage,
} from '../../shared/protocol';
import type {
  ExtensionManifest,
  ExtensionPermission,
  ToolInvocationPayloadDTO,
  ToolRegistrationDTO,
} from '../../shared/types/spindle';

export type SpindleEvent =
  | 'TOOL_INVOCATION'
  | 'TOOL_SIMULATION'
  | 'PERMISSION_DENIED'
  | 'PERMISSIONS_CHANGED'
  | 'ERROR'
  | 'SHUTDOWN'
  | (string & {});

export interface InvocationContext {
  /** Aborted when the host cancels the call (deadline passed, caller cancelled, permission revoked). */
  signal: AbortSignal;
}

/** Extensions are plain JavaScript; the payload's shape depends on the event (TOOL_INVOCATION: ToolInvocationPayloadDTO). */
export type SpindleHandler = (payload: unknown, context: InvocationContext) => unknown;

export interface SpindleLog {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

export interface GenerateOptions {
  /** Aborting it abandons the generation: the host stops it and the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * LLM generations through the user's connections; they need the `generation` permission (checked by
 * the host on every call). Failures reject with an Error carrying `code` (PERMISSION_DENIED,
 * INVALID_INPUT, SIDECAR_NOT_CONFIGURED, RATE_LIMITED, LLM_*…) and sometimes `hint` and `path`.
 */
export interface SpindleGenerate {
  /** A background generation on the sidecar connection; resolves with its text. */
  quiet(input: QuietGenerateInput, options?: GenerateOptions): Promise<string>;
  /** A direct generation on `connectionId` (default: the chat's main connection), no prompt assembly. */
  raw(input: RawGenerateInput, options?: GenerateOptions): Promise<RawGenerateResult>;
}

export interface Spindle {
  registerTool(tool: ToolRegistrationDTO): void;
  unregisterTool(name: string): void;
  /** Returns a function that removes the handler again. */
  on(event: SpindleEvent, handler: SpindleHandler): () => void;
  off(event: SpindleEvent, handler: SpindleHandler): void;
  log: SpindleLog;
  generate: SpindleGenerate;
  readonly extensionId: string;
  readonly manifest: Readonly<ExtensionManifest>;
  /** Permissions granted right now (updated on PERMISSIONS_CHANGED). */
  readonly permissions: readonly ExtensionPermission[];
  /** A folder this extension may write to; it survives restarts and updates. */
  readonly dataDir: string;
}

/** Placeholder a write tool returns in simulation when it has no TOOL_SIMULATION handler (orchestrator seed). */
export const SIMULATION_PLACEHOLDER = Object.freeze({ ok: true, simulated: true, unvalidated: true });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function formatLogArgs(args: unknown[]): string {
  const text = formatWithOptions({ colors: false, depth: 4 }, ...args);
  return text.length > MAX_LOG_MESSAGE_CHARS ? `${text.slice(0, MAX_LOG_MESSAGE_CHARS)}…` : text;
}

function toolError(code: string, message: string, hint?: string): Error {
  return Object.assign(new Error(message), hint ? { code, hint } : { code });
}

/** An Error an extension can inspect: `code`, and `hint` / `path` when the host gave them. */
function hostError(error: unknown): Error {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; message?: unknown; hint?: unknown; path?: unknown };
  const out = Object.assign(new Error(typeof e.message === 'string' ? e.message : 'The generation failed.'), { code: typeof e.code === 'string' ? e.code : 'INTERNAL' });
  if (typeof e.hint === 'string') Object.assign(out, { hint: e.hint });
  if (typeof e.path === 'string') Object.assign(out, { path: e.path });
  return out;
}

function abortReason(reason: CancelReason): Error {
  const messages: Record<CancelReason, [string, string]> = {
    timeout: ['The tool call passed its deadline.', 'TimeoutError'],
    cancelled: ['The tool call was cancelled.', 'AbortError'],
    permission_revoked: ["The extension's tools permission was revoked.", 'AbortError'],
    shutdown: ['The extension is shutting down.', 'AbortError'],
  };
  const [message, name] = messages[reason] ?? messages.cancelled;
  return new DOMException(message, name);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * The abort signal of one call, made only when a handler reads `context.signal`: most handlers never
 * do, and an AbortController is the costliest thing in a trivial call. A cancel that comes first is
 * remembered, so a signal made afterwards is already aborted with the same reason.
 */
class CallSignal {
  private controller: AbortController | null = null;
  private reason: Error | null = null;
  readonly context: InvocationContext = new CallContext(this);

  signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.reason) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  abort(reason: Error): void {
    if (this.reason) return;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}

/** Where a handler's context keeps its call: a symbol no other module holds, not a name it could collide with. */
const CALL = Symbol('call');

/**
 * The handler's second argument. `signal` is a getter on the prototype: an object literal with its
 * own getter took about 1.5 µs to create per call. Reading `context.signal` and destructuring
 * `{ signal }` work; a spread copy (`{ ...context }`) has no `signal`. (Not a `#private` field:
 * the Electronegativity gate cannot parse those in the built worker.)
 */
class CallContext implements InvocationContext {
  readonly [CALL]: CallSignal;

  constructor(call: CallSignal) {
    this[CALL] = call;
  }

  get signal(): AbortSignal {
    return this[CALL].signal();
  }
}

export interface SpindleRuntime {
  api: Spindle;
  /** Runs the TOOL_INVOCATION (or TOOL_SIMULATION) handlers and builds the result message (at once when they answer synchronously). */
  invoke(kind: 'invocation' | 'simulation', payload: ToolInvocationPayloadDTO): ToolInvocationResultMessage | Promise<ToolInvocationResultMessage>;
  cancel(requestId: string, reason: CancelReason): void;
  /** Calls the handlers of a notification event; their failures are logged, never thrown. */
  emit(event: SpindleEvent, payload: unknown): Promise<void>;
  setPermissions(granted: ExtensionPermission[]): void;
  /** Settles the spindle.generate promise the host answered. */
  onGenerateResult(message: GenerateResultMessage): void;
}

export function createSpindle(options: {
  manifest: ExtensionManifest;
  granted: ExtensionPermission[];
  dataDir: string;
  send: (message: WorkerToHostMessage) => void;
}): SpindleRuntime {
  const { send } = options;
  const manifest = Object.freeze({ ...options.manifest, permissions: [...options.manifest.permissions] });
  let granted: readonly ExtensionPermission[] = Object.freeze([...options.granted]);
  const handlers = new Map<string, Set<SpindleHandler>>();
  const inFlight = new Map<string, CallSignal>();
  const generations = new Map<string, { resolve(value: unknown): void; reject(error: Error): void }>();
  let generateSeq = 0;

  const log = (level: LogLevel, args: unknown[]) => send({ type: 'log', level, message: formatLogArgs(args) });

  const api: Spindle = {
    registerTool(tool) {
      if (!isRecord(tool)) throw new TypeError('spindle.registerTool expects a ToolRegistrationDTO object.');
      let json: string;
      try {
        json = JSON.stringify(tool);
      } catch (err) {
        throw new TypeError(`spindle.registerTool: the tool is not JSON-serializable (${(err as Error).message}).`);
      }
      if (utf8ByteLength(json) > MAX_REGISTRATION_BYTES) {
        throw new RangeError(`spindle.registerTool: the registration is larger than ${MAX_REGISTRATION_BYTES} bytes.`);
      }
      // The host decides (permission, registry validation) and answers with PERMISSION_DENIED or ERROR.
      send({ type: 'register_tool', tool: JSON.parse(json) as ToolRegistrationDTO });
    },
    unregisterTool(name) {
      if (typeof name !== 'string') throw new TypeError('spindle.unregisterTool expects a tool name.');
      send({ type: 'unregister_tool', name });
    },
    on(event, handler) {
      if (typeof handler !== 'function') throw new TypeError('spindle.on expects a handler function.');
      let set = handlers.get(event);
      if (!set) handlers.set(event, (set = new Set()));
      set.add(handler);
      return () => api.off(event, handler);
    },
    off(event, handler) {
      handlers.get(event)?.delete(handler);
    },
    log: {
      debug: (...args) => log('debug', args),
      info: (...args) => log('info', args),
      warn: (...args) => log('warn', args),
      error: (...args) => log('error', args),
    },
    generate: {
      quiet: (input, opts) => generate('quiet', input, opts) as Promise<string>,
      raw: (input, opts) => generate('raw', input, opts) as Promise<RawGenerateResult>,
    },
    extensionId: manifest.id,
    manifest,
    get permissions() {
      return granted;
    },
    dataDir: options.dataDir,
  };

  function generate(kind: GenerateKind, input: unknown, opts: GenerateOptions | undefined): Promise<unknown> {
    // Checked here too, so a bad or oversized input fails without crossing the channel; the host checks again.
    const checked = validateGenerateInput(kind, input);
    if (!checked.ok) return Promise.reject(hostError(checked.error));
    const signal = opts?.signal;
    const cancelled = () => (signal?.reason instanceof Error ? signal.reason : new DOMException('The generation was cancelled.', 'AbortError'));
    if (signal?.aborted) return Promise.reject(cancelled());
    const requestId = `gen-${++generateSeq}`;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (!generations.delete(requestId)) return;
        send({ type: 'generate_cancel', requestId });
        reject(cancelled());
      };
      const done = () => signal?.removeEventListener('abort', onAbort);
      generations.set(requestId, {
        resolve: (value) => (done(), resolve(value)),
        reject: (error) => (done(), reject(error)),
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      send({ type: 'generate_request', requestId, kind, input: checked.input });
    });
  }

  function invoke(kind: 'invocation' | 'simulation', payload: ToolInvocationPayloadDTO): ToolInvocationResultMessage | Promise<ToolInvocationResultMessage> {
    const { requestId } = payload;
    const call = new CallSignal();
    inFlight.set(requestId, call);
    let value: unknown;
    try {
      const list = handlersFor(kind);
      if (list.length === 0) {
        if (kind === 'simulation') value = { ...SIMULATION_PLACEHOLDER };
        else throw toolError('TOOL_ERROR', 'The extension has no TOOL_INVOCATION handler.', "Call spindle.on('TOOL_INVOCATION', handler) when the extension loads.");
      } else {
        value = runHandlers(list, payload, call.context, 0);
      }
    } catch (err) {
      inFlight.delete(requestId);
      return failure(requestId, err);
    }
    if (!isThenable(value)) {
      inFlight.delete(requestId);
      return answer(requestId, value);
    }
    return Promise.resolve(value).then(
      (resolved) => {
        inFlight.delete(requestId);
        return answer(requestId, resolved);
      },
      (err: unknown) => {
        inFlight.delete(requestId);
        return failure(requestId, err);
      },
    );
  }

  /** The handlers of a call, as they were when it started. */
  function handlersFor(kind: 'invocation' | 'simulation'): SpindleHandler[] {
    const set = handlers.get(kind === 'simulation' ? 'TOOL_SIMULATION' : 'TOOL_INVOCATION');
    return set ? [...set] : [];
  }

  /**
   * Several handlers: the first one that returns something answers. Synchronous handlers are called
   * without a detour through the microtask queue; the first promise switches to awaiting.
   */
  function runHandlers(list: SpindleHandler[], payload: ToolInvocationPayloadDTO, context: InvocationContext, from: number): unknown {
    for (let i = from; i < list.length; i++) {
      const value = list[i]!(payload, context);
      if (isThenable(value)) {
        return Promise.resolve(value).then((resolved) => (resolved !== undefined ? resolved : runHandlers(list, payload, context, i + 1)));
      }
      if (value !== undefined) return value;
    }
    return null;
  }

  function answer(requestId: string, value: unknown): ToolInvocationResultMessage {
    if (typeof value === 'string') {
      // A UTF-16 unit is at most 3 UTF-8 bytes: short strings need no count.
      const bytes = value.length * 3 <= MAX_RESULT_BYTES ? 0 : utf8ByteLength(value);
      if (bytes > MAX_RESULT_BYTES) return tooLarge(requestId, bytes);
      return { type: 'tool_invocation_result', requestId, ok: true, value };
    }
    let json: string | undefined;
    try {
      json = JSON.stringify(value ?? null);
    } catch (err) {
      return notJson(requestId, err instanceof Error ? err.message : String(err));
    }
    if (json === undefined) return notJson(requestId, `a ${typeof value}`);
    const bytes = utf8ByteLength(json);
    if (bytes > MAX_RESULT_BYTES) return tooLarge(requestId, bytes);
    // Plain JSON either way, whether the transport is JSON IPC or structured clone.
    return { type: 'tool_invocation_result', requestId, ok: true, value: JSON.parse(json) as unknown };
  }

  function failure(requestId: string, err: unknown): ToolInvocationResultMessage {
    return { type: 'tool_invocation_result', requestId, ok: false, error: toWorkerToolError(err) };
  }

  function notJson(requestId: string, detail: string): ToolInvocationResultMessage {
    return {
      type: 'tool_invocation_result',
      requestId,
      ok: false,
      error: { code: 'INVALID_RESULT', message: `The tool returned a value that is not JSON (${detail}).`, hint: 'Return a string or plain JSON data.' },
    };
  }

  function tooLarge(requestId: string, bytes: number): ToolInvocationResultMessage {
    return {
      type: 'tool_invocation_result',
      requestId,
      ok: false,
      error: {
        code: 'RESULT_TOO_LARGE',
        message: `The tool result is ${bytes} bytes; the limit is ${MAX_RESULT_BYTES} bytes.`,
        hint: 'Return a summary or a smaller page of results.',
      },
    };
  }

  async function emit(event: SpindleEvent, payload: unknown): Promise<void> {
    for (const handler of [...(handlers.get(event) ?? [])]) {
      try {
        await handler(payload, { signal: new AbortController().signal });
      } catch (err) {
        log('warn', [`A ${event} handler failed:`, err]);
      }
    }
  }

  return {
    api,
    invoke,
    cancel(requestId, reason) {
      inFlight.get(requestId)?.abort(abortReason(reason));
    },
    emit,
    setPermissions(next) {
      granted = Object.freeze([...next]);
    },
    onGenerateResult(message) {
      const pending = typeof message.requestId === 'string' ? generations.get(message.requestId) : undefined;
      if (!pending) return;
      generations.delete(message.requestId);
      if (message.ok) pending.resolve(message.value);
      else pending.reject(hostError(message.error));
    },
  };
}
