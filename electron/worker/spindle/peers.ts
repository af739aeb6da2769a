// spindle.rpcPool and spindle.providers in the worker (with registerSidecarEndpoint, registerEmbeddingDriver,
// registerTtsEngine, registerSttEngine built on providers, as Spindle 0.6.20 describes them). Registration is fire and
// forget, as in Lumiverse: the name is answered at once, a refusal lands in the extension's log. Handlers stay here;
// the host calls them by kind and id through the pipeline registry.
import { invalidEndpointMessage, ownedEndpoint } from '../../../shared/spindle/rpc-pool-names';
import type { SpindleMethod } from '../../../shared/spindle/requests';
import type { HostRequests } from '../host-requests';
import type { SpindleLog } from './log';
import type { PipelineRegistry } from './pipeline';

type ProviderHandler = (request: { correlationId: string; round: number; key: unknown; request: unknown; signal: AbortSignal }) => unknown;
type ChangeHandler = (event: { action: 'registered' | 'unregistered' | 'updated'; key: ProviderKey }) => void;
interface ProviderKey {
  effectiveScope: string;
  installationId: string;
  kind: string;
  id: string;
}

/** A plain copy of what crosses to the host: functions dropped by JSON; a value with a cycle throws a TypeError, as Lumiverse's structured clone refuses one. */
const plain = (value: unknown): unknown => (value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown));
const policyOf = (policy: unknown) => {
  const requires = (policy as { requires?: unknown } | null | undefined)?.requires;
  return Array.isArray(requires) ? { policy: { requires: requires.map(String) } } : {};
};

export function createPeers(extensionId: string, requests: HostRequests, pipeline: PipelineRegistry, log: SpindleLog) {
  const tell = (method: SpindleMethod, params: Record<string, unknown>) =>
    requests.call(method, params as never).catch((err: Error & { code?: string }) => log.warn(`spindle.${method}: ${err.code ?? 'ERROR'}: ${err.message}`));
  const owned = (endpoint: unknown) => {
    const name = ownedEndpoint(extensionId, endpoint);
    if (!name) throw new Error(invalidEndpointMessage(endpoint));
    return name;
  };

  const rpcPool = {
    sync(endpoint: unknown, value: unknown, policy?: unknown): string {
      const name = owned(endpoint);
      pipeline.release('rpc_endpoint', name);
      void tell('rpcPool.sync', { endpoint: name, value: plain(value) ?? null, ...policyOf(policy) });
      return name;
    },
    handle(endpoint: unknown, handler: unknown, policy?: unknown): string {
      const name = owned(endpoint);
      pipeline.store('rpc_endpoint', name, handler, 'spindle.rpcPool.handle');
      void tell('rpcPool.handle', { endpoint: name, ...policyOf(policy) });
      return name;
    },
    read: (endpoint: unknown) => requests.call('rpcPool.read', { endpoint: String(endpoint ?? '') }),
    unregister(endpoint: unknown): void {
      const name = owned(endpoint);
      pipeline.release('rpc_endpoint', name);
      void tell('rpcPool.unregister', { endpoint: name });
    },
  };

  const watchers = new Set<ChangeHandler>();
  const keyOf = (kind: string, id: string): ProviderKey => ({ effectiveScope: 'user', installationId: extensionId, kind, id });
  const notify = (action: 'registered' | 'unregistered', kind: string, id: string) => {
    for (const watcher of [...watchers]) {
      try {
        watcher({ action, key: keyOf(kind, id) });
      } catch (err) {
        log.warn('A providers.onChanged handler failed:', err);
      }
    }
  };
  const names = (kind: unknown, id: unknown) => {
    if (typeof kind !== 'string' || typeof id !== 'string') throw new TypeError('spindle.providers: a provider has a string kind and id.');
    return { kind, id };
  };
  const providers = {
    register(descriptor: unknown): void {
      const d = (descriptor ?? {}) as Record<string, unknown>;
      const { kind, id } = names(d.kind, d.id);
      void tell('providers.register', { kind, id, ...(d.description !== undefined ? { description: plain(d.description) } : {}), ...(d.broker !== undefined ? { broker: plain(d.broker) } : {}) });
      notify('registered', kind, id);
    },
    unregister(kind: unknown, id: unknown): void {
      const key = names(kind, id);
      void tell('providers.unregister', key);
      notify('unregistered', key.kind, key.id);
    },
    handle(kind: unknown, id: unknown, handler: unknown): () => void {
      const key = names(kind, id);
      const callId = `${key.kind}/${key.id}`;
      if (typeof handler !== 'function') throw new TypeError('spindle.providers.handle expects a handler function.');
      // The host passes the invoke payload; its cancel or deadline aborts the signal (a late answer is dropped there).
      const invoke = (payload: { correlationId: string; round: number; request: unknown }, signal: AbortSignal) => (handler as ProviderHandler)({ ...payload, key: keyOf(key.kind, key.id), signal });
      pipeline.store('provider', callId, invoke, 'spindle.providers.handle', { signal: true });
      void tell('providers.handle', { ...key, bound: true });
      return () => {
        if (pipeline.release('provider', callId)) void tell('providers.handle', { ...key, bound: false });
      };
    },
    onChanged(handler: unknown): () => void {
      if (typeof handler !== 'function') throw new TypeError('spindle.providers.onChanged expects a handler function.');
      watchers.add(handler as ChangeHandler);
      return () => watchers.delete(handler as ChangeHandler);
    },
  };

  /** registerSidecarEndpoint and the drivers: a provider of their kind whose handler calls their method. */
  const provide =
    (kind: string, method: string, describe: (it: Record<string, unknown>) => Record<string, unknown>) =>
    (it: unknown): (() => void) => {
      const target = (it ?? {}) as Record<string, unknown>;
      const run = target[method];
      if (typeof target.id !== 'string' || typeof run !== 'function') throw new TypeError(`A ${kind} provider needs an id and a ${method} function.`);
      providers.register({ kind, id: target.id, description: describe(target) });
      const release = providers.handle(kind, target.id, ({ request }: { request: unknown }) => (run as (input: unknown) => unknown).call(target, request));
      return () => {
        release();
        providers.unregister(kind, target.id);
      };
    };
  const named = (it: Record<string, unknown>) => (typeof it.name === 'string' ? { name: it.name } : {});

  return {
    rpcPool,
    providers,
    registerSidecarEndpoint: provide('sidecar', 'handle', (it) => ({ ...named(it), path: typeof it.path === 'string' ? it.path : '' })),
    registerEmbeddingDriver: provide('embedding', 'embed', named),
    registerTtsEngine: provide('tts', 'synthesize', named),
    registerSttEngine: provide('stt', 'transcribe', named),
  };
}
