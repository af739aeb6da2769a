// Spindle 0.6.20's providers and Lumiverse's shared RPC pool, as published extensions use them: a sidecar endpoint
// serves as the council's sidecar (listed beside the connections, called as an OpenAI-compatible server through the
// extension), drivers are accepted and listed, and extensions read each other's state with permissions checked.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { chatRig, type ChatRig } from '../chat/helpers';
import { fixture, waitFor } from './harness';

const OWNER = 'lumiverse_providers';
const READER = 'lumiverse_pool_reader';
let rig: ChatRig | null = null;

afterEach(async () => {
  await rig?.close();
  rig = null;
  cleanupTempDirs();
});

async function withBoth(): Promise<ChatRig> {
  rig = await chatRig();
  for (const id of [OWNER, READER]) {
    // The reader asks for chats and generation too, but is granted only tools (until a test grants them).
    await rig.host.extensions.installFromFolder(fixture(id), { grant: id === READER ? ['tools'] : 'requested', trust: true }, () => undefined);
    await waitFor(() => rig!.host.extensions.get(id).status === 'running' && rig!.host.registry.list().some((t) => t.qualifiedName.startsWith(`${id}:`)), `${id} to run`);
  }
  // Registrations are fire and forget: the worker's last one has reached the host once it has caught up.
  await rig.host.extensions.workerCaughtUp(OWNER);
  return rig;
}

async function tool<T>(r: ChatRig, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const outcome = await r.host.registry.invoke(name, args, { timeoutMs: 20_000 });
  if (!outcome.ok) throw new Error(`${name}: ${JSON.stringify(outcome.error)}`);
  return JSON.parse(outcome.content) as T;
}

const read = (r: ChatRig, endpoint: string) => tool<{ value?: unknown; code?: string; message?: string }>(r, `${READER}:read`, { endpoint });

describe('the shared RPC pool', () => {
  it('answers a published value and an on-demand one to another extension; the owner gets the full name at once and a bad name throws', async () => {
    const r = await withBoth();
    expect(await read(r, `${OWNER}.status.current`)).toEqual({ value: { online: true, mood: 'listening' } });
    expect(await read(r, `${OWNER}.status.live`)).toEqual({ value: { requestedBy: READER, effective: [], endpoint: `${OWNER}.status.live` } });
    const report = await tool<{ published: string; badName: string }>(r, `${OWNER}:report`);
    expect(report.published).toBe(`${OWNER}.status.current`);
    expect(report.badName).toMatch(/^Invalid shared RPC endpoint "Bad Name!"\. Expected "<extension_id>.<channel>"/);
    expect(r.host.extensions.get(OWNER).registrations?.shared).toEqual([
      `${OWNER}.status.current (value)`,
      `${OWNER}.status.live (on demand)`,
      `${OWNER}.secret.state (value)`,
      `${OWNER}.status.broken (on demand)`,
    ]);
  }, 60_000);

  it('refuses a reader without the owner permissions the default policy requires, a missing or bad endpoint, and passes on a handler that throws', async () => {
    const r = await withBoth();
    const denied = await read(r, `${OWNER}.secret.state`);
    expect(denied.code).toBe('PERMISSION_DENIED');
    expect(denied.message).toContain(`requires requester "${READER}" to inherit owner "${OWNER}" permissions: chats, generation`);
    expect(await read(r, `${OWNER}.nothing.here`)).toMatchObject({ code: 'NOT_FOUND', message: `Shared RPC endpoint "${OWNER}.nothing.here" is not registered` });
    expect(await read(r, 'no-dot')).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await read(r, `${OWNER}.status.broken`)).toMatchObject({ message: expect.stringContaining('The status is broken on purpose.') });
    // Granted what the owner holds, the reader may read it.
    await r.host.extensions.grant(READER, ['chats']);
    expect((await read(r, `${OWNER}.secret.state`)).message).toMatch(/permissions: generation$/);
    await r.host.extensions.grant(READER, ['generation']);
    expect(await read(r, `${OWNER}.secret.state`)).toEqual({ value: { chats: 'what the chats permission guards' } });
  }, 60_000);

  it('an owner that loses a permission takes back the values it published under the default policy (they would reach readers without it); the rest stay', async () => {
    const r = await withBoth();
    await r.host.extensions.grant(READER, ['chats']);
    await r.host.extensions.revoke(OWNER, ['generation']);
    // Read under the owner's grants now (chats), the value published while it also held generation would be readable.
    expect(await read(r, `${OWNER}.secret.state`)).toMatchObject({ code: 'NOT_FOUND' });
    expect(await read(r, `${OWNER}.status.current`)).toEqual({ value: { online: true, mood: 'listening' } });
    expect(await read(r, `${OWNER}.status.live`)).toMatchObject({ value: { requestedBy: READER } });
    expect(r.host.extensions.get(OWNER).registrations?.shared).toEqual([`${OWNER}.status.current (value)`, `${OWNER}.status.live (on demand)`, `${OWNER}.status.broken (on demand)`]);
  }, 60_000);

  it('an owner that stops takes its endpoints with it', async () => {
    const r = await withBoth();
    await r.host.extensions.disable(OWNER);
    expect(await read(r, `${OWNER}.status.current`)).toMatchObject({ code: 'NOT_FOUND' });
    expect(r.host.extensions.get(OWNER).registrations?.shared).toBeUndefined();
  }, 60_000);
});

