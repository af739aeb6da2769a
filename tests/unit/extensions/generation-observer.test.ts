// spindle.generate.observe(chatId) (Lumiverse's GenerationObserver): one chat's generations through the host's events,
// the streamed text kept, dispose unsubscribing; asked without the generation permission it is refused.
import { describe, expect, it } from 'vitest';
import { EventHandlers } from '../../../electron/worker/spindle/events';
import { createGenerate } from '../../../electron/worker/spindle/generate';
import type { HostRequests } from '../../../electron/worker/host-requests';

function generate(granted: string[]) {
  const events = new EventHandlers('local', () => undefined);
  const api = createGenerate({} as HostRequests, {
    on: (event, handler) => events.on(event, handler),
    allowed: (permission) => granted.includes(permission),
    denied: (permission) => Object.assign(new Error(`PERMISSION_DENIED: ${permission}`), { code: 'PERMISSION_DENIED' }),
  });
  return { api, emit: (event: string, payload: unknown) => events.emit(event, payload) };
}

describe('generate.observe', () => {
  it('follows its chat only: start, tokens (content and reasoning kept), end; dispose stops it', async () => {
    const { api, emit } = generate(['generation']);
    const obs = api.observe('chat-1');
    const seen: string[] = [];
    obs.onStart((p) => seen.push(`start ${(p as { generationId: string }).generationId}`));
    obs.onToken((p) => seen.push(`token ${(p as { token: string }).token}`));
    obs.onEnd(() => seen.push(`end ${obs.content}|${obs.reasoning}`));
    await emit('GENERATION_STARTED', { chatId: 'chat-1', generationId: 'g1' });
    await emit('STREAM_TOKEN_RECEIVED', { chatId: 'chat-2', generationId: 'gx', token: 'elsewhere' });
    await emit('STREAM_TOKEN_RECEIVED', { chatId: 'chat-1', generationId: 'g1', token: 'Hel' });
    await emit('STREAM_TOKEN_RECEIVED', { chatId: 'chat-1', generationId: 'g1', token: 'hmm', type: 'reasoning' });
    await emit('STREAM_TOKEN_RECEIVED', { chatId: 'chat-1', generationId: 'g1', token: 'lo' });
    expect(obs.generationId).toBe('g1');
    await emit('GENERATION_ENDED', { chatId: 'chat-1', generationId: 'g1' });
    expect(seen).toEqual(['start g1', 'token Hel', 'token hmm', 'token lo', 'end Hello|hmm']);
    expect(obs.generationId).toBeNull();
    obs.dispose();
    await emit('GENERATION_STARTED', { chatId: 'chat-1', generationId: 'g2' });
    expect(seen).toHaveLength(5);
  });

  it('is refused without the generation permission, at the call', () => {
    const { api } = generate([]);
    expect(() => api.observe('chat-1')).toThrow(expect.objectContaining({ code: 'PERMISSION_DENIED' }));
  });
});
