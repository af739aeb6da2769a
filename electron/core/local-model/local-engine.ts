// The host's end of the local model engine: starts its process when a local model is first used, keeps one model
// loaded, and ends the process after an idle time (its memory is the model's). A crash or an out-of-memory fails the
// calls in flight with LLM_ENGINE_CRASHED and the host goes on; the next call starts a new engine.
import type { HostError, Result } from '../../../shared/errors';
import type { EngineTable, GenerateChunk, GenerateParams, LoadedModel, ModelFit } from '../../../shared/local-model/engine-contract';
import { createClient } from '../../../shared/rpc/client';
import { typedClient, type ResultOf, type TypedClient } from '../../../shared/rpc/endpoint';
import type { ToServer } from '../../../shared/rpc/envelope';
import type { Transport } from '../../../shared/rpc/transport';
import { fedTransport } from '../../../shared/rpc/fed-transport';
import type { WorkerHandle } from '../extensions/workers/launcher';
import { silentLogger, type Logger } from '../ports';
import type { EngineLauncher } from './engine-launcher';

export interface LocalEngineOptions {
  /** The engine's script: electron/local-model/engine-main.ts from source, out/…/engine.js built. */
  entry: string;
  launch: EngineLauncher;
  /** The process ends after this long without a call (default 10 min). */
  idleMs?: number;
  timers?: { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(handle: unknown): void };
  log?: Logger;
}

export interface LoadOptions {
  contextSize?: number;
  gpu?: boolean;
}

export interface GenerateOptions extends LoadOptions {
  signal?: AbortSignal;
  onChunk(chunk: GenerateChunk): void;
}

export const ENGINE_CRASHED: HostError = {
  code: 'LLM_ENGINE_CRASHED',
  message: 'The local model engine stopped while it worked (out of memory, or a crash).',
  hint: 'Try a smaller model or a smaller context; the next message starts the engine again.',
};

interface Running {
  handle: WorkerHandle;
  client: TypedClient<EngineTable>;
  /** Calls not yet answered: the idle timer waits for none. */
  busy: number;
}

function handleTransport(handle: WorkerHandle): Transport<unknown, ToServer> {
  const fed = fedTransport<unknown, ToServer>({ send: (message) => void handle.send(message as never), close: () => handle.kill() });
  handle.onMessage((message) => fed.deliver(message, 0));
  handle.onExit(fed.end);
  // A process that breaks the channel's rules is killed; its exit ends the link.
  handle.onProtocolError(() => handle.kill());
  return fed.transport;
}

export class LocalEngine {
  private running: Running | null = null;
  private idleTimer: unknown;
  private readonly timers: NonNullable<LocalEngineOptions['timers']>;
  private readonly log: Logger;
  private disposed = false;

  constructor(private readonly options: LocalEngineOptions) {
    this.timers = options.timers ?? { setTimeout: (fn, ms) => setTimeout(fn, ms).unref(), clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };
    this.log = options.log ?? silentLogger;
  }

  /** Loads the model (if another is loaded, it goes) and answers what was loaded. */
  load(modelPath: string, options: LoadOptions = {}): Promise<Result<LoadedModel>> {
    return this.withEngine((client) => client.call('engine.load', { modelPath, ...loadParams(options) }));
  }

  /** Generates from `modelPath`, loading it first when it is not the loaded one. */
  generate(modelPath: string, params: GenerateParams, options: GenerateOptions): Promise<Result<ResultOf<EngineTable, 'engine.generate'>>> {
    return this.withEngine(async (client) => {
      const loaded = await client.call('engine.load', { modelPath, ...loadParams(options) }, options.signal ? { signal: options.signal } : {});
      if (!loaded.ok) return loaded;
      return client.call('engine.generate', params, { onChunk: options.onChunk, ...(options.signal ? { signal: options.signal } : {}) });
    });
  }

  /** Whether a GGUF (a file, or a URL whose header alone is fetched) fits this machine. */
  fit(source: string, contextSize?: number): Promise<Result<ModelFit>> {
    return this.withEngine((client) => client.call('engine.fit', { source, ...(contextSize ? { contextSize } : {}) }));
  }

  /** The loaded model and the engine's memory; null while no engine runs. */
  async status(): Promise<ResultOf<EngineTable, 'engine.status'> | null> {
    if (!this.running) return null;
    const result = await this.running.client.call('engine.status', {});
    return result.ok ? result.value : null;
  }

  /** The engine's process id while it runs (tests end it to check a crash). */
  get pid(): number | undefined {
    return this.running?.handle.pid;
  }

  /** Ends the engine (its model goes with it). */
  stop(): void {
    const running = this.running;
    this.running = null;
    this.clearIdle();
    running?.handle.kill();
  }

  dispose(): void {
    this.disposed = true;
    this.stop();
  }

  private async withEngine<T>(work: (client: TypedClient<EngineTable>) => Promise<Result<T>>): Promise<Result<T>> {
    if (this.disposed) return { ok: false, error: { code: 'HOST_SHUTDOWN', message: 'The host is shutting down.' } };
    const running = this.start();
    running.busy++;
    this.clearIdle();
    try {
      return await work(running.client);
    } finally {
      running.busy--;
      if (running.busy === 0 && this.running === running) this.armIdle();
    }
  }

  private start(): Running {
    if (this.running) return this.running;
    const handle = this.options.launch(this.options.entry);
    const client = typedClient<EngineTable>(createClient(handleTransport(handle), { lost: ENGINE_CRASHED, subscribe: false }));
    const running: Running = { handle, client, busy: 0 };
    handle.stderr?.setEncoding('utf8');
    handle.stderr?.on('data', (text: string) => {
      for (const line of text.split('\n')) if (line.trim()) this.log.warn(`local engine: ${line.trim()}`);
    });
    handle.stdout?.resume();
    handle.onExit((code, signal) => {
      if (this.running === running) {
        this.running = null;
        this.clearIdle();
        this.log.warn(`The local model engine ended (${signal ?? `exit ${code}`}).`);
      }
    });
    this.running = running;
    return running;
  }

  private armIdle(): void {
    this.clearIdle();
    this.idleTimer = this.timers.setTimeout(() => {
      this.idleTimer = undefined;
      if (this.running?.busy === 0) this.stop();
    }, this.options.idleMs ?? 10 * 60_000);
  }

  private clearIdle(): void {
    if (this.idleTimer !== undefined) this.timers.clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}

function loadParams(options: LoadOptions) {
  return { ...(options.contextSize !== undefined ? { contextSize: options.contextSize } : {}), ...(options.gpu !== undefined ? { gpu: options.gpu } : {}) };
}
