// Issue 36, item 2: a tool result is serialized once, in the worker, and crosses to the caller as that text. The host
// neither re-serializes it nor parses it, except once where the tool declares an output schema to check it against.
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Host } from '../../../electron/core/host';
import type { ToolOutcome } from '../../../shared/types/tools';
import { encodeFrame, FrameDecoder } from '../../../shared/protocol/framing';
import { answer } from '../../../electron/worker/spindle/tools';
import { testHost } from '../../helpers/node-host';
import { cleanupTempDirs } from '../../helpers/temp-dir';

const FIXTURE = path.resolve('tests/fixtures/extensions/object-result');
/** What the fixture's tools return, as JSON (made before any spy is on). */
const LISTING = JSON.stringify({ entries: Array.from({ length: 2000 }, (_, i) => ({ id: i, title: `Entry ${i}`, body: 'The harbour ledger, copied out line by line.' })) });

let host: Host | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await host?.dispose();
  host = undefined;
  cleanupTempDirs();
});

/** Counts the characters JSON.stringify produces and JSON.parse reads while `work` runs. */
async function jsonWork<T>(work: () => Promise<T> | T): Promise<{ value: T; stringified: number; parsed: number }> {
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  let stringified = 0;
  let parsed = 0;
  vi.spyOn(JSON, 'stringify').mockImplementation(((...args: Parameters<typeof JSON.stringify>) => {
    const text = stringify(...args);
    stringified += text?.length ?? 0;
    return text;
  }) as typeof JSON.stringify);
  vi.spyOn(JSON, 'parse').mockImplementation(((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    parsed += String(text).length;
    return parse(text, reviver);
  }) as typeof JSON.parse);
  try {
    const value = await work();
    return { value, stringified, parsed };
  } finally {
    vi.restoreAllMocks();
  }
}

describe('one serialization per crossing', () => {
  it('the worker serializes a result once and the frame carries that text without escaping or parsing it', async () => {
    const value = JSON.parse(LISTING) as unknown;
    const frames: unknown[] = [];
    const decoder = new FrameDecoder(LISTING.length * 2, (m) => frames.push(m), (e) => frames.push(e));
    const sent = await jsonWork(() => encodeFrame(answer('r1', value)));
    expect(sent.parsed).toBe(0);
    // The value's JSON, plus a header of a few dozen characters: not a second copy.
    expect(sent.stringified).toBeGreaterThanOrEqual(LISTING.length);
    expect(sent.stringified).toBeLessThan(LISTING.length + 200);
    const received = await jsonWork(() => decoder.push(sent.value));
    expect(frames).toEqual([{ type: 'tool_invocation_result', requestId: 'r1', ok: true, text: LISTING }]);
    expect(received.parsed).toBeLessThan(200);
    expect(received.stringified).toBe(0);
  });

  it('over one invoke through the contract, the host neither re-serializes a real worker\'s result nor parses it', async () => {
    host = await testHost();
    await host.api.call('extensions.install', { folder: FIXTURE, grant: ['tools'] }, { origin: 'test' });
    await host.extensions.whenSettled();
    const invoke = (name: string) => host!.api.call('tools.invoke', { qualifiedName: `object-result:${name}`, args: {} }, { origin: 'test' });

    const plain = await jsonWork(() => invoke('listing'));
    expect(plain.value).toMatchObject({ ok: true, value: { ok: true, content: LISTING } });
    expect(plain.stringified).toBeLessThan(LISTING.length / 10);
    expect(plain.parsed).toBeLessThan(LISTING.length / 10);

    // With an output schema the host parses the text once, to check it.
    const checked = await jsonWork(() => invoke('checked_listing'));
    expect((checked.value as { value: ToolOutcome }).value).toMatchObject({ ok: true, content: LISTING });
    expect(checked.stringified).toBeLessThan(LISTING.length / 10);
    expect(checked.parsed).toBeGreaterThanOrEqual(LISTING.length);
    expect(checked.parsed).toBeLessThan(LISTING.length * 1.1);
  });
});
