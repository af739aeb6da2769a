// Lumiverse extensions as the council's sidecar (Spindle 0.6.20 registerSidecarEndpoint): each running extension's
// sidecar endpoint is offered beside the connections, chosen as `extension:<extension id>/<endpoint id>`, and called as
// an OpenAI-compatible server whose transport is the extension's handler — the request goes to it as Lumiverse's
// BrokerRequest, its BrokerResponse comes back as the HTTP response. The LLM layer only carries the transport
// (LlmCallOptions.fetch) to the OpenAI-compatible provider.
import { randomUUID } from 'node:crypto';
import { HostFailure } from '../../../shared/errors';
import type { ConnectionProfile } from '../../../shared/types/llm';
import { PROVIDER_TIMEOUT_MS, type ProviderAccess } from '../extensions/provider-access';
import { completionAsEvents } from './completion-events';

export const ENDPOINT_PREFIX = 'extension:';

export interface SidecarEndpointView {
  /** What the sidecar settings keep: `extension:<extension id>/<endpoint id>`. */
  id: string;
  name: string;
  extensionName: string;
}

export interface ResolvedEndpoint {
  profile: ConnectionProfile;
  fetch: typeof fetch;
}

const refOf = (extensionId: string, id: string) => `${ENDPOINT_PREFIX}${extensionId}/${id}`;

export class SidecarEndpoints {
  private source: () => ProviderAccess | null = () => null;

  /** The extensions come up after the sidecar: they are reached through this once they exist. */
  attach(source: () => ProviderAccess | null): void {
    this.source = source;
  }

  /**
   * What is offered: endpoints of running extensions granted `chats`, since a sidecar reads what the council asks of it
   * (the chat's text among it).
   */
  list(): SidecarEndpointView[] {
    return this.offered().map((p) => ({ id: refOf(p.extensionId, p.id), name: p.name, extensionName: p.extensionName }));
  }

  /** The profile and transport for a sidecar setting naming an endpoint; undefined for any other setting. */
  resolve(ref: string): ResolvedEndpoint | undefined {
    if (!ref.startsWith(ENDPOINT_PREFIX)) return undefined;
    const access = this.source();
    const offered = this.offered().find((p) => refOf(p.extensionId, p.id) === ref);
    if (!access || !offered) throw new HostFailure({ code: 'SIDECAR_NOT_CONFIGURED', message: `The sidecar endpoint ${ref.slice(ENDPOINT_PREFIX.length)} is not offered now: its extension is not running, is not granted ${SIDECAR_PERMISSION}, or no longer registers it.`, hint: 'Start the extension (granted chats), or choose another sidecar in Sidecar.' });
    const path = String((offered.description as { path?: unknown } | null)?.path ?? '').replace(/^\/*/, '/').replace(/\/+$/, '');
    const profile: ConnectionProfile = {
      id: `ext-${offered.extensionId}-${offered.id}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64),
      name: `${offered.name} (${offered.extensionName})`,
      provider: 'openai-compatible',
      // A reserved name that never resolves: the transport below is the only way a request leaves.
      baseUrl: `https://${offered.extensionId.replace(/_/g, '-')}.extension.invalid${path}`,
      defaultModel: offered.id,
      headers: {},
    };
    return { profile, fetch: endpointFetch(access, offered.extensionId, offered.id) };
  }

  private offered() {
    return this.source()?.list('sidecar', SIDECAR_PERMISSION) ?? [];
  }
}

/** What an extension must be granted for its endpoint to serve as the sidecar. */
export const SIDECAR_PERMISSION = 'chats';

/** A fetch whose every request is handed to the extension's endpoint as a BrokerRequest. */
function endpointFetch(access: ProviderAccess, extensionId: string, id: string): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = await request.text();
    const url = new URL(request.url);
    const headers = Object.fromEntries([...request.headers].filter(([name]) => name !== 'authorization'));
    const broker = {
      kind: 'sidecar',
      id,
      method: request.method,
      url: `${url.pathname}${url.search}`,
      headers,
      body,
      bodyEncoding: 'utf8',
      expectedResponseEncoding: 'utf8',
      timeoutMs: PROVIDER_TIMEOUT_MS,
      allowlistKey: `extension:${extensionId}:${id}`,
      correlationId: randomUUID(),
      round: 0,
    };
    const answer = await access.invoke(extensionId, 'sidecar', id, broker, { signal: init?.signal ?? request.signal });
    return asResponse(answer, wantsStream(body));
  };
}

const wantsStream = (body: string) => {
  try {
    return (JSON.parse(body) as { stream?: unknown }).stream === true;
  } catch {
    return false;
  }
};

/** The endpoint's BrokerResponse as an HTTP response; a whole JSON completion to a streamed request as its events. */
function asResponse(answer: unknown, streamed: boolean): Response {
  const a = (answer ?? {}) as { status?: unknown; headers?: unknown; body?: unknown; bodyEncoding?: unknown; contentType?: unknown };
  if (typeof a.status !== 'number' || !Number.isInteger(a.status) || a.status < 200 || a.status > 599 || typeof a.body !== 'string') {
    throw new HostFailure({ code: 'LLM_BAD_RESPONSE', message: 'The sidecar endpoint did not answer a BrokerResponse (an HTTP status and a body string).' });
  }
  const headers = new Headers();
  const body = a.bodyEncoding === 'base64' ? Buffer.from(a.body, 'base64').toString('utf8') : a.body;
  try {
    for (const [name, value] of Object.entries(typeof a.headers === 'object' && a.headers !== null ? a.headers : {})) if (typeof value === 'string') headers.set(name, value);
    if (typeof a.contentType === 'string' && a.contentType) headers.set('content-type', a.contentType);
    const type = headers.get('content-type') ?? '';
    if (streamed && a.status < 300 && !type.includes('event-stream')) {
      headers.set('content-type', 'text/event-stream');
      return new Response(completionAsEvents(body), { status: a.status, headers });
    }
    return new Response([101, 204, 205, 304].includes(a.status) ? null : body, { status: a.status, headers });
  } catch (err) {
    if (err instanceof HostFailure) throw err;
    // A header name or value HTTP does not allow.
    throw new HostFailure({ code: 'LLM_BAD_RESPONSE', message: `The sidecar endpoint answered a response HTTP cannot carry: ${(err as Error).message}` });
  }
}
