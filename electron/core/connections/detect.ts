// Finds local LLM servers on loopback (Ollama, LM Studio, llama.cpp, KoboldCpp, vLLM) by their signature endpoints, with short timeouts, and suggests profiles.
import type { DetectedServer, LocalServerKind } from '../../../shared/types/llm';
import type { Timers } from '../ports';
import { getJson, type FetchLike } from './http';
import { parseModelList } from './models';

export const DEFAULT_LOCAL_PORTS: Readonly<Record<LocalServerKind, number>> = {
  ollama: 11434,
  lmstudio: 1234,
  llamacpp: 8080,
  koboldcpp: 5001,
  vllm: 8000,
};

const LABELS: Record<LocalServerKind, string> = {
  ollama: 'Ollama',
  lmstudio: 'LM Studio',
  llamacpp: 'llama.cpp',
  koboldcpp: 'KoboldCpp',
  vllm: 'vLLM',
};

export interface DetectOptions {
  /** Which servers to look for and where; defaults to DEFAULT_LOCAL_PORTS. Tests inject their own ports. */
  ports?: Partial<Record<LocalServerKind, number>>;
  /** Per request. Default 300 ms. */
  timeoutMs?: number;
  signal?: AbortSignal;
  fetch?: FetchLike;
  timers?: Timers;
}

/** Does the server at origin answer like `kind`? Identify by signature, not port: 5000/8000/8080 are common. */
async function identify(kind: LocalServerKind, origin: string, get: (url: string) => Promise<unknown>): Promise<boolean> {
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

async function probe(kind: LocalServerKind, port: number, options: DetectOptions): Promise<DetectedServer | null> {
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
  if (!(await identify(kind, origin, get))) return null;
  const provider = kind === 'ollama' ? 'ollama' : 'openai-compatible';
  let models: string[] = [];
  try {
    models = parseModelList(provider, await get(kind === 'ollama' ? `${origin}/api/tags` : `${origin}/v1/models`));
  } catch {
    // Identified but no model list (llama.cpp still loading): still worth suggesting.
  }
  return {
    kind,
    port,
    models,
    suggested: {
      name: `${LABELS[kind]} (local)`,
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
  const kinds = (Object.keys(ports) as LocalServerKind[]).filter((k) => Number.isInteger(ports[k]) && ports[k]! > 0 && ports[k]! < 65536);
  const found = await Promise.all(kinds.map((kind) => probe(kind, ports[kind]!, options)));
  return found.filter((server): server is DetectedServer => server !== null);
}
