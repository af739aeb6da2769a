// Issue 13's adversarial cases for host-answered namespaces: enclave misuse and cors to schemes other than http(s).
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../../electron/core/connections/secret-store';
import { CORS_LIMITS, corsHandlers } from '../../../electron/core/extensions/spindle-host/cors';
import { ExtensionEnclave, ENCLAVE_MAX_VALUE_CHARS } from '../../../electron/core/extensions/spindle-host/enclave';
import { HostFailure } from '../../../shared/errors';
import { anyCaller, callSpindle } from '../../helpers/spindle-call';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

const caller = anyCaller;

async function refusal(work: () => unknown) {
  try {
    await work();
  } catch (err) {
    if (err instanceof HostFailure) return err.error;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('spindle.enclave misuse', () => {
  const setup = () => {
    const secrets = new MemorySecretStore();
    return { secrets, enclave: new ExtensionEnclave(tempDir(), () => secrets) };
  };

  it.each([
    ['a key with a slash', ['../other', 'v'], 'INVALID_INPUT', '/key'],
    ['an empty key', ['', 'v'], 'INVALID_INPUT', '/key'],
    ['a key that is not a string', [{ toString: (): string => 'k' }, 'v'], 'INVALID_INPUT', '/key'],
    ['a value that is not a string', ['k', { secret: 1 }], 'INVALID_INPUT', '/value'],
    ['a value with a control character', ['k', 'a\u0000b'], 'INVALID_INPUT', '/value'],
    ['a value with an escape character', ['k', 'a\u001bb'], 'INVALID_INPUT', '/value'],
    ['a value over the cap', ['k', 'x'.repeat(ENCLAVE_MAX_VALUE_CHARS + 1)], 'INPUT_TOO_LARGE', '/value'],
  ])('put refuses %s with a stable code and the field, and stores nothing', async (_label, args, code, path) => {
    const { enclave } = setup();
    expect(await refusal(() => callSpindle(enclave.handlers(), caller('ext_a'), 'enclave.put', { args: args }))).toMatchObject({ code, path });
    expect(await callSpindle(enclave.handlers(), caller('ext_a'), 'enclave.list', { args: [] })).toEqual([]);
  });

  it.each([
    ['the empty string', ''],
    ['line breaks and a tab', 'line one\nline two\r\n\tindented'],
    ['spaces at its ends', '  padded  '],
    ['text that looks like the encoding', 'cw-enclave-b64:aGk='],
    ['non-ASCII text', 'pässwörd 月影'],
  ])('put takes %s, as Lumiverse does, and get gives it back exactly', async (_label, value) => {
    const { enclave } = setup();
    await callSpindle(enclave.handlers(), caller('ext_a'), 'enclave.put', { args: ['k', value] });
    expect(await callSpindle(enclave.handlers(), caller('ext_a'), 'enclave.get', { args: ['k'] })).toBe(value);
    expect(await callSpindle(enclave.handlers(), caller('ext_a'), 'enclave.has', { args: ['k'] })).toBe(true);
    expect(await callSpindle(enclave.handlers(), caller('ext_a'), 'enclave.list', { args: [] })).toEqual(['k']);
  });

  it("one extension cannot read, list or delete another's secrets, nor an API key under its own name", async () => {
    const { secrets, enclave } = setup();
    secrets.set('openai-main', 'sk-connection-key');
    await callSpindle(enclave.handlers(), caller('ext_a'), 'enclave.put', { args: ['token', 'a-secret'] });
    expect(await callSpindle(enclave.handlers(), caller('ext_b'), 'enclave.get', { args: ['token'] })).toBeNull();
    expect(await callSpindle(enclave.handlers(), caller('ext_b'), 'enclave.list', { args: [] })).toEqual([]);
    expect(await callSpindle(enclave.handlers(), caller('ext_b'), 'enclave.delete', { args: ['token'] })).toBe(false);
    expect(await callSpindle(enclave.handlers(), caller('ext_a'), 'enclave.get', { args: ['token'] })).toBe('a-secret');
    expect(await callSpindle(enclave.handlers(), caller('ext_b'), 'enclave.get', { args: ['openai-main'] })).toBeNull();
    expect(await refusal(() => callSpindle(enclave.handlers(), caller('ext_b'), 'enclave.get', { args: ['enclave:ext_a:token'] }))).toMatchObject({ code: 'INVALID_INPUT', path: '/key' });
    expect(await refusal(() => callSpindle(enclave.handlers(), caller('ext_a'), 'enclave.dump', { args: [] }))).toMatchObject({ code: 'UNSUPPORTED_HERE' });
  });
});

describe('spindle.cors schemes', () => {
  it.each(['file:///etc/passwd', 'ftp://127.0.0.1/pub/file', 'data:text/plain,hi', 'javascript:alert(1)'])('refuses %s before any request (INVALID_INPUT on /url)', async (url) => {
    let fetched = 0;
    const cors = corsHandlers(async () => {
      fetched++;
      return new Response('never');
    });
    expect(await refusal(() => callSpindle(cors, caller('ext_a'), 'cors.fetch', { url }))).toMatchObject({ code: 'INVALID_INPUT', path: '/url' });
    expect(fetched).toBe(0);
  });
});

describe('spindle.cors destinations (SSRF)', () => {
  const fakeLookup = (table: Record<string, string[]>) => async (host: string) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return found;
  };
  const counting = (answer: (url: string) => Response) => {
    const fetched: string[] = [];
    const impl = async (url: URL | RequestInfo) => {
      fetched.push(String(url));
      return answer(String(url));
    };
    return { fetched, impl: impl as typeof fetch };
  };

  it.each([
    ['the metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['a link-local IPv6 address', 'http://[fe80::1]/'],
    ['an IPv4-mapped metadata address', 'http://[::ffff:169.254.169.254]/'],
    ['the unspecified address', 'http://0.0.0.0:8080/'],
    ['a metadata host name', 'http://metadata.google.internal/computeMetadata/v1/'],
    ['a name that resolves to the metadata address', 'http://innocent.example/'],
    ['AWS IPv6 metadata', 'http://[fd00:ec2::254]/'],
  ])('A6: refuses %s before any request (PERMISSION_DENIED on /url)', async (_label, url) => {
    const { fetched, impl } = counting(() => new Response('never'));
    const cors = corsHandlers(impl, CORS_LIMITS, fakeLookup({ 'innocent.example': ['93.184.216.34', '169.254.169.254'] }));
    expect(await refusal(() => callSpindle(cors, caller('ext_a'), 'cors.fetch', { url }))).toMatchObject({ code: 'PERMISSION_DENIED', path: '/url' });
    expect(fetched).toEqual([]);
  });

  it('A6: a redirect to the metadata address is refused before the second request; loopback and LAN stay reachable', async () => {
    const { fetched, impl } = counting((url) =>
      url.startsWith('http://public.example') ? new Response(null, { status: 302, headers: { location: 'http://169.254.169.254/latest/' } }) : new Response('local ok'),
    );
    const cors = corsHandlers(impl, CORS_LIMITS, fakeLookup({ 'public.example': ['93.184.216.34'], 'tts.lan': ['192.168.1.20'] }));
    expect(await refusal(() => callSpindle(cors, caller('ext_a'), 'cors.fetch', { url: 'http://public.example/x' }))).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(fetched).toEqual(['http://public.example/x']);
    expect(await callSpindle(cors, caller('ext_a'), 'cors.fetch', { url: 'http://127.0.0.1:5000/speak' })).toMatchObject({ status: 200, body: 'local ok' });
    expect(await callSpindle(cors, caller('ext_a'), 'cors.fetch', { url: 'http://tts.lan/speak' })).toMatchObject({ status: 200, body: 'local ok' });
  });

  it('credentials follow a redirect within the origin but never to another one (an API key to a stranger)', async () => {
    const seen: Array<[string, Record<string, string>]> = [];
    const impl = (async (url: URL, init: RequestInit) => {
      seen.push([String(url), { ...(init.headers as Record<string, string>) }]);
      if (url.pathname === '/start') return new Response(null, { status: 302, headers: { location: '/moved' } });
      if (url.pathname === '/moved') return new Response(null, { status: 302, headers: { location: 'http://elsewhere.example/land' } });
      return new Response('landed');
    }) as unknown as typeof fetch;
    const cors = corsHandlers(impl, CORS_LIMITS, fakeLookup({ 'api.example': ['93.184.216.34'], 'elsewhere.example': ['93.184.216.35'] }));
    const headers = { Authorization: 'Bearer sk-secret', Cookie: 'session=1', 'Proxy-Authorization': 'Basic x', Accept: 'image/png' };
    expect(await callSpindle(cors, caller('ext_a'), 'cors.fetch', { url: 'http://api.example/start', init: { headers } })).toMatchObject({ status: 200, body: 'landed' });
    expect(seen.map(([url, h]) => [url, Object.keys(h).sort()])).toEqual([
      ['http://api.example/start', ['Accept', 'Authorization', 'Cookie', 'Proxy-Authorization']],
      ['http://api.example/moved', ['Accept', 'Authorization', 'Cookie', 'Proxy-Authorization']],
      ['http://elsewhere.example/land', ['Accept']],
    ]);
  });

  it('follows at most 5 redirects, each checked, and a 303 continues as a GET without the body', async () => {
    const seen: Array<[string, string, string | undefined]> = [];
    const impl = (async (url: URL, init: RequestInit) => {
      seen.push([String(url), String(init.method), init.body as string | undefined]);
      const n = Number(new URL(String(url)).searchParams.get('n') ?? 0);
      if (n === 0) return new Response(null, { status: 303, headers: { location: '/?n=1' } });
      return new Response(null, { status: 302, headers: { location: `/?n=${n + 1}` } });
    }) as unknown as typeof fetch;
    const cors = corsHandlers(impl, CORS_LIMITS, fakeLookup({ 'loop.example': ['93.184.216.34'] }));
    expect(await refusal(() => callSpindle(cors, caller('ext_a'), 'cors.fetch', { url: 'http://loop.example/?n=0', init: { method: 'POST', body: 'x' } }))).toMatchObject({ code: 'LLM_UNREACHABLE', message: expect.stringMatching(/More than 5 redirects/) });
    expect(seen).toHaveLength(6);
    expect(seen[0]).toEqual(['http://loop.example/?n=0', 'POST', 'x']);
    expect(seen[1]).toEqual(['http://loop.example/?n=1', 'GET', undefined]);
  });
});
