// How the host's frames leave for a worker on its pipe: batched within a tick, at most FRAMES_PER_WRITE frames or about BATCH_WRITE_CHARS characters per write.
import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BATCH_WRITE_CHARS, FRAMES_PER_WRITE, PipeWorker } from '../../../electron/core/extensions/workers/launcher';
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
  it('a burst in one tick leaves in writes of at most FRAMES_PER_WRITE frames, the first while the burst goes on', async () => {
    const { worker, writes } = fakeChild();
    const total = FRAMES_PER_WRITE * 2 + 5;
    for (let n = 0; n < total; n++) {
      expect(worker.send(cancel(n))).toBe(true);
      // The first full batch is out before the rest of the burst is written.
      if (n === FRAMES_PER_WRITE - 1) expect(writes.map((w) => w.length)).toEqual([FRAMES_PER_WRITE]);
    }
    expect(writes.map((w) => w.length)).toEqual([FRAMES_PER_WRITE, FRAMES_PER_WRITE]);
    await nextTick();
    expect(writes.map((w) => w.length)).toEqual([FRAMES_PER_WRITE, FRAMES_PER_WRITE, 5]);
    expect(frames(writes)).toEqual(Array.from({ length: total }, (_, n) => cancel(n)));
  });

  it('a lone frame waits for the end of its tick, and each tick writes its own', async () => {
    const { worker, writes } = fakeChild();
    worker.send(cancel(1));
    expect(writes).toEqual([]);
    await nextTick();
    expect(frames(writes)).toEqual([cancel(1)]);
    worker.send(cancel(2));
    worker.send(cancel(3));
    await nextTick();
    expect(writes.map((w) => w.length)).toEqual([1, 2]);
    expect(frames(writes)).toEqual([cancel(1), cancel(2), cancel(3)]);
  });

  it('a batch of exactly FRAMES_PER_WRITE leaves nothing waiting, and the next tick writes its own', async () => {
    const { worker, writes } = fakeChild();
    for (let n = 0; n < FRAMES_PER_WRITE; n++) worker.send(cancel(n));
    await nextTick();
    worker.send(cancel(99));
    await nextTick();
    expect(writes.map((w) => w.length)).toEqual([FRAMES_PER_WRITE, 1]);
  });

  it('a frame that fills the batch goes out at once, with the frames before it', async () => {
    const { worker, writes } = fakeChild();
    const big: HostToWorkerMessage = { type: 'event', event: 'MESSAGE_SENT', payload: 'x'.repeat(BATCH_WRITE_CHARS) };
    worker.send(cancel(1));
    worker.send(big);
    expect(writes.map((w) => w.length)).toEqual([2]);
    worker.send(cancel(2));
    await nextTick();
    expect(frames(writes)).toEqual([cancel(1), big, cancel(2)]);
    expect(writes.map((w) => w.length)).toEqual([2, 1]);
  });

  it('sends nothing once killed', async () => {
    const { worker, writes } = fakeChild();
    worker.kill();
    expect(worker.send(cancel(1))).toBe(false);
    await nextTick();
    expect(writes).toEqual([]);
  });
});