describe('providers (Spindle 0.6.20)', () => {
  it('lists the sidecar endpoint and the drivers on the card; onChanged hears its own registrations', async () => {
    const r = await withBoth();
    expect(r.host.extensions.get(OWNER).registrations?.providers).toEqual([
      'sidecar endpoint "echo-council" (Echo Council)',
      'embedding driver "letters" (Letter counts)',
      'text-to-speech engine "silent"',
      'speech-to-text engine "deaf" (Deaf)',
      'text-to-speech engine "patient" (Waits to be cancelled)',
      'sidecar endpoint "unhandled" (Never answers) — no handler',
    ]);
    const { changes } = await tool<{ changes: string[] }>(r, `${OWNER}:report`);
    expect(changes).toEqual(['registered sidecar/unhandled', 'after register']);
  }, 60_000);

  it("a provider's handler hears the host give up on it: the caller's cancel aborts its signal, with the reason", async () => {
    const r = await withBoth();
    const report = () => tool<{ patient: { waiting: number; aborted: string } }>(r, `${OWNER}:report`);
    const controller = new AbortController();
    const call = r.host.extensions.providers().invoke(OWNER, 'tts', 'patient', { text: 'Wait for me.' }, { signal: controller.signal });
    const outcome = call.then(() => 'answered', (err: { error?: { code?: string } }) => err.error?.code);
    // Bounded: the handler has begun once its worker says so.
    for (let i = 0; i < 200 && (await report()).patient.waiting === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await report()).patient).toEqual({ waiting: 1, aborted: '' });
    controller.abort();
    expect(await outcome).toBe('CANCELLED');
    let aborted = '';
    for (let i = 0; i < 200 && !(aborted = (await report()).patient.aborted); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(aborted).toBe('AbortError: The call was cancelled.');
    // Its deadline passing says so too.
    const late = r.host.extensions.providers().invoke(OWNER, 'tts', 'patient', { text: 'Wait again.' }, { signal: new AbortController().signal, timeoutMs: 100 });
    expect(await late.then(() => 'answered', (err: { error?: { code?: string } }) => err.error?.code)).toBe('TOOL_TIMEOUT');
    for (let i = 0; i < 200 && (aborted = (await report()).patient.aborted) === 'AbortError: The call was cancelled.'; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(aborted).toBe('TimeoutError: The call passed its deadline.');
  }, 60_000);

  it('serves as the council sidecar: offered beside the connections, its planned arguments and completions come from the extension', async () => {
    const r = await withBoth();
    const ref = `extension:${OWNER}/echo-council`;
    const state = (await r.call('sidecar.get', {})).value as Record<string, unknown>;
    expect(state.endpoints).toEqual([{ id: ref, name: 'Echo Council', extensionName: 'Echo Council' }]);
    const chosen = (await r.call('sidecar.update', { patch: { connectionProfileId: ref } })).value as Record<string, unknown>;
    expect(chosen).toMatchObject({ configured: true, config: { connectionProfileId: ref } });

    const signal = new AbortController().signal;
    const planned = await r.host.sidecar.planArguments(
      { system: 'Plan the call.', prompt: 'Where is the lamp?', tool: { name: 'find_lamp', description: 'Find the lamp', parameters: { type: 'object', properties: { place: { type: 'string' }, depth: { type: 'number' } }, required: ['place'] } } },
      signal,
    );
    expect(planned.args).toEqual({ place: 'planned by the echo endpoint for place', depth: 7 });
    const { last } = await tool<{ last: { url: string; method: string; request: Record<string, unknown> } }>(r, `${OWNER}:report`);
    expect(last).toMatchObject({ url: '/v1/chat/completions', method: 'POST', request: { model: 'echo-council', stream: true, tools: [{ type: 'function', function: { name: 'find_lamp' } }] } });

    expect(await r.host.sidecar.complete({ system: '', prompt: 'Speak.' }, signal)).toBe('The echo council heard: Speak.');
    // An extension's spindle.generate.quiet goes to the sidecar the person chose: this endpoint.
    expect(await tool<{ text: string }>(r, `${OWNER}:quiet`)).toEqual({ text: 'The echo council heard: Whisper.' });
    const asked = (await tool<{ last: { request: Record<string, unknown> } }>(r, `${OWNER}:report`)).last.request;
    expect(asked).toMatchObject({ temperature: 0.7, top_p: 0.9, max_tokens: 1024 });
    // No key of any connection reached it.
    expect(JSON.stringify(asked)).not.toMatch(/authorization|api[-_]?key/i);
  }, 60_000);

  it('an endpoint is offered only while its extension runs granted chats (it reads what the council asks); otherwise the sidecar says why instead of calling it', async () => {
    const r = await withBoth();
    const ref = `extension:${OWNER}/echo-council`;
    await r.call('sidecar.update', { patch: { connectionProfileId: ref } });
    await r.host.extensions.revoke(OWNER, ['chats']);
    expect(((await r.call('sidecar.get', {})).value as Record<string, unknown>).endpoints).toBeUndefined();
    await r.host.extensions.grant(OWNER, ['chats']);
    expect(((await r.call('sidecar.get', {})).value as Record<string, unknown>).endpoints).toHaveLength(1);
    await r.host.extensions.disable(OWNER);
    const state = (await r.call('sidecar.get', {})).value as Record<string, unknown>;
    expect(state.endpoints).toBeUndefined();
    expect(state).toMatchObject({ configured: false, problem: expect.stringContaining('is not offered now') });
    await expect(r.host.sidecar.complete({ system: '', prompt: 'Speak.' }, new AbortController().signal)).rejects.toMatchObject({ error: { code: 'SIDECAR_NOT_CONFIGURED' } });
  }, 60_000);
});
