// The baselines the invocation benchmark is read against: a bare fork round trip and an MCP stdio callTool.
import { fork } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = import.meta.dirname;

export interface Target {
  call(): Promise<unknown>;
  close(): Promise<void>;
  /** Throws when calls failed during the run. */
  verify?(): void;
}

export async function rawFork(): Promise<Target> {
  const child = fork(path.join(here, 'fixtures', 'echo-child.mjs'), [], { serialization: 'json', env: {}, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const pending = new Map<number, (value: unknown) => void>();
  let next = 0;
  child.on('message', (message: { id: number; result: unknown }) => {
    pending.get(message.id)?.(message.result);
    pending.delete(message.id);
  });
  await new Promise((resolve) => child.once('spawn', resolve));
  return {
    call: () =>
      new Promise((resolve) => {
        const id = next++;
        pending.set(id, resolve);
        child.send({ id, args: { text: 'hi' } });
      }),
    close: async () => {
      child.kill();
    },
  };
}

export async function mcpStdio(): Promise<Target> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(here, 'fixtures', 'mcp-echo-server.mjs')],
    env: {},
    stderr: 'inherit',
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  return {
    call: () => client.callTool({ name: 'echo', arguments: { text: 'hi' } }),
    close: () => client.close(),
  };
}
