// Our stdio transport (public SDK Transport interface, no private fields): log notifications over the budget
// are dropped before schema work and counted; a bad line is reported and the stream goes on; close ends the child.
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BudgetedStdioTransport } from '../../../electron/core/mcp/stdio-transport';

const SERVER = `
const log = (i) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'line ' + i } });
let out = '';
for (let i = 0; i < 500; i++) out += log(i) + '\\n';
out += 'not json\\n';
process.stdin.on('data', (chunk) => {
  const request = JSON.parse(String(chunk).trim());
  process.stdout.write(out + JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { echoed: request.params } }) + '\\n');
});
process.stderr.write('ready\\n');
`;

describe('BudgetedStdioTransport', () => {
  it('drops log notifications over the budget, reports a bad line, still delivers the reply, and closes the child', async () => {
    let dropped = 0;
    const transport = new BudgetedStdioTransport(
      { command: process.execPath, args: ['-e', SERVER], env: { PATH: process.env.PATH } },
      { maxLogPerSecond: 10, now: () => 0, onDropped: (count) => (dropped += count) },
    );
    const messages: JSONRPCMessage[] = [];
    const errors: Error[] = [];
    let closed = 0;
    let stderr = '';
    transport.stderr.on('data', (chunk: Buffer) => (stderr += String(chunk)));
    transport.onerror = (error) => errors.push(error);
    transport.onclose = () => closed++;
    const reply = new Promise<JSONRPCMessage>((resolve) => {
      transport.onmessage = (message) => {
        messages.push(message);
        if ('id' in message) resolve(message);
      };
    });

    await transport.start();
    expect(transport.pid).toEqual(expect.any(Number));
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping', params: { x: 1 } });
    expect(await reply).toMatchObject({ id: 1, result: { echoed: { x: 1 } } });

    expect(messages.filter((m) => 'method' in m && m.method === 'notifications/message')).toHaveLength(10);
    transport.flushDropped();
    expect(dropped).toBe(490);
    expect(errors).toHaveLength(1);

    await transport.close();
    expect(closed).toBe(1);
    expect(stderr).toContain('ready');
    await expect(transport.send({ jsonrpc: '2.0', id: 2, method: 'ping' })).rejects.toThrow('Not connected');
  });

  it('rejects start when the command cannot be spawned', async () => {
    const transport = new BudgetedStdioTransport({ command: '/nonexistent/mcp-server', args: [], env: {} }, { maxLogPerSecond: 10, now: () => 0, onDropped: () => {} });
    transport.onerror = () => {};
    await expect(transport.start()).rejects.toThrow(/ENOENT/);
  });
});
