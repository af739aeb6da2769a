// Both doors' message handlers on what a worker may send: the pipe door (frames on fd 4) and the Electron utilityProcess door (posted messages).
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_FRAME_CHARS, type WorkerToHostMessage } from '../../../shared/protocol';
import type { WorkerHandle } from '../../../electron/core/extensions/launcher';
import { PipeWorker } from '../../../electron/core/extensions/node-launcher';
import { UtilityWorker, type UtilityChild } from '../../../electron/main/utility-worker';

interface Door {
  handle: WorkerHandle;
  /** The worker sends one message, in this door's form (a frame, or a posted value). */
  send(message: unknown): Promise<void>;
  received: WorkerToHostMessage[];
  violations: string[];
  killed(): boolean;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

function observe(handle: WorkerHandle, extra: Omit<Door, 'handle' | 'received' | 'violations'>): Door {
  const door: Door = { handle, received: [], violations: [], ...extra };
  handle.onMessage((message) => door.received.push(message));
  handle.onProtocolError((reason) => door.violations.push(reason));
  return door;
}

class StandInChild extends EventEmitter {
  readonly pid = 4242;
  exitCode: number | null = null;
  signalCode: string | null = null;
  readonly stdio = [null, new PassThrough(), new PassThrough(), new PassThrough(), new PassThrough()] as const;
  readonly stdout = this.stdio[1];
  readonly stderr = this.stdio[2];
  kills = 0;
  kill(): boolean {
    this.kills++;
    return true;
  }
}

const opened: StandInChild[] = [];
afterEach(() => {
  for (const child of opened.splice(0)) for (const stream of child.stdio) stream?.destroy();
});

/** The pipe door: what the worker writes to fd 4 reaches PipeWorker's reader as bytes. */
function pipeDoor(): Door & { write(bytes: string | Buffer): Promise<void>; child: StandInChild } {
  const child = new StandInChild();
  opened.push(child);
  const handle = new PipeWorker(child as unknown as ChildProcess);
  const write = async (bytes: string | Buffer) => {
    if (!child.stdio[4].destroyed) child.stdio[4].write(bytes);
    await settle();
  };
  const door = observe(handle, { send: (message) => write(`${JSON.stringify(message)}\n`), killed: () => child.kills > 0 });
  return Object.assign(door, { write, child });
}

/** The utilityProcess door: what the worker posts reaches the 'message' listener UtilityWorker installed. */
function utilityDoor(): Door {
  const child = new EventEmitter() as EventEmitter & UtilityChild;
  let kills = 0;
  Object.assign(child, { pid: 4343, stdout: null, stderr: null, postMessage: () => {}, kill: () => (kills++, true) });
  const handle = new UtilityWorker(child);
  return observe(handle, {
    send: async (message) => {
      child.emit('message', message);
      await settle();
    },
    killed: () => kills > 0,
  });
}

const doors: Record<string, () => Door> = { 'pipe door': pipeDoor, 'utilityProcess door': utilityDoor };

describe.each(Object.entries(doors))('%s', (_name, open) => {
  it('delivers protocol messages, checked, in order', async () => {
    const door = open();
    await door.send({ type: 'ready' });
    await door.send({ type: 'log', level: 'shout', message: 'hello' });
    await door.send({ type: 'tool_invocation_result', requestId: 'r1', ok: true, value: { a: 1 } });
    expect(door.received).toEqual([
      { type: 'ready' },
      { type: 'log', level: 'info', message: 'hello' },
      { type: 'tool_invocation_result', requestId: 'r1', ok: true, value: { a: 1 } },
    ]);
    expect(door.violations).toEqual([]);
  });

  const bad: Array<[string, unknown, RegExp]> = [
    ['a bare string', 'this is not a message', /invalid message: not an object with a type/],
    ['an unknown type', { type: 'exec', command: 'rm -rf /' }, /unknown message type "exec"/],
    ['a registration without a tool', { type: 'register_tool' }, /register_tool without a tool object/],
    ['a result with a bad request id', { type: 'tool_invocation_result', requestId: 'has space', ok: true }, /without a valid requestId/],
    ['an array', [{ type: 'ready' }], /not an object with a type/],
  ];
  it.each(bad)('reports %s once as a protocol violation and delivers nothing after it', async (_what, message, reason) => {
    const door = open();
    await door.send({ type: 'ready' });
    await door.send(message);
    await door.send({ type: 'log', level: 'info', message: 'after' });
    expect(door.received).toEqual([{ type: 'ready' }]);
    expect(door.violations).toHaveLength(1);
    expect(door.violations[0]).toMatch(reason);
  });

  it('survives a host handler that throws: the worker is reported, the host keeps running', async () => {
    const door = open();
    door.handle.onMessage(() => {
      throw new Error('host bug');
    });
    await door.send({ type: 'ready' });
    expect(door.violations).toEqual(['sent a ready message the host could not handle (host bug)']);
  });
});

describe('the pipe door', () => {
  it('reports a line that is not JSON; the frames before it were delivered', async () => {
    const door = pipeDoor();
    await door.write('{"type":"ready"}\nthis is not json\n{"type":"ready"}\n');
    expect(door.received).toEqual([{ type: 'ready' }]);
    expect(door.violations).toHaveLength(1);
    expect(door.violations[0]).toMatch(/^wrote a line that is not JSON \(/);
  });

  it('cuts off a writer that goes past the frame cap without a line end, having held at most one frame', async () => {
    const door = pipeDoor();
    const chunk = 'x'.repeat(64 * 1024);
    let written = 0;
    // 512 MB would follow; the reader stops at the cap and stops reading.
    while (written < 512 * 1024 * 1024 && door.violations.length === 0) {
      await door.write(chunk);
      written += chunk.length;
    }
    expect(door.violations).toEqual([`wrote a message longer than ${MAX_FRAME_CHARS} characters (or text without a line end)`]);
    expect(written).toBeLessThanOrEqual(MAX_FRAME_CHARS + chunk.length);
    expect(door.child.stdio[4].destroyed).toBe(true);
  });

  it('reassembles frames split anywhere, even inside a UTF-8 character, and ignores blank lines', async () => {
    const door = pipeDoor();
    const bytes = Buffer.from(`${JSON.stringify({ type: 'log', level: 'info', message: 'naïve 日本語 😀' })}\n\n{"type":"ready"}\n`);
    for (let i = 0; i < bytes.length; i += 3) await door.write(bytes.subarray(i, i + 3));
    expect(door.received).toEqual([
      { type: 'log', level: 'info', message: 'naïve 日本語 😀' },
      { type: 'ready' },
    ]);
  });

  it('refuses to write a frame over the cap, and kills the whole process group', async () => {
    const door = pipeDoor();
    expect(door.handle.send({ type: 'error', operation: 'x', error: { code: 'X', message: 'y'.repeat(MAX_FRAME_CHARS) } })).toBe('oversized');
    expect(door.handle.send({ type: 'ping', seq: 1 })).toBe('sent');
    const groups: number[] = [];
    const realKill = process.kill;
    process.kill = ((pid: number) => (groups.push(pid), true)) as typeof process.kill;
    try {
      door.handle.kill();
    } finally {
      process.kill = realKill;
    }
    if (process.platform !== 'win32') expect(groups).toEqual([-4242]);
    expect(door.child.kills).toBe(1);
    expect(door.handle.send({ type: 'ping', seq: 2 })).toBe('closed');
  });
});

describe('the utilityProcess door', () => {
  it('survives a message whose fields throw when read', async () => {
    const door = utilityDoor();
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('gotcha');
        },
      },
    );
    await door.send(hostile);
    expect(door.violations).toEqual(['sent a message that could not be read (gotcha)']);
  });
});
