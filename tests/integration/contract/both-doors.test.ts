// Issue 16: one contract suite over both doors into one real core — the Electron IPC handler (electron/main/ipc.ts,
// driven in plain Node through a fake ipcMain and sender) and the browser-mode WebSocket (electron/headless/server.ts).
// Whatever a renderer sees through one door it must see through the other; door-only refusals follow at the end.
import { Type, type TSchema } from '@sinclair/typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Host } from '../../../electron/core/host';
import { contract, type MethodName } from '../../../shared/contract';
import { HOST_EVENTS } from '../../../shared/contract/events';
import { ERROR_CODES, type HostError, type Result } from '../../../shared/errors';
import { MAX_INPUT_BYTES } from '../../../shared/limits';
import { SettingsSchema, type Settings } from '../../../shared/settings';
import type { ToolInfo, ToolOutcome } from '../../../shared/types/tools';
import { testHost } from '../../helpers/node-host';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { APP_FRAME, ipcDoor, wsDoor, type Door, type DoorName, type IpcDoor, type WsDoor } from './doors';

const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
const compiled = new Map<TSchema, ValidateFunction>();
function validator(schema: TSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
  return validate;
}

/** Every error that leaves a door: a known code, a message, optionally a hint and a field path, nothing else. */
const ErrorResultSchema = Type.Object(
  {
    ok: Type.Literal(false),
    error: Type.Object(
      {
        code: Type.Union(ERROR_CODES.map((code) => Type.Literal(code))),
        message: Type.String({ minLength: 1 }),
        hint: Type.Optional(Type.String()),
        path: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/** The value of an ok result, checked against the method's output schema in the contract. */
function okValue<M extends MethodName>(method: M, result: Result<unknown>): unknown {
  expect(result, `${method} failed`).toMatchObject({ ok: true });
  const value = (result as { value: unknown }).value;
  const validate = validator(contract[method].result);
  expect(validate(value) ? [] : validate.errors, `${method} output against its schema`).toEqual([]);
  return value;
}

/** The error of a failed result, checked against the one error shape. */
function errorOf(result: Result<unknown>, code: string, path?: string): HostError {
  const validate = validator(ErrorResultSchema);
  expect(validate(result) ? [] : validate.errors, `error shape of ${JSON.stringify(result).slice(0, 300)}`).toEqual([]);
  const error = (result as { error: HostError }).error;
  expect(error.code).toBe(code);
  if (path !== undefined) expect(error.path).toBe(path);
  return error;
}

let host: Host;
let dataDir: string;
const doors = {} as { ipc: IpcDoor; ws: WsDoor };

beforeAll(async () => {
  dataDir = tempDir();
  host = await testHost(dataDir);
  doors.ipc = ipcDoor(host);
  doors.ws = await wsDoor(host);
});

afterAll(async () => {
  await doors.ipc?.close();
  await doors.ws?.close();
  await host?.dispose();
  cleanupTempDirs();
});

describe.each<DoorName>(['ipc', 'ws'])('the contract through the %s door', (name) => {
  const door = (): Door => doors[name];
  const otherDoor = (): Door => doors[name === 'ipc' ? 'ws' : 'ipc'];

  it('host.status and host.ping answer in the shapes of their output schemas', async () => {
    const status = okValue('host.status', await door().invoke('host.status', {})) as { dataDir: string; mode: string };
    expect(status).toMatchObject({ dataDir, mode: 'cli' });
    const before = Date.now();
    const ping = okValue('host.ping', await door().invoke('host.ping', {})) as { now: number };
    expect(ping.now).toBeGreaterThanOrEqual(before - 1000);
    expect(ping.now).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('an absent or null input counts as {}', async () => {
    okValue('host.ping', await door().invoke('host.ping', undefined));
    okValue('host.status', await door().invoke('host.status', null));
  });

  it('settings round trip: get, update, get again', async () => {
    const before = okValue('settings.get', await door().invoke('settings.get', {})) as Settings;
    const theme = before.ui.theme === 'dark' ? 'light' : 'dark';
    const updated = okValue('settings.update', await door().invoke('settings.update', { patch: { ui: { theme } } })) as Settings;
    expect(updated.ui.theme).toBe(theme);
    const after = okValue('settings.get', await door().invoke('settings.get', {})) as Settings;
    expect(after).toEqual(updated);
    expect(host.settings.get().ui.theme).toBe(theme);
  });

  it('a settings patch the schema refuses is SETTINGS_INVALID naming the field, and changes nothing', async () => {
    const before = okValue('settings.get', await door().invoke('settings.get', {}));
    errorOf(await door().invoke('settings.update', { patch: { ui: { theme: 'neon' } } }), 'SETTINGS_INVALID', '/ui/theme');
    expect(okValue('settings.get', await door().invoke('settings.get', {}))).toEqual(before);
  });

  it('X6: an unknown method is UNKNOWN_METHOD, and the door keeps serving', async () => {
    for (const method of ['host.selfDestruct', '__proto__', 'constructor', '', 'x'.repeat(10_000)]) {
      errorOf(await door().invoke(method, {}), 'UNKNOWN_METHOD');
    }
    okValue('host.ping', await door().invoke('host.ping', {}));
  });

  it('a method name that is not a string is UNKNOWN_METHOD', async () => {
    for (const method of [5, null, true, ['host.ping'], { name: 'host.ping' }]) {
      errorOf(await door().invoke(method, {}), 'UNKNOWN_METHOD');
    }
  });

  it('X5: a wrong, missing or extra input field is INVALID_INPUT naming the field', async () => {
    errorOf(await door().invoke('notices.dismiss', { id: 5 }), 'INVALID_INPUT', '/id');
    errorOf(await door().invoke('notices.dismiss', {}), 'INVALID_INPUT', '/id');
    errorOf(await door().invoke('host.status', { sneaky: true }), 'INVALID_INPUT', '/sneaky');
    errorOf(await door().invoke('tools.invoke', { qualifiedName: 'notes:list_pages', args: [] }), 'INVALID_INPUT', '/args');
    for (const input of ['text', 42, [1, 2]]) errorOf(await door().invoke('host.status', input), 'INVALID_INPUT');
  });

  it('X5: an input over 1 MB is INPUT_TOO_LARGE, and the door keeps serving', async () => {
    const big = { patch: { blob: 'x'.repeat(MAX_INPUT_BYTES + 10) } };
    const error = errorOf(await door().invoke('settings.update', big), 'INPUT_TOO_LARGE');
    expect(error.message).toContain(String(MAX_INPUT_BYTES));
    expect(host.settings.get()).not.toHaveProperty('blob');
    okValue('settings.get', await door().invoke('settings.get', {}));
  });

  it("an import method has its own larger cap: 2 MB reaches the schema check instead of the size cap", async () => {
    const input = { content: 'x'.repeat(2 * MAX_INPUT_BYTES), sneaky: true };
    errorOf(await door().invoke('packs.import', input), 'INVALID_INPUT', '/sneaky');
  });

  it('what is not JSON data is INVALID_INPUT, and the door keeps serving', async () => {
    const error = await door().sendNonJson();
    expect(error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/not JSON/) });
    okValue('host.ping', await door().invoke('host.ping', {}));
  });

  it('delivers host events: a settings change made through this door, and one made through the other door', async () => {
    for (const via of [door(), otherDoor()]) {
      const theme = host.settings.get().ui.theme === 'dark' ? 'light' : 'dark';
      const changed = door().nextEvent('settings.changed');
      okValue('settings.update', await via.invoke('settings.update', { patch: { ui: { theme } } }));
      const event = await changed;
      expect(event.settings.ui.theme, `change through ${via.name}`).toBe(theme);
      expect(validator(SettingsSchema)(event.settings)).toBe(true);
    }
  });

  it('tools.list answers ToolInfo[] and filters', async () => {
    const all = okValue('tools.list', await door().invoke('tools.list', {})) as ToolInfo[];
    expect(all.map((t) => t.qualifiedName)).toEqual(expect.arrayContaining(['notes:list_pages', 'notes:create_note', 'council:continuity_check']));
    const builtin = okValue('tools.list', await door().invoke('tools.list', { source: 'builtin' })) as ToolInfo[];
    expect(builtin.length).toBeGreaterThan(0);
    expect(builtin.every((t) => t.source === 'builtin')).toBe(true);
    errorOf(await door().invoke('tools.list', { source: 'elsewhere' }), 'INVALID_INPUT', '/source');
  });

  it('tools.invoke runs a built-in read tool; tool failures come back inside an ok result as ToolOutcome data', async () => {
    const listed = okValue('tools.invoke', await door().invoke('tools.invoke', { qualifiedName: 'notes:list_pages', args: {} })) as ToolOutcome;
    expect(listed).toMatchObject({ ok: true, content: expect.any(String) });
    expect(JSON.parse((listed as { content: string }).content)).toEqual({ pages: expect.any(Array) });

    const badArgs = okValue('tools.invoke', await door().invoke('tools.invoke', { qualifiedName: 'notes:list_pages', args: { recursive: 'yes' } }));
    expect(badArgs).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS', path: '/recursive' } });
    const unknown = okValue('tools.invoke', await door().invoke('tools.invoke', { qualifiedName: 'nope:nothing', args: {} }));
    expect(unknown).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TOOL' } });
  });

  it('errors are data: concurrent good and bad calls each resolve with their own result', async () => {
    const calls: Array<[string, unknown]> = [
      ['host.ping', {}],
      ['host.nope', {}],
      ['notices.dismiss', { id: 7 }],
      ['notices.dismiss', { id: 'no-such-notice' }],
      ['settings.update', { patch: { x: 'y'.repeat(MAX_INPUT_BYTES) } }],
      ['host.status', {}],
    ];
    const results = await Promise.all(calls.map(([method, input]) => door().invoke(method, input)));
    okValue('host.ping', results[0]!);
    errorOf(results[1]!, 'UNKNOWN_METHOD');
    errorOf(results[2]!, 'INVALID_INPUT', '/id');
    expect(okValue('notices.dismiss', results[3]!)).toEqual({ dismissed: false });
    errorOf(results[4]!, 'INPUT_TOO_LARGE');
    okValue('host.status', results[5]!);
  });

  it('a core that throws instead of answering is INTERNAL, and the door keeps serving', async () => {
    const spy = vi.spyOn(host.api, 'call').mockRejectedValueOnce(new Error('the core broke its promise'));
    try {
      const error = errorOf(await door().invoke('host.ping', {}), 'INTERNAL');
      expect(error.message).not.toContain('broke its promise');
    } finally {
      spy.mockRestore();
    }
    okValue('host.ping', await door().invoke('host.ping', {}));
  });

  it('every event the door delivered is one the contract declares (HOST_EVENTS)', () => {
    expect(door().events.length).toBeGreaterThan(0);
    for (const event of door().events) expect(Object.keys(HOST_EVENTS), event.type).toContain(event.type);
  });
});

describe('only through the IPC door', () => {
  it('X4: the real handler refuses a null frame, a subframe, a foreign or look-alike page and another webContents, before the core sees the call', async () => {
    const spy = vi.spyOn(host.api, 'call');
    try {
      const senders = [
        { frame: null },
        { frame: { url: APP_FRAME.url, parent: { url: APP_FRAME.url, parent: null } } },
        { frame: { url: 'https://evil.example/index.html', parent: null } },
        { frame: { url: 'app://council.evil/index.html', parent: null } },
        { frame: { url: 'file:///work/main/out/renderer/index.html', parent: null } },
        { frame: APP_FRAME, contents: { getURL: () => APP_FRAME.url } },
      ];
      for (const sender of senders) {
        const error = errorOf(await doors.ipc.invokeFrom(sender, 'settings.update', { patch: { ui: { theme: 'dark' } } }), 'UNAUTHORIZED');
        expect(error.message).toMatch(/^IPC call rejected: /);
      }
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses our page in a window that is already destroyed', async () => {
    doors.ipc.window.destroyed = true;
    try {
      errorOf(await doors.ipc.invoke('host.ping', {}), 'UNAUTHORIZED');
    } finally {
      doors.ipc.window.destroyed = false;
    }
    okValue('host.ping', await doors.ipc.invoke('host.ping', {}));
  });

  it('says a non-string method must be a string', async () => {
    expect(errorOf(await doors.ipc.invoke(42, {}), 'UNKNOWN_METHOD').message).toBe('The method name must be a string.');
  });

  it('hands the core plain JSON: a Map, a Date or a typed array arrives as JSON would carry it, with its JSON size', async () => {
    const spy = vi.spyOn(host.api, 'call');
    try {
      errorOf(await doors.ipc.invoke('notices.dismiss', { id: new Map([['a', 1]]) }), 'INVALID_INPUT', '/id');
      expect(spy).toHaveBeenLastCalledWith('notices.dismiss', { id: {} }, { origin: 'ipc' }, JSON.stringify({ id: {} }).length);
      const at = new Date(0);
      errorOf(await doors.ipc.invoke('notices.dismiss', { id: 'n', at, bytes: new Uint8Array([1, 2]) }), 'INVALID_INPUT');
      expect(spy).toHaveBeenLastCalledWith('notices.dismiss', { id: 'n', at: at.toJSON(), bytes: { 0: 1, 1: 2 } }, { origin: 'ipc' }, expect.any(Number));
    } finally {
      spy.mockRestore();
    }
  });

  it('a cycle or a BigInt is INVALID_INPUT and never reaches the core', async () => {
    const spy = vi.spyOn(host.api, 'call');
    try {
      const cycle: Record<string, unknown> = { id: 'n' };
      cycle.self = cycle;
      expect(errorOf(await doors.ipc.invoke('notices.dismiss', cycle), 'INVALID_INPUT').message).toBe('Input is not JSON data.');
      errorOf(await doors.ipc.invoke('notices.dismiss', { id: 10n }), 'INVALID_INPUT');
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('a page that reloads loses its link: an answer meant for the page before never reaches the next one', async () => {
    const extra = ipcDoor(host);
    let release: (result: Result<unknown>) => void = () => undefined;
    const spy = vi.spyOn(host.api, 'call').mockImplementationOnce(() => new Promise((resolve) => (release = resolve)));
    try {
      void extra.invoke('host.status', {});
      await vi.waitFor(() => expect(spy).toHaveBeenCalled());
      extra.window.navigate();
      release({ ok: true, value: 'meant for the page before' });
      await new Promise((resolve) => setImmediate(resolve));
      expect(JSON.stringify(extra.window.sent)).not.toContain('meant for the page before');
      // The next page calls as any page does, on a link of its own.
      okValue('host.ping', await extra.invoke('host.ping', {}));
    } finally {
      spy.mockRestore();
      extra.dispose();
    }
  });

  it('sends events only to a live window showing our page, and stops at dispose', async () => {
    const extra = ipcDoor(host);
    let disposed = false;
    try {
      extra.window.url = 'https://evil.example/';
      let changed = doors.ipc.nextEvent('settings.changed');
      okValue('settings.update', await doors.ipc.invoke('settings.update', { patch: { ui: { theme: 'light' } } }));
      await changed;
      expect(extra.window.sent).toEqual([]);

      extra.window.url = APP_FRAME.url;
      extra.window.destroyed = true;
      changed = doors.ipc.nextEvent('settings.changed');
      okValue('settings.update', await doors.ipc.invoke('settings.update', { patch: { ui: { theme: 'dark' } } }));
      await changed;
      expect(extra.window.sent).toEqual([]);

      extra.window.destroyed = false;
      extra.dispose();
      disposed = true;
      expect(extra.ipcMain.listeners.size).toBe(0);
      await expect(extra.invoke('host.ping', {})).rejects.toThrow(/No listener/);
      changed = doors.ipc.nextEvent('settings.changed');
      okValue('settings.update', await doors.ipc.invoke('settings.update', { patch: { ui: { theme: 'light' } } }));
      await changed;
      expect(extra.window.sent).toEqual([]);
    } finally {
      if (!disposed) extra.dispose();
    }
  });
});

describe('only through the WebSocket door', () => {
  it('a binary frame or a frame that is not an invoke is INVALID_INPUT, and the socket keeps serving', async () => {
    expect(await doors.ws.sendRaw(Buffer.from(JSON.stringify({ kind: 'invoke', id: 1, method: 'host.ping', input: {} })))).toMatchObject({
      code: 'INVALID_INPUT',
      message: 'Message is not JSON.',
    });
    for (const frame of ['null', '[]', '{"kind":"invoke","method":"host.ping"}', '{"kind":"call","id":1,"method":"host.ping"}', '{"kind":"invoke","id":"1","method":"host.ping"}']) {
      expect(await doors.ws.sendRaw(frame), frame).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('Expected') });
    }
    okValue('host.ping', await doors.ws.invoke('host.ping', {}));
  });
});
