// How the host's frames leave for a worker on its pipe: all of them, in order, whole, soon — how they are batched into
// writes is the transport's business and not asserted here.
import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BATCH_WRITE_CHARS, PipeWorker } from '../../../electron/core/extensions/workers/launcher';
import type { HostToWorkerMessage } from '../../../shared/protocol';

/** A child process as far as PipeWorker reads it, whose host → worker pipe records the frames of each write it is handed. */
function fakeChild() {
  const writes: string[][] = [];
  const input = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const text = chunk.toString();
      // Each frame ends with its newline, so a write holds whole frames only.
      expect(text.endsWith('\n')).toBe(true);
      writes.push(text.slice(0, -1).split('\n'));
      done();
    },
  });
  const child = Object.assign(new EventEmitter(), { pid: 4242, stdout: null, stderr: null, stdio: [null, null, null, input, new PassThrough()] });
  return { worker: new PipeWorker(child as unknown as ChildProcess), writes };
}

const cancel = (n: number): HostToWorkerMessage => ({ type: 'cancel', requestId: `r${n}`, reason: 'cancelled' });
const nextTick = () => new Promise<void>((resolve) => process.nextTick(resolve));
const frames = (writes: string[][]) => writes.flat().map((line) => JSON.parse(line) as unknown);

describe('PipeWorker.send', () => {
  it('frames sent in one tick all arrive, in order, each write holding whole frames', async () => {
    const { worker, writes } = fakeChild();
    for (let n = 0; n < 100; n++) expect(worker.send(cancel(n))).toBe(true);
    await nextTick();
    expect(frames(writes)).toEqual(Array.from({ length: 100 }, (_, n) => cancel(n)));
  });

  it('the first frames of a long burst (a council cycle\'s calls) leave while the host is still sending the rest', async () => {
    const { worker, writes } = fakeChild();
    for (let n = 0; n < 1000; n++) worker.send(cancel(n));
    // The worker can start on the first calls before the burst's tick ends.
    expect(writes.length).toBeGreaterThan(0);
    await nextTick();
    expect(frames(writes)).toEqual(Array.from({ length: 1000 }, (_, n) => cancel(n)));
  });

  it('a lone frame leaves by the end of its tick, and frames of later ticks follow it', async () => {
    const { worker, writes } = fakeChild();
    worker.send(cancel(1));
    await nextTick();
    expect(frames(writes)).toEqual([cancel(1)]);
    worker.send(cancel(2));
    worker.send(cancel(3));
    await nextTick();
    expect(frames(writes)).toEqual([cancel(1), cancel(2), cancel(3)]);
  });

  it('a frame larger than a batch goes out whole, in its place among the others', async () => {
    const { worker, writes } = fakeChild();
    const big: HostToWorkerMessage = { type: 'event', event: 'MESSAGE_SENT', payload: 'x'.repeat(BATCH_WRITE_CHARS) };
    worker.send(cancel(1));
    worker.send(big);
    worker.send(cancel(2));
    await nextTick();
    expect(frames(writes)).toEqual([cancel(1), big, cancel(2)]);
  });

  it('sends nothing once killed', async () => {
    const { worker, writes } = fakeChild();
    worker.kill();
    expect(worker.send(cancel(1))).toBe(false);
    await nextTick();
    expect(writes).toEqual([]);
  });
});
