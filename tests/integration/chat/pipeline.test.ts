// A chat turn through every stage with a Lumiverse-style extension (TypeScript built at install) in a real worker,
// against the local LLM server: context handlers, macros, interceptors, events, chat reads, the prompt breakdown;
// and the adversarial cases — an interceptor that hangs, throws, answers a string or 10 MB; a macro that expands to
// itself; an event handler that throws; a context handler that mutates its input; chat writes without permission.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_FRONTEND_MESSAGE_CHARS } from '../../../shared/limits';
import type { ChatSession } from '../../../shared/types/chat';
import { chatRigEach, finished, newSession } from '../chat/helpers';
import { GRANT, pipelineRig } from './pipeline-rig';

const each = chatRigEach();

const { install, turn, sentMessages, invoke } = pipelineRig(each);

describe('a chat turn with a Lumiverse extension', () => {
  it('runs context handlers, resolves macros, applies the interceptor and records every stage in the breakdown', async () => {
    await install();
    const { reply, sessionId } = await turn('Hello there');
    const messages = sentMessages();
    expect(messages[0]).toEqual({ role: 'system', content: '[pipeline] a line from the interceptor; events so far: CHAT_CHANGED, MESSAGE_SENT, USER_MESSAGE_RENDERED, GENERATION_STARTED' });
    expect(messages[1]!.content).toContain('Mira reads stormy skies and the high tide; {{unknown_macro}} stays.');
    expect(messages[1]!.content).toContain('Calls Ada friend.');
    expect(reply).toMatchObject({ role: 'assistant', content: 'The reply.' });

    const stages = reply.trace!;
    expect(stages.map((s) => `${s.stage}/${s.by}`)).toEqual([
      'council/host',
      'context handlers/Pipeline Probe',
      'context handlers/Pipeline Probe',
      'assembly/host',
      'macros/host',
      'macros/Pipeline Probe',
      'interceptors/Pipeline Probe',
      'generation/host',
    ]);
    // Each step of assembly is its own stage, credited to whoever changed the prompt: the card as written, the
    // host's macros, then the extension's (run once: the view reuses the value the turn resolved).
    const [assembly, builtIns, extension] = [stages[3]!, stages[4]!, stages[5]!];
    expect(assembly.after).toContain('Mira reads {{pipeline_weather}} skies and the {{pipeline_tide}}; {{unknown_macro}} stays.');
    expect(assembly.after).toContain('Calls {{user}} friend.');
    expect(builtIns.note).toBe('{{user}}');
    expect(builtIns.after).toContain('Calls Ada friend.');
    expect(builtIns.after).toContain('{{pipeline_weather}}');
    expect(extension.note).toMatch(/^\{\{pipeline_weather\}\}, \{\{pipeline_tide\}\}; ≈\d+ tokens$/);
    expect(extension.before).toBe(builtIns.after);
    expect(extension.after).toContain('Mira reads stormy skies and the high tide; {{unknown_macro}} stays.');
    const intercepted = stages[6]!;
    expect(intercepted.before).toBe(extension.after);
    expect(intercepted.after).toContain('[pipeline] a line from the interceptor');
    expect(intercepted.before).not.toContain('[pipeline]');
    // Priority 50 runs before the default 100: the one that returned a context changed it; the one that only
    // mutated its input changed nothing, and the host's chatId stayed.
    expect(stages[1]!.after).toContain('"probe":"context seen"');
    expect(stages[1]!.after).toContain(`"chatId":"${sessionId}"`);
    expect(stages[2]!.before).toBeUndefined();
    // It registered behind the contract, with Lumiverse's `{ timeoutMs }` options: the host holds its budget (the other
    // one has the manifest's interceptorTimeoutMs).
    const handlers = each.rig.host.extensions.pipeline().handlers('context_handler');
    expect(handlers.map((h) => h.timeoutMs)).toEqual([30_000, 1000]);

    const seen = JSON.parse(((await invoke('seen_events')) as { content: string }).content) as string[];
    expect(seen).toEqual(expect.arrayContaining([`CHAT_CHANGED:${sessionId}`, `MESSAGE_SENT:${sessionId}`, `GENERATION_STARTED:${sessionId}`, `GENERATION_ENDED:${sessionId}`]));
    expect(seen.some((e) => e.startsWith('STREAM_TOKEN_RECEIVED:'))).toBe(true);
    expect(seen.indexOf(`MESSAGE_SENT:${sessionId}`)).toBeLessThan(seen.indexOf(`GENERATION_STARTED:${sessionId}`));
    // SillyTavern's "shown" events, which trackers ported from it run on: the person's line, then the finished reply.
    expect(seen.indexOf(`USER_MESSAGE_RENDERED:${sessionId}`)).toBeGreaterThan(seen.indexOf(`MESSAGE_SENT:${sessionId}`));
    expect(seen.indexOf(`CHARACTER_MESSAGE_RENDERED:${sessionId}`)).toBeGreaterThan(seen.indexOf(`GENERATION_ENDED:${sessionId}`));
    // The event handler that throws is logged; the turn ended normally.
    const log = (await each.rig.call('extensions.log', { id: 'lumiverse_pipeline' })).value as { lines: string[] };
    expect(log.lines.join('\n')).toContain('event handler failure on purpose');
  }, 60_000);

  it('a macro that expands to itself stops, with a note; the turn goes on', async () => {
    await install();
    const { reply } = await turn('Hello', { character: { name: 'Mira', description: 'Loop: {{pipeline_loop}}', personality: '', scenario: '' } });
    expect(sentMessages().some((m) => m.content.includes('Loop: {{pipeline_loop}}!!'))).toBe(true);
    expect(reply.trace!.map((s) => s.note).join('\n')).toMatch(/still expanding after 8 rounds \(\{\{pipeline_loop\}\}/);
  }, 60_000);

  it('chat reads follow the active chat; chat.* needs chat_mutation, and its writes show in the session', async () => {
    await install(GRANT.filter((p) => p !== 'chat_mutation'));
    const { sessionId } = await turn('Where are we?');
    const read = async () => JSON.parse(((await invoke('active_chat')) as { content: string }).content) as unknown;
    expect(await read()).toEqual({ id: sessionId, last: 'denied: PERMISSION_DENIED' });
    expect(await invoke('append_line')).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
    // Its card says what it was refused, until the permission is granted.
    const card = async () => ((await each.rig.call('extensions.list', {})).value as Array<{ id: string; refused?: string[] }>).find((e) => e.id === 'lumiverse_pipeline')!;
    expect((await card()).refused).toEqual(['chat_mutation — spindle.chat.appendMessage', 'chat_mutation — spindle.chat.getMessages']);
    await each.rig.call('extensions.grant', { id: 'lumiverse_pipeline', permission: 'chat_mutation' });
    await each.rig.host.extensions.whenSettled();
    expect((await card()).refused).toBeUndefined();
    expect(await read()).toEqual({ id: sessionId, last: 'The reply.' });
    expect(await invoke('append_line')).toMatchObject({ ok: true });
    const session = (await each.rig.call('chat.sessions.get', { sessionId })).value as ChatSession;
    expect(session.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'appended by the extension' });
    // Every extension hears of a message an extension added, as of any other.
    const heard = JSON.parse(((await invoke('text_events')) as { content: string }).content) as Array<{ event: string; payload: { chatId: string; message: unknown } }>;
    expect(heard.findLast((e) => e.event === 'MESSAGE_SENT')!.payload).toMatchObject({ chatId: sessionId, message: { id: session.messages.at(-1)!.id, is_user: false, content: 'appended by the extension' } });
    // In Lumiverse's wire shape: no role (an extension that looks for one in an event finds none there either).
    expect(heard.findLast((e) => e.event === 'MESSAGE_SENT')!.payload.message).not.toHaveProperty('role');

    // updateMessage and deleteMessage, as published trackers call them: saved in the session, read back as left.
    const edited = (await invoke('edit_last')) as { ok: boolean; content: string };
    expect(edited.ok).toBe(true);
    expect(JSON.parse(edited.content)).toEqual({
      count: session.messages.length - 1,
      last: 'appended by the extension [tracked]',
      metadata: { tracker: { hp: 3 } },
      chat: { scene: 'harbour' },
      reread: { scene: 'harbour' },
    });
    const after = (await each.rig.call('chat.sessions.get', { sessionId })).value as ChatSession;
    expect(after.messages.map((m) => m.content)).toEqual([...session.messages.slice(0, -2).map((m) => m.content), 'appended by the extension [tracked]']);
    expect(after.messages.at(-1)!.metadata).toEqual({ tracker: { hp: 3 } });
    expect(after.metadata).toEqual({ scene: 'harbour' });
    // Its update is told as Lumiverse tells one: CHAT_CHANGED with the chat's record and what changed.
    let updates: Array<{ event: string; payload: Record<string, unknown> }> = [];
    for (let i = 0; i < 200 && !updates.length; i++) {
      const all = JSON.parse(((await invoke('message_events')) as { content: string }).content) as typeof updates;
      updates = all.filter((e) => e.event === 'CHAT_CHANGED');
      if (!updates.length) await new Promise((r) => setTimeout(r, 10));
    }
    expect(updates.map((e) => e.payload)).toEqual([{ chatId: sessionId, chat: expect.objectContaining({ id: sessionId, metadata: { scene: 'harbour' } }), changedFields: ['metadata'] }]);
  }, 60_000);

  it("appendMessage with triggerGeneration: the person's line kept with its metadata, then the reply to it, as the person's send; without generation, refused and nothing appended", async () => {
    await install([...GRANT, 'generation']);
    const { sessionId } = await turn('Where are we?');
    each.rig.server.enqueue({ text: 'The door creaks open.' });
    // No choice given: its content is not a string, refused with the field named.
    expect(await invoke('choose')).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const picked = await each.rig.host.registry.invoke('lumiverse_pipeline:choose', { choice: 'I open the door.' }, { timeoutMs: 20_000 });
    const result = JSON.parse((picked as { content: string }).content) as { id: string; generationId: string };
    const done = await finished(each.rig, result.generationId);
    expect(done.finishReason).toBe('stop');
    const session = (await each.rig.call('chat.sessions.get', { sessionId })).value as ChatSession;
    expect(session.messages.slice(-2)).toEqual([
      expect.objectContaining({ id: result.id, role: 'user', content: 'I open the door.', metadata: { source: 'choice_panel' } }),
      expect.objectContaining({ role: 'assistant', content: 'The door creaks open.' }),
    ]);
    expect(sentMessages().at(-1)).toEqual({ role: 'user', content: 'I open the door.' });
    // While a reply is being written: refused before anything is appended (the line would sit above a reply that never saw it).
    each.rig.server.enqueue({ text: 'A slow answer.', stallAfter: 1 });
    const sent = await each.rig.call('chat.send', { sessionId, text: 'Wait.' });
    const busy = await each.rig.host.registry.invoke('lumiverse_pipeline:choose', { choice: 'I knock.' }, { timeoutMs: 20_000 });
    expect(busy).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    await each.rig.call('chat.stop', { sessionId });
    await finished(each.rig, (sent.value as { turnId: string }).turnId);
    const count = ((await each.rig.call('chat.sessions.get', { sessionId })).value as ChatSession).messages.length;
    expect(((await each.rig.call('chat.sessions.get', { sessionId })).value as ChatSession).messages.some((m) => m.content === 'I knock.')).toBe(false);
    // The person's dry run switch holds for it as for their own send: the prompt is shown, the model not called.
    await each.rig.call('chat.sessions.update', { sessionId, patch: { dryRun: true } });
    const calls = each.rig.server.generations.length;
    const dry = await each.rig.host.registry.invoke('lumiverse_pipeline:choose', { choice: 'I wait.' }, { timeoutMs: 20_000 });
    const dryTurn = JSON.parse((dry as { content: string }).content) as { generationId: string };
    expect((await finished(each.rig, dryTurn.generationId)).finishReason).toBe('dry-run');
    expect(each.rig.server.generations.length).toBe(calls);
    expect(((await each.rig.call('chat.sessions.get', { sessionId })).value as ChatSession).messages).toHaveLength(count + 1);
    await each.rig.call('chat.sessions.update', { sessionId, patch: { dryRun: false } });
    // The generation permission revoked: refused before anything is appended.
    await each.rig.host.extensions.revoke('lumiverse_pipeline', ['generation']);
    const refused = await each.rig.host.registry.invoke('lumiverse_pipeline:choose', { choice: 'I close it.' }, { timeoutMs: 20_000 });
    expect(refused).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
    expect(((await each.rig.call('chat.sessions.get', { sessionId })).value as ChatSession).messages).toHaveLength(count + 1);
  }, 60_000);

  it('E1: events carry chat text only with chat_mutation: without it ids and counts, and no stream tokens at all', async () => {
    await install(GRANT.filter((p) => p !== 'chat_mutation'));
    const ledger = [{ id: 'w-ledger', keywords: ['ledger'], content: 'The ledger is hidden.', enabled: true }];
    await turn('my private plan: bring the ledger', { worldInfo: ledger });
    const heard = () => invoke('text_events').then((r) => JSON.parse((r as { content: string }).content) as Array<{ event: string; payload: Record<string, unknown> }>);
    const without = await heard();
    // As Lumiverse: the person's message is MESSAGE_SENT, the reply is MESSAGE_SENT empty as the turn begins (staged)
    // and MESSAGE_EDITED once written, then GENERATION_ENDED.
    expect(without.map((e) => e.event)).toEqual(['MESSAGE_SENT', 'MESSAGE_SENT', 'MESSAGE_EDITED', 'GENERATION_ENDED']);
    expect(JSON.stringify(without)).not.toMatch(/ledger|The reply/);
    expect(without[0]!.payload.message).toMatchObject({ id: expect.any(String), is_user: true, swipe_count: 1 });
    const replyId = (without[3]!.payload as { messageId: string }).messageId;
    expect(without[1]!.payload.message).toMatchObject({ id: replyId, is_user: false, swipe_count: 1 });
    expect(without[2]!.payload.message).toMatchObject({ id: replyId, is_user: false, swipe_count: 1 });
    expect(without[3]!.payload).toMatchObject({ messageId: expect.any(String), contentLength: 'The reply.'.length });

    await each.rig.call('extensions.grant', { id: 'lumiverse_pipeline', permission: 'chat_mutation' });
    await each.rig.host.extensions.whenSettled();
    const { sessionId } = await turn('my private plan: bring the ledger', { worldInfo: ledger });
    const withText = await heard();
    expect(withText.map((e) => e.event)).toEqual(expect.arrayContaining(['MESSAGE_SENT', 'STREAM_TOKEN_RECEIVED', 'GENERATION_ENDED', 'WORLD_INFO_ACTIVATED']));
    // Which keywords fired tells what the chat says: heard only with chat_mutation.
    // Each entry names its book, as Lumiverse's do (the session's own world info is its character's book).
    expect(withText.find((e) => e.event === 'WORLD_INFO_ACTIVATED')!.payload).toEqual({
      chatId: sessionId,
      entries: [{ id: 'w-ledger', comment: '', keys: ['ledger'], source: 'keyword', bookId: sessionId, bookSource: 'character', bookName: expect.stringMatching(/ — world info$/) }],
    });
    // Every turn says what fired, none included, so a panel clears what it showed (as Lumiverse always sends it).
    const { sessionId: bare } = await turn('nothing to find here');
    expect((await heard()).findLast((e) => e.event === 'WORLD_INFO_ACTIVATED')!.payload).toEqual({ chatId: bare, entries: [] });
    const sent = withText.filter((e) => e.event === 'MESSAGE_SENT').map((e) => e.payload.message);
    expect(sent.slice(-2)).toMatchObject([
      { is_user: true, content: 'my private plan: bring the ledger' },
      { is_user: false, content: '' },
    ]);
    expect(withText.findLast((e) => e.event === 'MESSAGE_EDITED')!.payload.message).toMatchObject({ is_user: false, content: 'The reply.' });
    expect(withText.findLast((e) => e.event === 'GENERATION_ENDED')!.payload).toMatchObject({ content: 'The reply.' });
  }, 60_000);

  it('a reply that failed before writing anything was announced (MESSAGE_SENT, empty) but is never MESSAGE_EDITED', async () => {
    await install();
    const sessionId = await newSession(each.rig);
    each.rig.server.enqueue({ kind: 'error', status: 400, message: 'provider says no' });
    const sent = await each.rig.call('chat.send', { sessionId, text: 'Try this' });
    if (!sent.ok) throw new Error(JSON.stringify(sent.error));
    expect((await finished(each.rig, (sent.value as { turnId: string }).turnId)).finishReason).toBe('error');
    const heard = JSON.parse(((await invoke('text_events')) as { content: string }).content) as Array<{ event: string; payload: { message?: { is_user: boolean } } }>;
    expect(heard.filter((e) => e.event === 'MESSAGE_SENT').map((e) => e.payload.message?.is_user)).toEqual([true, false]);
    expect(heard.map((e) => e.event)).not.toContain('MESSAGE_EDITED');
    // GENERATION_ENDED says it failed, as Lumiverse's does: with the failure's message.
    expect(heard.find((e) => e.event === 'GENERATION_ENDED')!.payload).toMatchObject({ error: expect.stringContaining('provider says no') });
  }, 60_000);

  it('a dry run shows the final prompt with the interceptor change, and sends nothing', async () => {
    await install();
    const sessionId = await newSession(each.rig);
    const sent = await each.rig.call('chat.send', { sessionId, text: 'Just looking', dryRun: true });
    const done = await finished(each.rig, (sent.value as { turnId: string }).turnId);
    expect((done as { prompt: Array<{ content: string }> }).prompt[0]!.content).toMatch(/^\[pipeline\] a line from the interceptor/);
    expect(each.rig.server.generations).toHaveLength(0);
  }, 60_000);

  it('chat.macros lists every macro with its owner and current value', async () => {
    await install();
    const sessionId = await newSession(each.rig, { character: { name: 'Mira', description: '', personality: '', scenario: '' } });
    const macros = (await each.rig.call('chat.macros', { sessionId })).value as Array<{ name: string; owner: string; value: string | null }>;
    expect(macros).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'char', owner: 'built-in', value: 'Mira' }),
        expect.objectContaining({ name: 'lumiaCouncilToolsActive', owner: 'built-in', value: 'no' }),
        expect.objectContaining({ name: 'pipeline_tide', owner: 'Pipeline Probe', value: 'high tide' }),
        expect.objectContaining({ name: 'pipeline_weather', owner: 'Pipeline Probe', value: null }),
      ]),
    );
  }, 60_000);

  it('the frontend console: a message sent to onFrontendMessage comes back through sendToFrontend; oversize is refused', async () => {
    await install();
    expect((await each.rig.call('extensions.sendFrontend', { id: 'lumiverse_pipeline', payload: { hello: 1 } })).value).toEqual({ delivered: true });
    let messages: Array<{ payload: unknown }> = [];
    for (let i = 0; i < 400 && messages.length === 0; i++) {
      messages = ((await each.rig.call('extensions.frontend', { id: 'lumiverse_pipeline' })).value as { messages: typeof messages }).messages;
      if (messages.length === 0) await new Promise((r) => setTimeout(r, 5));
    }
    expect(messages.map((m) => m.payload)).toEqual([{ echo: { hello: 1 }, userId: 'local' }]);
    // Lumiverse's socket takes 4 MB: a 3 MB message (a frontend's media upload) arrives whole; past the cap it is refused.
    expect((await each.rig.call('extensions.sendFrontend', { id: 'lumiverse_pipeline', payload: { media: 'x'.repeat(3 * 1024 * 1024) } })).value).toEqual({ delivered: true });
    for (let i = 0; i < 400 && messages.length < 2; i++) {
      messages = ((await each.rig.call('extensions.frontend', { id: 'lumiverse_pipeline' })).value as { messages: typeof messages }).messages;
      if (messages.length < 2) await new Promise((r) => setTimeout(r, 5));
    }
    expect(((messages[1]!.payload as { echo: { media: string } }).echo.media).length).toBe(3 * 1024 * 1024);
    expect(await each.rig.call('extensions.sendFrontend', { id: 'lumiverse_pipeline', payload: 'x'.repeat(MAX_FRONTEND_MESSAGE_CHARS) })).toMatchObject({ ok: false, error: { code: 'INPUT_TOO_LARGE', path: '/payload' } });
    expect(await each.rig.call('extensions.frontend', { id: 'nobody_here' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    // A tag its frontend took from a reply is also MESSAGE_TAG_INTERCEPTED for the backends, as Lumiverse's socket makes
    // it; the host names the sender, so a frontend cannot speak for another extension.
    await each.rig.call('extensions.sendFrontend', { id: 'lumiverse_pipeline', payload: { type: 'message_tag_intercepted', tagName: 'sim', content: '<sim>hp 3</sim>', messageId: 'm9', extensionId: 'someone_else' } });
    let tagged: Array<{ event: string; payload: unknown }> = [];
    for (let i = 0; i < 400 && tagged.length === 0; i++) {
      const heard = JSON.parse(((await invoke('text_events')) as { content: string }).content) as Array<{ event: string; payload: unknown }>;
      tagged = heard.filter((e) => e.event === 'MESSAGE_TAG_INTERCEPTED');
      if (tagged.length === 0) await new Promise((r) => setTimeout(r, 5));
    }
    expect(tagged).toEqual([{ event: 'MESSAGE_TAG_INTERCEPTED', payload: { type: 'message_tag_intercepted', tagName: 'sim', content: '<sim>hp 3</sim>', messageId: 'm9', extensionId: 'lumiverse_pipeline', identifier: 'lumiverse_pipeline' } }]);
  }, 60_000);

  it('a 17 M character bootstrap from sendToFrontend reaches the window whole (it crosses the worker pipe in parts)', async () => {
    await install();
    expect(await invoke('big_bootstrap')).toMatchObject({ ok: true, content: 'sent' });
    let got: { data?: string; end?: string } | undefined;
    for (let i = 0; i < 400 && !got; i++) {
      const event = each.rig.events.find((e) => e.type === 'extension.frontend-message' && (e.payload as { kind?: string }).kind === 'bootstrap');
      got = event?.type === 'extension.frontend-message' ? (event.payload as typeof got) : undefined;
      if (!got) await new Promise((r) => setTimeout(r, 10));
    }
    expect(got?.data?.length).toBe(17_000_000);
    expect(got?.end).toBe('the last field');
    // The console keeps that it came, not its 17 MB.
    const kept = ((await each.rig.call('extensions.frontend', { id: 'lumiverse_pipeline' })).value as { messages: Array<{ payload: unknown }> }).messages;
    expect(kept.map((m) => m.payload)).toEqual([{ '(sent in parts)': true }]);
  }, 60_000);

  it("sends windows the extensions' events only while a running extension has a frontend whose frames take them", async () => {
    await install();
    const toWindows = () => each.rig.events.flatMap((e) => (e.type === 'extension.event' ? [e.event] : []));
    await turn('Nobody shows a frame');
    // The worker heard the turn; no window was sent it, so a reply's text did not go out to them twice.
    expect(JSON.parse(((await invoke('seen_events')) as { content: string }).content)).toEqual(expect.arrayContaining([expect.stringMatching(/^GENERATION_ENDED:/)]));
    expect(toWindows()).toEqual([]);

    const frontend = await each.rig.call('extensions.install', { folder: path.resolve('tests/fixtures/extensions/lumiverse_frontend'), grant: 'requested' });
    if (!frontend.ok) throw new Error(JSON.stringify(frontend.error));
    await each.rig.host.extensions.whenSettled();
    expect((frontend.value as { frontend?: unknown }).frontend).toBeDefined();
    const { sessionId, reply } = await turn('A frame is shown');
    expect(toWindows()).toEqual(expect.arrayContaining(['GENERATION_STARTED', 'STREAM_TOKEN_RECEIVED', 'GENERATION_ENDED']));
    // GENERATION_STARTED names the chat, its character (a session is both) and the message written into, as Lumiverse's does.
    const started = each.rig.events.find((e) => e.type === 'extension.event' && e.event === 'GENERATION_STARTED') as { payload: unknown } | undefined;
    expect(started?.payload).toMatchObject({ chatId: sessionId, characterId: sessionId, targetMessageId: reply.id, targetSwipeId: 0, characterName: 'Mira', generationType: 'normal' });
    // A regeneration writes the reply's second swipe: that is its target.
    each.rig.server.enqueue({ text: 'Another reply.' });
    const again = await each.rig.call('chat.regenerate', { sessionId });
    if (!again.ok) throw new Error(JSON.stringify(again.error));
    await finished(each.rig, (again.value as { turnId: string }).turnId);
    const restarted = each.rig.events.findLast((e) => e.type === 'extension.event' && e.event === 'GENERATION_STARTED') as { payload: unknown } | undefined;
    expect(restarted?.payload).toMatchObject({ targetMessageId: reply.id, targetSwipeId: 1, generationType: 'regenerate' });
    // The person swiping past the last reply is Lumiverse's `swipe` (I Love TV rolls fresh dice for one).
    each.rig.server.enqueue({ text: 'A third reply.' });
    const swiped = await each.rig.call('chat.regenerate', { sessionId, swipe: true });
    if (!swiped.ok) throw new Error(JSON.stringify(swiped.error));
    await finished(each.rig, (swiped.value as { turnId: string }).turnId);
    const third = each.rig.events.findLast((e) => e.type === 'extension.event' && e.event === 'GENERATION_STARTED') as { payload: unknown } | undefined;
    expect(third?.payload).toMatchObject({ targetMessageId: reply.id, targetSwipeId: 2, generationType: 'swipe' });

    // Disabled, its frames go: the events stop going to windows again.
    await each.rig.call('extensions.disable', { id: 'lumiverse_frontend' });
    const before = toWindows().length;
    await turn('The frame is gone');
    expect(toWindows()).toHaveLength(before);
    // Every extension heard the other's worker start and stop, as Lumiverse tells them.
    const peers = JSON.parse(((await invoke('message_events')) as { content: string }).content) as Array<{ event: string; payload: unknown }>;
    const news = peers.filter((e) => e.event.startsWith('SPINDLE_EXTENSION_'));
    expect(news).toEqual([
      { event: 'SPINDLE_EXTENSION_LOADED', payload: { extensionId: 'lumiverse_frontend', identifier: 'lumiverse_frontend', name: expect.any(String) } },
      { event: 'SPINDLE_EXTENSION_UNLOADED', payload: { extensionId: 'lumiverse_frontend', identifier: 'lumiverse_frontend', name: expect.any(String) } },
    ]);
  }, 60_000);

  it('during a council run for a chat that is not a session (council run --chat), chats.getActive answers that chat', async () => {
    await install();
    await each.rig.call('council.addMember', { packId: 'story-council', itemId: 'plot-enforcer', tools: ['lumiverse_pipeline:active_chat'] });
    const run = (await each.rig.call('council.run', { chat: { chatId: 'from-a-file', messages: [{ role: 'user', content: 'Knock knock.' }] } })).value as { results: Array<{ content: string; status: string }> };
    expect(run.results[0]!.status).toBe('ok');
    expect(JSON.parse(run.results[0]!.content)).toEqual({ id: 'from-a-file', last: 'Knock knock.' });
    // After the run nothing is active any more (no turn has run in a session).
    expect(JSON.parse(((await invoke('active_chat')) as { content: string }).content)).toEqual({ id: null, last: null });
  }, 60_000);
});
