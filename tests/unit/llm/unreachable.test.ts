// A server that cannot be reached is LLM_UNREACHABLE naming the host, the port and the cause — never "INTERNAL · fetch failed".
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConnection } from '../../../electron/core/connections/models';
import { MemorySecretStore } from '../../../electron/core/connections/secret-store';
import { classifyError } from '../../../electron/core/connections/provider-errors';
import type { ConnectionProfile } from '../../../shared/types/llm';

let plainServer: net.Server;
let plainPort: number;
let closedPort: number;
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  // A plain TCP server that answers every connection with an HTTP/1.1 line: TLS to it fails the handshake.
  plainServer = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 400 Bad Request\r\n\r\n', () => socket.destroy());
  });
  await new Promise<void>((resolve) => plainServer.listen(0, '127.0.0.1', resolve));
  plainPort = (plainServer.address() as net.AddressInfo).port;
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => plainServer.close(() => resolve()));
});

function profile(baseUrl: string): ConnectionProfile {
  return { id: 'local', name: 'local', provider: 'openai-compatible', baseUrl, defaultModel: '', headers: {} } as ConnectionProfile;
}

const check = (baseUrl: string) => testConnection(profile(baseUrl), { secrets: new MemorySecretStore(), env: {} });

describe('connection errors name their cause', () => {
  it('refused: host, port and "is the server running?"', async () => {
    const result = await check(`http://127.0.0.1:${closedPort}/v1`);
    expect(result.ok).toBe(false);
    expect(result.error).toMatchObject({ code: 'LLM_UNREACHABLE' });
    expect(result.error!.message).toBe(`Could not reach 127.0.0.1:${closedPort}: connection refused, ECONNREFUSED. Is the server running?`);
  });

  it('TLS to a plain server: the handshake, not INTERNAL', async () => {
    const result = await check(`https://127.0.0.1:${plainPort}/v1`);
    expect(result.error?.code).toBe('LLM_UNREACHABLE');
    expect(result.error!.message).toContain(`127.0.0.1:${plainPort}: the TLS handshake failed`);
    expect(result.error!.hint).toMatch(/http:\/\//);
  });

  it('a port fetch refuses (6000) says so instead of "fetch failed"', async () => {
    const result = await check('http://127.0.0.1:6000/v1');
    expect(result.error?.code).toBe('LLM_UNREACHABLE');
    expect(result.error!.message).toContain('127.0.0.1:6000: fetch refuses this port');
  });

  it.each([
    ['ENOTFOUND', 'the host name could not be resolved (DNS)'],
    ['UND_ERR_CONNECT_TIMEOUT', 'timed out while connecting'],
    ['EHOSTUNREACH', 'the network or host is unreachable'],
  ])('%s below a fetch failure is "%s", with the scheme default port', (code, label) => {
    const cause = Object.assign(new Error(`connect ${code}`), { code });
    const error = classifyError(new TypeError('fetch failed', { cause }), { baseUrl: 'https://llm.example.test/v1' }).error;
    expect(error).toMatchObject({ code: 'LLM_UNREACHABLE', message: `Could not reach llm.example.test:443: ${label}, ${code}. Is the server running?` });
  });

  it('an unknown cause below "fetch failed" is still LLM_UNREACHABLE, with the cause\'s words', () => {
    const error = classifyError(new TypeError('fetch failed', { cause: new Error('something odd') }), { baseUrl: 'http://localhost:1234' }).error;
    expect(error).toMatchObject({ code: 'LLM_UNREACHABLE', message: 'Could not reach localhost:1234: something odd. Is the server running?' });
  });
});
