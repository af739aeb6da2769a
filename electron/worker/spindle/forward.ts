// Namespaces the host answers, method by method: each call becomes `request('<path>', { args })`.
import type { NamespaceSpec } from '../../../shared/spindle/members';
import type { HostRequests } from '../host-requests';
import type { SpindleMethod } from '../../../shared/spindle/requests';

/** A namespace whose every method (nested ones too) asks the host with its arguments as given. */
export function forwardNamespace(path: string, spec: NamespaceSpec, requests: HostRequests): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, style] of Object.entries(spec.methods)) {
    out[name] =
      typeof style === 'string'
        ? (...args: unknown[]) => requests.call(`${path}.${name}` as SpindleMethod, { args: args.filter((arg) => typeof arg !== 'function') })
        : forwardNamespace(`${path}.${name}`, style, requests);
  }
  return out;
}
