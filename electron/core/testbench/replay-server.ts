// The model an extension's test case talks to: an OpenAI-compatible server on 127.0.0.1 that streams the case's
// replies in order (text, then tool calls) and keeps every request it was sent. The host reaches it as any
// connection, through its real client, so what a case records is what a model would have received.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestReply } from '../../../shared/types/extension-test';

/** What one chat completion request carried (the prompt the model received). */
export interface ReplayRequest {
  messages: unknown[];
  tools: string[];
  /** The sampling it asked for (what the case's settings and the connection's defaults came to). */
  sampling?: { temperature?: number; topP?: number; maxTokens?: number };
}

export function samplingOf(body: Record<string, unknown>): ReplayRequest['sampling'] {
  const number = (key: string) => (typeof body[key] === 'number' ? (body[key] as number) : undefined);
  const sampling = { temperature: number('temperature'), topP: number('top_p'), maxTokens: number('max_tokens') ?? number('max_completion_tokens') };
  const given = Object.fromEntries(Object.entries(sampling).filter(([, v]) => v !== undefined));
  return Object.keys(given).length ? given : undefined;
}

const MAX_BODY = 64 * 1024 * 1024;

function sse(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

/** The reply as OpenAI's streaming chunks: its text in word-sized pieces, each tool call whole, then the finish. */
function frames(reply: TestReply, model: string): string[] {
  const { text = '', toolCalls = [] } = typeof reply === 'string' ? { text: reply } : reply;
  const chunk = (delta: unknown, finish: string | null = null) => sse({ id: 'chatcmpl-replay', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] });
  const out = [chunk({ role: 'assistant', content: '' })];
  for (const piece of text.match(/\S+\s*|\s+/g) ?? []) out.push(chunk({ content: piece }));
  toolCalls.forEach((call, index) => out.push(chunk({ tool_calls: [{ index, id: `call_${index + 1}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) } }] })));
  out.push(chunk({}, toolCalls.length ? 'tool_calls' : 'stop'));
  out.push(sse({ id: 'chatcmpl-replay', object: 'chat.completion.chunk', created: 0, model, choices: [], usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } }));
  out.push('data: [DONE]\n\n');
  return out;
}

/** Answers one request (undefined: the case has no answer left for it); a thrown error is told to the client. */
export type Answer = (request: ReplayRequest, body: Record<string, unknown>) => Promise<TestReply | undefined>;

/**
 * The case's replies in order; one naming a council member answers only a request that names that member (the
 * sidecar is asked for several members at once).
 */
export function scripted(replies: TestReply[]): Answer {
  const used = new Set<number>();
  return async (request) => {
    const text = JSON.stringify(request.messages.slice(0, 1));
    // The sidecar's prompt begins "You are <member>," (council/plan prompts).
    const index = replies.findIndex((reply, i) => !used.has(i) && (typeof reply === 'string' || !reply.member || text.includes(`You are ${reply.member},`)));
    if (index < 0) return undefined;
    used.add(index);
    return replies[index];
  };
}

export class ReplayServer {
  readonly requests: ReplayRequest[] = [];

  private constructor(
    private readonly server: http.Server,
    private readonly answer: Answer,
  ) {}

  static async start(answer: Answer): Promise<ReplayServer> {
    let self: ReplayServer | null = null;
    const server = http.createServer((req, res) => {
      // A body that is not JSON, a client gone mid-request: answered (or dropped), never left hanging.
      self?.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: (err as Error).message, type: 'invalid_request_error' } }));
        else res.destroy();
      });
    });
    self = new ReplayServer(server, answer);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return self;
  }

  /** The base URL of its OpenAI-compatible API. */
  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method === 'GET' && req.url?.startsWith('/v1/models')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'replay', object: 'model' }] }));
      return;
    }
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `No route ${req.method} ${req.url}`, type: 'not_found' } }));
      return;
    }
    let size = 0;
    const parts: Buffer[] = [];
    for await (const part of req as AsyncIterable<Buffer>) {
      size += part.length;
      if (size > MAX_BODY) return void res.writeHead(413).end();
      parts.push(part);
    }
    const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as { model?: string; messages?: unknown[]; tools?: Array<{ function?: { name?: string } }> };
    const sampling = samplingOf(body as Record<string, unknown>);
    const request: ReplayRequest = { messages: body.messages ?? [], tools: (body.tools ?? []).map((t) => t.function?.name ?? ''), ...(sampling ? { sampling } : {}) };
    this.requests.push(request);
    let reply: TestReply | undefined;
    try {
      reply = await this.answer(request, body as Record<string, unknown>);
    } catch (err) {
      // The real model of a recording failed: told as a provider error, which the case's run reports.
      res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `The recorded connection failed: ${(err as Error).message}`, type: 'upstream_error' } }));
      return;
    }
    if (reply === undefined) {
      // More requests than the case has replies: told as a provider error, which the case's run reports.
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `The case has no reply left for request ${this.requests.length}.`, type: 'invalid_request_error' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end(frames(reply, body.model ?? 'replay').join(''));
  }
}
