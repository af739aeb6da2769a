// `chat`: one Workbench turn from the command line, the reply streamed to stdout (or one JSON document with --json).
import fs from 'node:fs';
import { HostFailure, type HostError } from '../../../shared/errors';
import type { HostEvent } from '../../../shared/contract/events';
import type { ChatEvent, ChatFinishReason } from '../../../shared/types/chat-events';
import type { LlmUsage } from '../../../shared/types/llm';
import { callHost, type CliCommand, type CliContext } from './command';

const USAGE = 'chat --connection <id> [--model M] --message "<text>" [--council] [--session <file>] [--dry-run] [--approve \'<glob>\']… [--json]';

export interface ChatCliResult {
  sessionId: string;
  text: string;
  toolCalls: Array<{ id: string; name: string; qualifiedName: string | null; argsText: string; ok: boolean | null; result: string | null; errorCode?: string }>;
  usage: LlmUsage | null;
  finishReason: ChatFinishReason;
  reason?: string;
  council: { runId: string } | null;
  error?: HostError;
  /** What a reasoning model thought before it answered (not part of `text`). */
  reasoning?: string;
}

function str(ctx: CliContext, flag: string): string | undefined {
  const value = ctx.flags[flag];
  return typeof value === 'string' ? value : undefined;
}

/** Builds the command; `write` receives streamed text (stdout by default, a buffer in tests). */
export function chatCommand(write: (text: string) => void = (text) => void process.stdout.write(text)): CliCommand {
  return {
    words: ['chat'],
    usesTools: true,
    usage: USAGE,
    summary: 'Send one message on a connection and stream the reply; --session keeps the conversation in a file.',
    flags: {
      connection: { type: 'string' },
      model: { type: 'string' },
      message: { type: 'string' },
      council: { type: 'boolean' },
      session: { type: 'string' },
      /** Simulate write tools (council and inline calls); the reply is still generated. */
      'dry-run': { type: 'boolean' },
    },
    async run(ctx) {
      const connectionId = str(ctx, 'connection');
      const message = str(ctx, 'message');
      if (!connectionId) throw new HostFailure({ code: 'INVALID_INPUT', message: `Missing --connection. Usage: ${USAGE}`, path: '--connection' });
      if (!message) throw new HostFailure({ code: 'INVALID_INPUT', message: `Missing --message. Usage: ${USAGE}`, path: '--message' });
      const json = ctx.flags.json === true;
      const sessionFile = str(ctx, 'session');

      let sessionId: string;
      if (sessionFile && fs.existsSync(sessionFile)) {
        const imported = await callHost(ctx.host, 'chat.sessions.import', { json: fs.readFileSync(sessionFile, 'utf8') });
        sessionId = imported.id;
      } else {
        sessionId = (await callHost(ctx.host, 'chat.sessions.create', { title: message.slice(0, 60) || 'CLI chat' })).id;
      }

      const result: ChatCliResult = { sessionId, text: '', toolCalls: [], usage: null, finishReason: 'stop', council: null };
      let turnId: string | null = null;
      const early: ChatEvent[] = [];
      let resolveDone!: () => void;
      const done = new Promise<void>((resolve) => (resolveDone = resolve));
      const handle = (event: ChatEvent) => {
        switch (event.type) {
          case 'chat.delta':
            result.text += event.text;
            if (!json) write(event.text);
            break;
          case 'chat.reasoning':
            if (result.reasoning === undefined) ctx.progress('[thinking…]');
            result.reasoning = (result.reasoning ?? '') + event.text;
            break;
          case 'chat.toolCall': {
            let call = result.toolCalls.find((c) => c.id === event.callId);
            if (!call) {
              call = { id: event.callId, name: '', qualifiedName: null, argsText: '', ok: null, result: null };
              result.toolCalls.push(call);
            }
            if (event.phase === 'name') {
              call.name = event.name;
              call.qualifiedName = event.qualifiedName;
              ctx.progress(`\n[tool ${event.name}${event.memberName ? ` for ${event.memberName}` : ''}]`);
            } else if (event.phase === 'ended' || event.phase === 'failed') call.argsText = event.argsText;
            else if (event.phase === 'result') {
              call.ok = event.ok;
              call.result = event.content;
              if (event.errorCode) call.errorCode = event.errorCode;
            }
            break;
          }
          case 'chat.council':
            if (event.phase === 'completed') result.council = { runId: event.runId };
            if (event.phase === 'started') ctx.progress('[council deliberating…]');
            if (event.phase === 'failed') ctx.progress(`[council failed: ${event.error.message}]`);
            if (event.phase === 'skipped') ctx.progress(`[council skipped: ${event.reason}]`);
            break;
          case 'chat.error':
            result.error = event.error;
            break;
          case 'chat.finished':
            result.finishReason = event.finishReason;
            result.usage = event.usage;
            if (event.reason) result.reason = event.reason;
            if (event.error) result.error = event.error;
            resolveDone();
            break;
          default:
            break;
        }
      };
      const off = ctx.host.onEvent((event: HostEvent) => {
        if (!event.type.startsWith('chat.') || event.type === 'chat.sessions.changed') return;
        const chatEvent = event as ChatEvent;
        if (chatEvent.sessionId !== sessionId) return;
        if (turnId === null) early.push(chatEvent);
        else if ('turnId' in chatEvent && chatEvent.turnId === turnId) handle(chatEvent);
      });
      try {
        const started = await callHost(ctx.host, 'chat.send', {
          sessionId,
          text: message,
          connectionId,
          ...(str(ctx, 'model') ? { model: str(ctx, 'model')! } : {}),
          ...(ctx.flags.council === true ? { council: true } : {}),
          ...(ctx.flags['dry-run'] === true ? { toolDryRun: true } : {}),
        });
        turnId = started.turnId;
        for (const event of early.splice(0)) if ('turnId' in event && event.turnId === turnId) handle(event);
        await done;
      } finally {
        off();
      }
      if (!json) write('\n');
      if (sessionFile) fs.writeFileSync(sessionFile, (await callHost(ctx.host, 'chat.sessions.export', { sessionId })).json);
      if (result.error && !json) throw new HostFailure(result.error);
      return result;
    },
    format: (value) => {
      const r = value as ChatCliResult;
      return r.reason ? `[${r.reason}]` : '';
    },
  };
}
