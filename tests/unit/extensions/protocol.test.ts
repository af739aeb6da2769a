// Reading untrusted worker input against the worker messages' schemas, error normalisation and sizes.
import { describe, expect, it } from 'vitest';
import { MAX_EVENT_NAME_CHARS, MAX_WANTED_EVENTS, toWorkerToolError, utf8ByteLength } from '../../../shared/protocol';
import { readWorkerMessage } from '../../../electron/core/extensions/workers/read-worker-message';

describe('readWorkerMessage', () => {
  it('accepts the worker messages', () => {
    expect(readWorkerMessage({ type: 'ready' })).toEqual({ ok: true, message: { type: 'ready' } });
    expect(readWorkerMessage({ type: 'ready', contained: true, networkIsolated: false })).toEqual({ ok: true, message: { type: 'ready', contained: true, networkIsolated: false } });
    expect(readWorkerMessage({ type: 'heartbeat', seq: 4 })).toEqual({ ok: true, message: { type: 'heartbeat', seq: 4 } });
    expect(readWorkerMessage({ type: 'unregister_tool', name: 'x' })).toEqual({ ok: true, message: { type: 'unregister_tool', name: 'x' } });
    expect(readWorkerMessage({ type: 'register_tool', tool: { name: 'x' } })).toMatchObject({ ok: true });
    expect(readWorkerMessage({ type: 'tool_invocation_result', requestId: 'r1', ok: true, text: '' })).toEqual({
      ok: true,
      message: { type: 'tool_invocation_result', requestId: 'r1', ok: true, text: '' },
    });
  });

  it('refuses junk, unknown types and bad request ids', () => {
    for (const raw of [{}, { type: 7 }, { type: 'init' }, { type: 'constructor' }, { type: 'register_tool' }, { type: 'register_tool', tool: [] }, { type: 'ready', contained: 'yes' }, { type: 'heartbeat', extra: 1 }]) {
      expect(readWorkerMessage(raw).ok).toBe(false);
    }
    expect(readWorkerMessage({ type: 'init' })).toEqual({ ok: false, reason: 'unknown message type "init"' });
    expect(readWorkerMessage({ type: 'tool_invocation_result', requestId: '', ok: true }).ok).toBe(false);
    expect(readWorkerMessage({ type: 'tool_invocation_result', requestId: 'a b', ok: true }).ok).toBe(false);
    expect(readWorkerMessage({ type: 'tool_invocation_result', requestId: 'r', ok: 'yes' }).ok).toBe(false);
    // A result names the field it lacks or breaks (its member is the one whose fixed fields hold: type and ok).
    expect(readWorkerMessage({ type: 'tool_invocation_result', requestId: 'r1', ok: true })).toMatchObject({ ok: false, reason: expect.stringContaining('(at /text)') });
    expect(readWorkerMessage({ type: 'tool_invocation_result', requestId: 'a b', ok: true, text: '' })).toMatchObject({ ok: false, reason: expect.stringContaining('(at /requestId)') });
    expect(readWorkerMessage({ type: 'tool_invocation_result', requestId: 'r1', ok: false, error: { code: 1, message: 'm' } })).toMatchObject({ ok: false, reason: expect.stringContaining('(at /error/code)') });
    // A result is the worker's text; a value that is not one (a bypassed runtime) is refused, not serialized here.
    expect(readWorkerMessage({ type: 'tool_invocation_result', requestId: 'r', ok: true, value: { a: 1 } })).toMatchObject({ ok: false, reason: expect.stringMatching(/^tool_invocation_result /) });
  });

  it('takes the events an extension listens to, and refuses a list that is not one of short names', () => {
    expect(readWorkerMessage({ type: 'events_wanted', events: [] })).toEqual({ ok: true, message: { type: 'events_wanted', events: [] } });
    expect(readWorkerMessage({ type: 'events_wanted', events: ['MESSAGE_SENT', 'CHAT_CHANGED'] })).toEqual({ ok: true, message: { type: 'events_wanted', events: ['MESSAGE_SENT', 'CHAT_CHANGED'] } });
    const refused = [
      { type: 'events_wanted' },
      { type: 'events_wanted', events: 'MESSAGE_SENT' },
      { type: 'events_wanted', events: [7] },
      { type: 'events_wanted', events: [''] },
      { type: 'events_wanted', events: ['x'.repeat(MAX_EVENT_NAME_CHARS + 1)] },
      { type: 'events_wanted', events: Array.from({ length: MAX_WANTED_EVENTS + 1 }, (_, i) => `E${i}`) },
    ];
    for (const raw of refused) expect(readWorkerMessage(raw)).toMatchObject({ ok: false, reason: expect.stringContaining('events_wanted') });
  });

  it('clips log text, and refuses a level it does not know (the runtime sends only the four)', () => {
    const parsed = readWorkerMessage({ type: 'log', level: 'info', message: 'm'.repeat(20_000) });
    expect(parsed.ok && parsed.message.type === 'log' && parsed.message.message.length).toBeLessThan(9000);
    expect(readWorkerMessage({ type: 'log', level: 'shout', message: 'm' })).toMatchObject({ ok: false, reason: expect.stringContaining('(at /level)') });
  });

  it('normalises a worker error: unknown code shapes become TOOL_ERROR', () => {
    const parsed = readWorkerMessage({ type: 'tool_invocation_result', requestId: 'r', ok: false, error: { code: 'not valid!', message: 'x'.repeat(5000), hint: 'h' } });
    expect(parsed).toEqual({ ok: true, message: { type: 'tool_invocation_result', requestId: 'r', ok: false, error: { code: 'TOOL_ERROR', message: expect.stringMatching(/^x+… \(\d+ more characters\)$/), hint: 'h' } } });
    expect(readWorkerMessage({ type: 'tool_invocation_result', requestId: 'r', ok: false, error: { code: 'E', message: 'x', hint: 5 } }).ok).toBe(false);
  });
});

describe('toWorkerToolError', () => {
  it('keeps the orchestrator seed shape {code, message, hint}', () => {
    const thrown = Object.assign(new Error('Database is read-only.'), { code: 'DB_READONLY', hint: 'Wait.' });
    expect(toWorkerToolError(thrown)).toEqual({ code: 'DB_READONLY', message: 'Database is read-only.', hint: 'Wait.' });
    expect(toWorkerToolError(Object.assign(new Error('fs'), { code: 'ENOENT' }))).toEqual({ code: 'ENOENT', message: 'fs' });
    expect(toWorkerToolError('text')).toEqual({ code: 'TOOL_ERROR', message: 'text' });
    expect(toWorkerToolError(new Error('m'.repeat(5000))).message.length).toBeLessThan(2100);
  });
});

describe('sizes', () => {
  it('utf8ByteLength matches Buffer.byteLength', () => {
    for (const text of ['', 'ascii', 'naïve', '日本語', '😀 emoji', '\ud800 lone surrogate', 'x'.repeat(1000)]) {
      expect(utf8ByteLength(text)).toBe(Buffer.byteLength(text));
    }
  });
});
