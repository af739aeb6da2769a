// A turn's breakdown is saved with the reply, whose schema bounds each note: a stage recorded with a long note
// (a list of everything that fired) is cut to fit, so the reply still saves.
import { describe, expect, it } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { TurnTrace } from '../../../electron/core/chat/pipeline/turn-trace';
import { TurnStageSchema } from '../../../shared/types/chat';

describe('the turn trace', () => {
  it('cuts a long note to what a saved reply holds, recorded or noted', () => {
    const trace = new TurnTrace(() => 0);
    trace.record({ stage: 'world info', by: 'host', ms: 0, before: 'a', after: 'b', note: 'x'.repeat(5000) });
    trace.note('macros', 'Ext', 'y'.repeat(5000));
    expect(trace.stages.map((s) => s.note!.length)).toEqual([2000, 2000]);
    for (const stage of trace.stages) expect(Value.Check(TurnStageSchema, stage)).toBe(true);
  });
});
