// The providers running extensions offer the rest of the host (Spindle 0.6.20): listed by kind, and invoked in their
// workers with Lumiverse's limits (a request of at most 256 KiB, 30 s by default). The sidecar's picker and its calls
// go through here.
import { randomUUID } from 'node:crypto';
import { HostFailure } from '../../../shared/errors';
import type { ExtensionPermission } from '../../../shared/types/spindle';
import type { Clock } from '../ports';
import type { Entry } from './extension-entry';
import { nameOf, type ExtensionProviders } from './spindle-host/extension-providers';
import { peerWorker } from './pipeline/pipeline-bridge';

export const MAX_PROVIDER_REQUEST_CHARS = 256 * 1024;
export const PROVIDER_TIMEOUT_MS = 30_000;

export interface OfferedProvider {
  extensionId: string;
  extensionName: string;
  kind: string;
  id: string;
  /** The name it gave itself, else its id. */
  name: string;
  description: unknown;
}

export interface ProviderAccess {
  /** Running extensions' providers of a kind that hold a handler (of extensions granted `permission`, when named). */
  list(kind: string, permission?: ExtensionPermission): OfferedProvider[];
  /** Invokes one in its worker; its handler's answer, or HostFailure (NOT_FOUND, TOOL_UNAVAILABLE, its error). */
  invoke(extensionId: string, kind: string, id: string, request: unknown, options: { signal: AbortSignal; timeoutMs?: number }): Promise<unknown>;
}

export function providerAccess(entries: () => Iterable<Entry>, providers: ExtensionProviders, clock: Clock): ProviderAccess {
  const running = () => [...entries()].filter((e) => e.worker?.state === 'running');
  return {
    list(kind, permission) {
      return running()
        .filter((entry) => permission === undefined || entry.granted.has(permission))
        .flatMap((entry) =>
        providers
          .of(entry.id)
          .filter((p) => p.kind === kind && p.handled)
          .map((p) => ({ extensionId: entry.id, extensionName: entry.loaded?.manifest.name ?? entry.id, kind, id: p.id, name: nameOf(p) || p.id, description: p.description })),
      );
    },
    async invoke(extensionId, kind, id, request, options) {
      const entry = [...entries()].find((e) => e.id === extensionId);
      const provider = providers.find(extensionId, kind, id);
      if (!entry || !provider) throw new HostFailure({ code: 'NOT_FOUND', message: `No ${kind} provider "${id}" is registered by ${extensionId}.` });
      const worker = peerWorker(entry, clock);
      if (!worker || !provider.handled) throw new HostFailure({ code: 'TOOL_UNAVAILABLE', message: `The ${kind} provider "${id}" of ${entry.loaded?.manifest.name ?? extensionId} is not running.` });
      const size = JSON.stringify(request ?? null).length;
      if (size > MAX_PROVIDER_REQUEST_CHARS) throw new HostFailure({ code: 'INPUT_TOO_LARGE', message: `A provider request is at most ${MAX_PROVIDER_REQUEST_CHARS} characters of JSON; this one is ${size}.` });
      const payload = { correlationId: randomUUID(), round: 0, request: request ?? null };
      const answer = await worker.call('provider', `${kind}/${id}`, [payload], `${kind} provider "${id}"`, options.timeoutMs ?? PROVIDER_TIMEOUT_MS, options.signal);
      if (!answer.ok) throw new HostFailure(answer.error);
      return answer.value;
    },
  };
}
