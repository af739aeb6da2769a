// spindle.providers and the register* helpers built on it (Spindle 0.6.20): what each extension registered as a
// provider — a sidecar endpoint, an embedding, TTS or speech-to-text driver, or a kind of its own — kept by the host,
// listed on its card, and for sidecar endpoints offered in the sidecar picker. The handler stays in the worker; the
// host invokes it there (provider-access.ts).
import { fail, type HandlersOf } from './handlers';

export interface ProviderRegistration {
  kind: string;
  id: string;
  /** Its descriptor's `description` (a sidecar endpoint's `{ name, path }`), at most 64 KiB of JSON. */
  description: unknown;
  /** A broker URL it declared: kept and shown, never dispatched to (the Workbench brokers nothing). */
  brokerUrl?: string;
  /** The worker holds a handler for it (`providers.handle`), so it can be invoked. */
  handled: boolean;
}

/** As Lumiverse: a descriptor is at most 64 KiB. */
export const MAX_DESCRIPTOR_CHARS = 64 * 1024;
/** Providers one extension may register at a time. */
export const MAX_PROVIDERS = 64;

const LABEL: Record<string, string> = { sidecar: 'sidecar endpoint', embedding: 'embedding driver', tts: 'text-to-speech engine', stt: 'speech-to-text engine' };

export class ExtensionProviders {
  private readonly byExtension = new Map<string, Map<string, Omit<ProviderRegistration, 'handled'>>>();
  /** Per extension: `kind/id` its worker holds a handler for (bound before or after its registration). */
  private readonly handledBy = new Map<string, Set<string>>();

  constructor(private readonly changed: (extensionId: string) => void) {}

  of(extensionId: string): ProviderRegistration[] {
    const handled = this.handledBy.get(extensionId);
    return [...(this.byExtension.get(extensionId)?.values() ?? [])].map((p) => ({ ...p, handled: handled?.has(`${p.kind}/${p.id}`) === true }));
  }

  find(extensionId: string, kind: string, id: string): ProviderRegistration | undefined {
    return this.of(extensionId).find((p) => p.kind === kind && p.id === id);
  }

  /** Lines for its card: `sidecar endpoint "echo" (Echo Council)`, its name when it gave one. */
  describe(extensionId: string): string[] {
    return this.of(extensionId).map((p) => {
      const name = nameOf(p);
      return `${LABEL[p.kind] ?? `${p.kind} provider`} "${p.id}"${name && name !== p.id ? ` (${name})` : ''}${p.handled ? '' : ' — no handler'}`;
    });
  }

  clear(extensionId: string): void {
    this.handledBy.delete(extensionId);
    if (this.byExtension.delete(extensionId)) this.changed(extensionId);
  }

  handlers(): HandlersOf<'providers'> {
    const mine = (extensionId: string) => {
      let map = this.byExtension.get(extensionId);
      if (!map) this.byExtension.set(extensionId, (map = new Map()));
      return map;
    };
    return {
      'providers.register': ({ kind, id, description, broker }, caller) => {
        const map = mine(caller.extensionId);
        const key = `${kind}/${id}`;
        if (!map.has(key) && map.size >= MAX_PROVIDERS) fail('QUOTA_EXCEEDED', `An extension registers at most ${MAX_PROVIDERS} providers.`, '/id');
        const size = JSON.stringify(description ?? null).length;
        if (size > MAX_DESCRIPTOR_CHARS) fail('INPUT_TOO_LARGE', `A provider descriptor is at most ${MAX_DESCRIPTOR_CHARS} characters of JSON; this one is ${size}.`, '/description');
        const url = (broker as { url?: unknown } | undefined)?.url;
        map.set(key, { kind, id, description: description ?? null, ...(typeof url === 'string' ? { brokerUrl: url.slice(0, 2048) } : {}) });
        this.changed(caller.extensionId);
        return null;
      },
      'providers.unregister': ({ kind, id }, caller) => {
        if (this.byExtension.get(caller.extensionId)?.delete(`${kind}/${id}`)) this.changed(caller.extensionId);
        return null;
      },
      'providers.handle': ({ kind, id, bound }, caller) => {
        let handled = this.handledBy.get(caller.extensionId);
        if (!handled) this.handledBy.set(caller.extensionId, (handled = new Set()));
        const key = `${kind}/${id}`;
        if (bound === handled.has(key)) return null;
        if (bound && handled.size >= MAX_PROVIDERS) fail('QUOTA_EXCEEDED', `An extension handles at most ${MAX_PROVIDERS} providers.`, '/id');
        if (bound) handled.add(key);
        else handled.delete(key);
        this.changed(caller.extensionId);
        return null;
      },
    };
  }
}

/** The name a provider gives itself in its descriptor, if any. */
export function nameOf(provider: ProviderRegistration): string {
  const name = (provider.description as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name.slice(0, 100) : '';
}
