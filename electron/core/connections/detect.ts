// Finds local LLM servers on loopback (Ollama, LM Studio, llama.cpp, KoboldCpp, vLLM) by their signature endpoints, and
// any other OpenAI-compatible server on the usual ports by its /v1/models list, with short timeouts, and suggests profiles.
import type { DetectedServer, LocalServerKind } from '../../../shared/types/llm';
import type { Timers } from '../ports';
import { getJson, type FetchLike } from './http';
import { parseModelList } from './models';

type ProductKind = Exclude<LocalServerKind, 'openai-compatible'>;

export const DEFAULT_LOCAL_PORTS: Readonly<Record<ProductKind, number>> = {
  ollama: 11434,
  lmstudio: 1234,
  llamacpp: 8080,
  koboldcpp: 5001,
  vllm: 8000,
};

/** Ports where other OpenAI-compatible servers usually listen: Jan (1337), text-generation-webui (5000), GPT4All (4891). */
export const DEFAULT_GENERIC_PORTS: readonly number[] = [1337, 5000, 4891];

const LABELS: Record<LocalServerKind, string> = {
  ollama: 'Ollama',
  lmstudio: 'LM Studio',
  llamacpp: 'llama.cpp',
  koboldcpp: 'KoboldCpp',
  vllm: 'vLLM',
  'openai-compatible': 'OpenAI-compatible server',
};

export interface DetectOptions {
  /** Which servers to look for and where; defaults to DEFAULT_LOCAL_PORTS. Tests inject their own ports. */
  ports?: Partial<Record<ProductKind, number>>;
  /** More ports to ask for /v1/models only; default DEFAULT_GENERIC_PORTS with the default ports, none with given ones. */
  genericPorts?: readonly number[];
  /** Per request. Default 300 ms. */
  timeoutMs?: number;
  signal?: AbortSignal;
  fetch?: FetchLike;
  timers?: Timers;
}

/** Does the server at origin answer like `kind`? Identify by signature, not port: 5000/8000/8080 are common. */
async function identify(kind: ProductKind, origin: string, get: (url: string) => Promise<unknown>): Promise<boolean> {
  try {
    switch (kind) {
      case 'ollama':
        return typeof ((await get(`${origin}/api/version`)) as { version?: unknown })?.version === 'string';
      case 'lmstudio':
        return Array.isArray(((await get(`${origin}/api/v0/models`)) as { data?: unknown })?.data);
      case 'llamacpp':
        return ((await get(`${origin}/health`)) as { status?: unknown })?.status === 'ok';
      case 'koboldcpp':
        return ((await get(`${origin}/api/extra/version`)) as { result?: unknown })?.result === 'KoboldCpp';
      case 'vllm':
        return typeof ((await get(`${origin}/version`)) as { version?: unknown })?.version === 'string';
    }
  } catch {
    return false;
  }
}

/** The server on `port`: the first product whose signature it answers, else any OpenAI-compatible /v1/models. */
async function probe(port: number, kinds: ProductKind[], options: DetectOptions): Promise<DetectedServer | null> {
  const origin = `http://127.0.0.1:${port}`;
  const get = (url: string) =>
    getJson(url, {
      headers: { accept: 'application/json' },
      timeoutMs: options.timeoutMs ?? 300,
      maxBytes: 1024 * 1024,
      baseUrl: origin,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.timers ? { timers: options.timers } : {}),
    });
  let kind: LocalServerKind | null = null;
  for (const candidate of kinds) {
    if (await identify(candidate, origin, get)) {
      kind = candidate;
      break;
    }
  }
  const provider = kind === 'ollama' ? 'ollama' : 'openai-compatible';
  let models: string[] = [];
  try {
    models = parseModelList(provider, await get(kind === 'ollama' ? `${origin}/api/tags` : `${origin}/v1/models`));
    kind ??= 'openai-compatible';
  } catch {
    // Identified but no model list (llama.cpp still loading): still worth suggesting. Unidentified and no list: nothing.
  }
  if (!kind) return null;
  return {
    kind,
    port,
    models,
    suggested: {
      name: kind === 'openai-compatible' ? `Local server on port ${port}` : `${LABELS[kind]} (local)`,
      provider,
      baseUrl: kind === 'ollama' ? origin : `${origin}/v1`,
      defaultModel: models[0] ?? '',
      headers: {},
    },
  };
}

/** Probes every requested server in parallel; a closed or silent port costs at most two timeouts. */
export async function detectLocalServers(options: DetectOptions = {}): Promise<DetectedServer[]> {
  const ports = options.ports ?? DEFAULT_LOCAL_PORTS;
  const valid = (port: number | undefined): port is number => Number.isInteger(port) && port! > 0 && port! < 65536;
  // One probe per port, with every product expected there (and any OpenAI-compatible server after them).
  const byPort = new Map<number, ProductKind[]>();
  for (const kind of Object.keys(ports) as ProductKind[]) if (valid(ports[kind])) byPort.set(ports[kind]!, [...(byPort.get(ports[kind]!) ?? []), kind]);
  for (const port of options.genericPorts ?? (options.ports ? [] : DEFAULT_GENERIC_PORTS)) if (valid(port) && !byPort.has(port)) byPort.set(port, []);
  const found = await Promise.all([...byPort].map(([port, kinds]) => probe(port, kinds, options)));
  return found.filter((server): server is DetectedServer => server !== null);
}
