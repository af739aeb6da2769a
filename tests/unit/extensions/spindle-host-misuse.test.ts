// Issue 13's adversarial cases for host-answered namespaces: enclave misuse and cors to schemes other than http(s).
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../../electron/core/connections/secret-store';
import { corsNamespace } from '../../../electron/core/extensions/spindle-host/cors';
import { ExtensionEnclave, ENCLAVE_MAX_VALUE_CHARS } from '../../../electron/core/extensions/spindle-host/enclave';
import type { Caller } from '../../../electron/core/extensions/spindle-host/namespace';
import { HostFailure } from '../../../shared/errors';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

const caller = (extensionId: string): Caller => ({ extensionId, allowed: () => true });

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
    ['an empty value', ['k', ''], 'INVALID_INPUT', '/value'],
    ['a value that is not a string', ['k', { secret: 1 }], 'INVALID_INPUT', '/value'],
    ['a value with a line break', ['k', 'a\nb'], 'INVALID_INPUT', '/value'],
    ['a value over the cap', ['k', 'x'.repeat(ENCLAVE_MAX_VALUE_CHARS + 1)], 'INPUT_TOO_LARGE', '/value'],
  ])('put refuses %s with a stable code and the field, and stores nothing', async (_label, args, code, path) => {
    const { enclave } = setup();
    expect(await refusal(() => enclave.handle(caller('ext_a'), 'put', args))).toMatchObject({ code, path });
    expect(await enclave.handle(caller('ext_a'), 'list', [])).toEqual([]);
  });

  it("one extension cannot read, list or delete another's secrets, nor an API key under its own name", async () => {
    const { secrets, enclave } = setup();
    secrets.set('openai-main', 'sk-connection-key');
    await enclave.handle(caller('ext_a'), 'put', ['token', 'a-secret']);
    expect(await enclave.handle(caller('ext_b'), 'get', ['token'])).toBeNull();
    expect(await enclave.handle(caller('ext_b'), 'list', [])).toEqual([]);
    expect(await enclave.handle(caller('ext_b'), 'delete', ['token'])).toBe(false);
    expect(await enclave.handle(caller('ext_a'), 'get', ['token'])).toBe('a-secret');
    expect(await enclave.handle(caller('ext_b'), 'get', ['openai-main'])).toBeNull();
    expect(await refusal(() => enclave.handle(caller('ext_b'), 'get', ['enclave:ext_a:token']))).toMatchObject({ code: 'INVALID_INPUT', path: '/key' });
    expect(await refusal(() => enclave.handle(caller('ext_a'), 'dump', []))).toMatchObject({ code: 'UNSUPPORTED_HERE' });
  });
});

describe('spindle.cors schemes', () => {
  it.each(['file:///etc/passwd', 'ftp://127.0.0.1/pub/file', 'data:text/plain,hi', 'javascript:alert(1)'])('refuses %s before any request (INVALID_INPUT on /url)', async (url) => {
    let fetched = 0;
    const cors = corsNamespace(async () => {
      fetched++;
      return new Response('never');
    });
    expect(await refusal(() => cors.handle(caller('ext_a'), 'fetch', [{ url }]))).toMatchObject({ code: 'INVALID_INPUT', path: '/url' });
    expect(fetched).toBe(0);
  });
});
