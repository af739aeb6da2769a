// spindle.generate: LLM generations through the user's connections, answered by the host (permission `generation`).
//
// Two request shapes arrive here. The Workbench's own (`quiet({ prompt })`, `raw({ messages,
// connectionId, maxTokens, temperature, topP })`) and Lumiverse's GenerationRequestDTO (`messages`,
// `parameters`, `connection_id`, `tools`, `signal`; `batch({ requests, concurrent })`), which answers
// with Lumiverse's `{ content, finish_reason, usage, … }`; `dryRun` answers the prompt a chat's next turn would send. A signal in the input (Lumiverse) or in
// the options (ours) cancels the generation on the host; it never crosses the channel.
import type { GenerateKind } from '../../../shared/protocol';
import type { HostRequests } from '../host-requests';
import { observeGeneration } from './generation-observer';

export interface GenerateOptions {
  signal?: AbortSignal;
}

type Input = Record<string, unknown> & { signal?: AbortSignal };

/** Fields only Lumiverse's GenerationRequestDTO has: with any of them, the input is Lumiverse's. */
const LUMIVERSE_FIELDS = ['parameters', 'connection_id', 'max_tokens', 'type', 'tools'];

/** The Workbench's own shape: a `prompt` for quiet; camelCase knobs for raw. */
function isWorkbenchShape(kind: 'quiet' | 'raw', input: Input): boolean {
  if (LUMIVERSE_FIELDS.some((key) => key in input)) return false;
  if (kind === 'quiet') return 'prompt' in input || 'systemPrompt' in input;
  return ['connectionId', 'maxTokens', 'temperature', 'topP'].some((key) => key in input);
}

function withoutSignal(input: Input): Record<string, unknown> {
  const { signal: _signal, ...rest } = input;
  return rest;
}

/** What observe() needs of the runtime: its events, and the permission asked at the call (as every generate call). */
export interface ObserveDeps {
  on(event: string, handler: (payload: unknown) => void): () => void;
  allowed(permission: string): boolean;
  denied(permission: string, operation: string): Error;
}

export function createGenerate(requests: HostRequests, observe: ObserveDeps) {
  // The host checks the input against the request contract (shared/spindle/generate-requests.ts).
  const ours = (kind: GenerateKind, input: Input, signal: AbortSignal | undefined) => requests.call(`generate.${kind}`, withoutSignal(input) as never, signal);
  const lumiverse = (type: 'raw' | 'quiet' | 'batch', input: Input, signal: AbortSignal | undefined) =>
    requests.call('generate.lumiverse', { ...withoutSignal(input), type } as never, input.signal ?? signal);
  const run = (kind: 'raw' | 'quiet', input: unknown, options?: GenerateOptions) => {
    const value = (typeof input === 'object' && input !== null ? input : {}) as Input;
    return isWorkbenchShape(kind, value) ? ours(kind, value, options?.signal) : lumiverse(kind, value, options?.signal);
  };
  const stream = (type: 'raw' | 'quiet', input: unknown) => {
    const value = (typeof input === 'object' && input !== null ? input : {}) as Input;
    return requests.stream('generate.stream', { ...withoutSignal(value), type } as never, value.signal);
  };
  return {
    quiet: (input: unknown, options?: GenerateOptions) => run('quiet', input, options),
    raw: (input: unknown, options?: GenerateOptions) => run('raw', input, options),
    batch: (input: unknown, options?: GenerateOptions) => lumiverse('batch', (typeof input === 'object' && input !== null ? input : {}) as Input, options?.signal),
    rawStream: (input: unknown) => stream('raw', input),
    quietStream: (input: unknown) => stream('quiet', input),
    dryRun: (...args: unknown[]) => requests.call('generate.dryRun', { args }),
    observe(chatId: unknown) {
      if (!observe.allowed('generation')) throw observe.denied('generation', 'spindle.generate.observe');
      return observeGeneration(observe.on, String(chatId ?? ''));
    },
  };
}

/** spindle.assemble(input, userId): the prompt of its own blocks; a signal in the input cancels it on the host, never crossing. */
export function createAssemble(requests: HostRequests) {
  return (input: unknown, userId?: unknown) => {
    const value = (typeof input === 'object' && input !== null ? input : {}) as Input;
    return requests.call('assemble', { args: [withoutSignal(value), ...(userId === undefined ? [] : [userId])] } as never, value.signal);
  };
}
