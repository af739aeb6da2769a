// The seed-004 sequencer on its own: interleaved input, text inside calls, calls left open.
import { describe, expect, it } from 'vitest';
import { ToolCallSequencer } from '../../../electron/core/llm/tool-call-sequencer';
import type { LlmEvent } from '../../../shared/types/llm';
import { assertSeedOrder } from './helpers';

const run = (script: (s: ToolCallSequencer) => void) => {
  const events: LlmEvent[] = [];
  script(new ToolCallSequencer((e) => events.push(e)));
  return events;
};

describe('tool-call sequencer', () => {
  it('holds a second call until the first ends, keeping each call in order', () => {
    const events = run((s) => {
      s.start('a', 'one');
      s.start('b', 'two');
      s.delta('b', '{"y":');
      s.delta('a', '{"x":');
      s.delta('b', '2}');
      s.end('b', '{"y":2}', { y: 2 });
      s.delta('a', '1}');
      s.end('a', '{"x":1}', { x: 1 });
    });
    expect(events.map((e) => `${e.type}:${'id' in e ? e.id : ''}`)).toEqual([
      'tool-call-start:a',
      'tool-call-name:a',
      'tool-call-args-delta:a',
      'tool-call-args-delta:a',
      'tool-call-end:a',
      'tool-call-start:b',
      'tool-call-name:b',
      'tool-call-args-delta:b',
      'tool-call-args-delta:b',
      'tool-call-end:b',
    ]);
    expect(events.filter((e) => e.type === 'tool-call-start').map((e) => (e as { index: number }).index)).toEqual([0, 1]);
  });

  it('reasoning passes straight through between calls, and reasoning that arrives inside a call comes after it, in order with text', () => {
    const events = run((s) => {
      s.reasoning('Think first. ');
      s.start('a', 'one');
      s.reasoning('Mid-call thought. ');
      s.text('Mid-call text.');
      s.end('a', '{}', {});
      s.reasoning('After. ');
    });
    expect(events.map((e) => (e.type === 'reasoning-delta' || e.type === 'text-delta' ? `${e.type}:${e.text}` : e.type))).toEqual([
      'reasoning-delta:Think first. ',
      'tool-call-start',
      'tool-call-name',
      'tool-call-end',
      'reasoning-delta:Mid-call thought. ',
      'text-delta:Mid-call text.',
      'reasoning-delta:After. ',
    ]);
  });

  it('text that arrives inside a call comes after the call', () => {
    const events = run((s) => {
      s.text('before ');
      s.start('a', 'one');
      s.text('during');
      s.end('a', '{}', {});
      s.text(' after');
    });
    assertSeedOrder(events);
    expect(events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text)).toEqual(['before ', 'during', ' after']);
  });

  it('failOpen closes every open call, the waiting ones included, with their partial arguments', () => {
    const events = run((s) => {
      s.start('a', 'one');
      s.delta('a', '{"x"');
      s.start('b', 'two');
      s.failOpen({ code: 'LLM_BAD_RESPONSE', message: 'cut' });
    });
    assertSeedOrder(events);
    expect(events.filter((e) => e.type === 'tool-call-failed')).toEqual([
      { type: 'tool-call-failed', id: 'a', name: 'one', argsText: '{"x"', error: { code: 'LLM_BAD_RESPONSE', message: 'cut' } },
      { type: 'tool-call-failed', id: 'b', name: 'two', argsText: '', error: { code: 'LLM_BAD_RESPONSE', message: 'cut' } },
    ]);
  });

  it('ignores duplicate starts and events after a call closed', () => {
    const events = run((s) => {
      s.start('a', 'one');
      s.start('a', 'one');
      s.end('a', '{}', {});
      s.delta('a', 'late');
      s.end('a', '{}', {});
    });
    expect(events.map((e) => e.type)).toEqual(['tool-call-start', 'tool-call-name', 'tool-call-end']);
  });
});
