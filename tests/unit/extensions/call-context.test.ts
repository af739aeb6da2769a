// The worker's side of a shared chat context: calls that refer to it get the full context, each its own copy.
import { describe, expect, it } from 'vitest';
import type { ToolInvocationMessage } from '../../../shared/protocol';
import { CallContexts } from '../../../electron/worker/call-context';

const chat = [
  { role: 'user' as const, content: 'Who used the cove?' },
  { role: 'assistant' as const, content: 'Let me check.' },
];
const flat = 'user: Who used the cove?\nassistant: Let me check.';

function message(requestId: string, context: number | undefined, inline: boolean, extra: Record<string, unknown> = {}): ToolInvocationMessage {
  const payload = { toolName: 'echo', args: { q: 1, context: inline ? flat : null, ...extra }, requestId, ...(inline ? { contextMessages: JSON.parse(JSON.stringify(chat)) } : {}) };
  return context === undefined ? { type: 'tool_invocation', payload } : { type: 'tool_invocation', payload, context };
}

describe('CallContexts', () => {
  it('fills a call that refers to the kept context with the same context an inline call gets, in the same key order', () => {
    const contexts = new CallContexts();
    const first = contexts.payload(message('r1', 7, true))!;
    const second = contexts.payload(message('r2', 7, false))!;
    expect(second).toEqual(first && { ...first, requestId: 'r2' });
    expect(Object.keys(second)).toEqual(['toolName', 'args', 'requestId', 'contextMessages']);
    expect(Object.keys(second.args)).toEqual(['q', 'context']);
  });

  it("gives each call its own copy: one handler's changes reach neither the kept context nor the next call", () => {
    const contexts = new CallContexts();
    const first = contexts.payload(message('r1', 1, true))!;
    first.contextMessages![0]!.content = 'mutated';
    first.contextMessages!.push({ role: 'user', content: 'extra' });
    const second = contexts.payload(message('r2', 1, false))!;
    second.contextMessages![1]!.content = 'changed too';
    expect(contexts.payload(message('r3', 1, false))!.contextMessages).toEqual(chat);
  });

  it('a new context replaces the kept one; a reference to any other is refused, not guessed', () => {
    const contexts = new CallContexts();
    expect(contexts.payload(message('r1', 1, false))).toBeNull();
    contexts.payload(message('r2', 1, true));
    contexts.payload(message('r3', 2, true, { note: 'new chat' }));
    expect(contexts.payload(message('r4', 1, false))).toBeNull();
    expect(contexts.payload(message('r5', 2, false))!.args.context).toBe(flat);
    // A call without a context number is left as it came.
    const plain = message('r6', undefined, false);
    expect(contexts.payload(plain)).toBe(plain.payload);
  });
});
