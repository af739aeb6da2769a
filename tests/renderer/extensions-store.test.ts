// The tools and extensions slices as the wire fills them: snapshots, events, and the per-log line buffers.
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../renderer/src/stores/app/app-store';
import { applyHostEvent } from '../../renderer/src/stores/app/wire';
import { extension, tool } from './harness';

/** A log line event as the host sends it. */
const logLine = (id: string, line: string) => ({ type: 'extension.log' as const, id, line, source: 'worker', text: line });

describe('tools and extensions slices', () => {
  it('start unloaded, then mirror snapshots and events', () => {
    const store = createAppStore();
    expect(store.getState().tools).toEqual({ items: [], loaded: false });
    expect(store.getState().extensions.loaded).toBe(false);
    applyHostEvent(store.getState(), { type: 'tools.changed', tools: [tool()] });
    expect(store.getState().tools.loaded).toBe(true);
    expect(store.getState().tools.items.map((t) => t.qualifiedName)).toEqual(['knowledge-base:search_knowledge_base']);

    store.getState().extensionsReplaced([extension()]);
    applyHostEvent(store.getState(), { type: 'extension.changed', extension: extension({ status: 'crashed' }) });
    applyHostEvent(store.getState(), { type: 'extension.changed', extension: extension({ id: 'scratchpad', name: 'Scratchpad' }) });
    expect(store.getState().extensions.items.map((e) => [e.id, e.status])).toEqual([
      ['knowledge-base', 'crashed'],
      ['scratchpad', 'running'],
    ]);
    applyHostEvent(store.getState(), { type: 'extension.removed', id: 'knowledge-base' });
    expect(store.getState().extensions.items.map((e) => e.id)).toEqual(['scratchpad']);
  });

  it('keeps log lines only for logs that were read, and drops them with the extension', () => {
    const store = createAppStore();
    store.getState().extensionsReplaced([extension(), extension({ id: 'scratchpad' })]);
    applyHostEvent(store.getState(), logLine('knowledge-base', 'early'));
    expect(store.getState().extensions.logs).toEqual({});
    store.getState().extensionLogLoaded('knowledge-base', ['a']);
    applyHostEvent(store.getState(), logLine('knowledge-base', 'b'));
    expect(store.getState().extensions.logs).toEqual({ 'knowledge-base': ['a', 'b'] });
    store.getState().extensionsReplaced([extension({ id: 'scratchpad' })]);
    expect(store.getState().extensions.logs).toEqual({});
  });

  it('treats an extension id like __proto__ as a plain key', () => {
    const store = createAppStore();
    store.getState().extensionLogLoaded('__proto__', ['x']);
    applyHostEvent(store.getState(), logLine('__proto__', 'y'));
    const logs = store.getState().extensions.logs;
    expect(Object.getPrototypeOf(logs)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(logs, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(logs, '__proto__')?.value).toEqual(['x', 'y']);
    applyHostEvent(store.getState(), logLine('constructor', 'ignored'));
    expect(Object.keys(store.getState().extensions.logs)).toEqual(['__proto__']);
  });
});
