// Issue 36, item 2: a tool result is serialized once, in the worker, and crosses to the caller as that text. This test
// asserts what crosses (the frame's shape, the caller's bytes); that the host does not parse and re-serialize on the
// way is a cost, not a behaviour, and the invoke benchmark's figures (p50 and rps against a raw fork) are where it shows.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../../electron/core/host';
import type { ToolOutcome } from '../../../shared/types/tools';
import { encodeFrame, FrameDecoder } from '../../../shared/protocol/framing';
import { answer } from '../../../electron/worker/spindle/tools';
import { testHost } from '../../helpers/node-host';
import { cleanupTempDirs } from '../../helpers/temp-dir';

const FIXTURE = path.resolve('tests/fixtures/extensions/object-result');
/** What the fixture's tools return, as JSON. */
const LISTING = JSON.stringify({ entries: Array.from({ length: 2000 }, (_, i) => ({ id: i, title: `Entry ${i}`, body: 'The harbour ledger, copied out line by line.' })) });

let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
  cleanupTempDirs();
});

describe('a tool result crosses as the text the worker made', () => {
  it('the frame carries the result text verbatim after its header, not as a JSON string inside JSON', () => {
    const frame = encodeFrame(answer('r1', JSON.parse(LISTING) as unknown));
    const [header, text, rest] = frame.split('\n');
    expect(JSON.parse(header!)).toEqual({ type: 'tool_invocation_result', requestId: 'r1', ok: true, textChars: LISTING.length });
    expect(text).toBe(LISTING);
    expect(rest).toBe('');
    const frames: unknown[] = [];
    const decoder = new FrameDecoder(LISTING.length * 2, (m) => frames.push(m), (e) => frames.push(e));
    decoder.push(frame);
    expect(frames).toEqual([{ type: 'tool_invocation_result', requestId: 'r1', ok: true, text: LISTING }]);
  });

  it("over one invoke through the contract, the caller gets a real worker's text byte for byte, checked against its output schema where it declares one", async () => {
    host = await testHost();
    await host.api.call('extensions.install', { folder: FIXTURE, grant: ['tools'] }, { origin: 'test' });
    await host.extensions.whenSettled();
    const invoke = (name: string) => host!.api.call('tools.invoke', { qualifiedName: `object-result:${name}`, args: {} }, { origin: 'test' });
    expect(await invoke('listing')).toEqual({ ok: true, value: expect.objectContaining({ ok: true, content: LISTING }) });
    const checked = await invoke('checked_listing');
    expect((checked as { value: ToolOutcome }).value).toMatchObject({ ok: true, content: LISTING });
  });
});
