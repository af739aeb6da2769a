// Workbench chat actions: ask the host, mirror its answer into the store, and hand the result back so the panel can show a failure in place.
import type { MethodInput, MethodOutput } from '../../../../shared/contract';
import type { Result } from '../../../../shared/errors';
import { defaultChatSettings, SESSION_PAGE, type ChatSession, type ChatSettings } from '../../../../shared/types/chat';
import { atNewest } from './chat-slice';
import type { HostConnection } from '../../api/connection';
import type { AppStore } from '../app/app-store';

export async function loadSessions(store: AppStore, host: HostConnection): Promise<Result<MethodOutput<'chat.sessions.list'>>> {
  const result = await host.invoke('chat.sessions.list', {});
  if (result.ok) store.getState().chatSessionsReplaced(result.value);
  else store.getState().chatSessionsLoadFailed(result.error);
  return result;
}

/** The part of the chat a place asks for (chat.sessions.window); none: the part shown now, else the newest page. */
export type ChatPlace = Omit<MethodInput<'chat.sessions.window'>, 'sessionId'>;

function shownPlace(store: AppStore, id: string): ChatPlace {
  const { open, window } = store.getState().chat;
  if (open?.id !== id || !window) return {};
  return atNewest(open, window) ? { start: window.start } : { start: window.start, end: window.start + open.messages.length };
}

/** Reads the open session again (after a change event, a reconnect, or opening it): the part shown, or the place asked. */
export async function loadOpenSession(store: AppStore, host: HostConnection, id: string, place?: ChatPlace): Promise<Result<MethodOutput<'chat.sessions.window'>>> {
  const result = await host.invoke('chat.sessions.window', { sessionId: id, ...(place ?? shownPlace(store, id)) });
  // The message asked for is gone (deleted since its address was kept): the newest page instead, nothing to focus.
  if (!result.ok && result.error.path === '/around') {
    store.getState().chatMessageFocusRequested(null);
    return loadOpenSession(store, host, id, {});
  }
  if (result.ok) {
    const { session, start, total } = result.value;
    store.getState().chatOriginKnown(id, result.value.origin ?? null);
    // At the newest, past SHOWN_AT_MOST (new messages joined), the oldest shown are let go.
    const over = start + session.messages.length >= total ? session.messages.length - SHOWN_AT_MOST : 0;
    if (over > 0) store.getState().chatSessionLoaded({ ...session, messages: session.messages.slice(over) }, { start: start + over, total });
    else store.getState().chatSessionLoaded(session, { start, total });
  }
  else if (result.error.code === 'NOT_FOUND') store.getState().chatSessionGone(id);
  else store.getState().chatSessionLoadFailed(id, result.error);
  return result;
}

/** Older messages, a page more above the ones shown. */
/** The most messages the window holds: past it, a page loaded at one end lets one go at the other. */
export const SHOWN_AT_MOST = 5 * SESSION_PAGE;

/** Older messages, a page more above the ones shown (and, past SHOWN_AT_MOST, the newest of them let go). */
export function loadEarlier(store: AppStore, host: HostConnection) {
  const { open, window } = store.getState().chat;
  if (!open || !window || window.start === 0) return Promise.resolve(null);
  const start = Math.max(0, window.start - SESSION_PAGE);
  const end = Math.min(window.start + open.messages.length, start + SHOWN_AT_MOST);
  return loadOpenSession(store, host, open.id, end >= window.total ? { start } : { start, end });
}

/** Newer messages, a page more below the ones shown, or the newest page (past SHOWN_AT_MOST, the oldest let go). */
export function loadLater(store: AppStore, host: HostConnection, toNewest = false) {
  const { open, window } = store.getState().chat;
  if (!open || !window || atNewest(open, window)) return Promise.resolve(null);
  const end = window.start + open.messages.length + SESSION_PAGE;
  const start = Math.max(window.start, end - SHOWN_AT_MOST);
  return loadOpenSession(store, host, open.id, toNewest ? {} : end >= window.total ? { start } : { start, end });
}

/** Opens a session in the Workbench; the host tells extensions the active chat changed (CHAT_SWITCHED). */
export async function openSession(store: AppStore, host: HostConnection, id: string | null, place?: ChatPlace): Promise<void> {
  store.getState().chatSessionOpened(id);
  void host.invoke('chat.sessions.open', { sessionId: id });
  if (id !== null) await loadOpenSession(store, host, id, place);
}

export async function createSession(
  store: AppStore,
  host: HostConnection,
  input: MethodInput<'chat.sessions.create'> = {},
): Promise<Result<ChatSession>> {
  const result = await host.invoke('chat.sessions.create', input);
  if (result.ok) {
    store.getState().chatSessionOpened(result.value.id);
    void host.invoke('chat.sessions.open', { sessionId: result.value.id });
    store.getState().chatSessionLoaded(result.value);
    await loadSessions(store, host);
  }
  return result;
}

export async function renameSession(store: AppStore, host: HostConnection, sessionId: string, title: string) {
  const result = await host.invoke('chat.sessions.rename', { sessionId, title });
  if (result.ok) {
    const state = store.getState();
    state.chatSessionsReplaced(state.chat.sessions.map((x) => (x.id === sessionId ? result.value : x)));
    if (state.chat.open?.id === sessionId) state.chatSessionLoaded({ ...state.chat.open, title: result.value.title }, state.chat.window ?? undefined);
  }
  return result;
}

export async function updateSession(store: AppStore, host: HostConnection, sessionId: string, patch: MethodInput<'chat.sessions.update'>['patch']) {
  const result = await host.invoke('chat.sessions.update', { sessionId, patch });
  if (result.ok) store.getState().chatSessionLoaded(result.value);
  return result;
}

/**
 * The session's Council and Dry run switches: shown at once (the open session is updated in the store before the
 * host answers, so a message sent right after the click goes with the new value), then saved with the session; a
 * refusal puts back what the host has.
 */
export async function setSessionSwitches(store: AppStore, host: HostConnection, sessionId: string, patch: { council?: boolean; dryRun?: boolean }) {
  const { open, window } = store.getState().chat;
  if (open?.id === sessionId) store.getState().chatSessionLoaded({ ...open, ...patch }, window ?? undefined);
  const result = await updateSession(store, host, sessionId, patch);
  if (!result.ok) await loadOpenSession(store, host, sessionId);
  return result;
}

export async function deleteSession(store: AppStore, host: HostConnection, sessionId: string) {
  const result = await host.invoke('chat.sessions.delete', { sessionId });
  if (result.ok) store.getState().chatSessionGone(sessionId);
  return result;
}

export function exportSession(host: HostConnection, sessionId: string) {
  return host.invoke('chat.sessions.export', { sessionId });
}

export async function importSession(store: AppStore, host: HostConnection, json: string) {
  const result = await host.invoke('chat.sessions.import', { json });
  if (result.ok) {
    await loadSessions(store, host);
    await openSession(store, host, result.value.id);
  }
  return result;
}

export async function sendMessage(
  store: AppStore,
  host: HostConnection,
  input: MethodInput<'chat.send'>,
): Promise<Result<MethodOutput<'chat.send'>>> {
  await toNewest(store, host, input.sessionId);
  const result = await host.invoke('chat.send', input);
  if (result.ok) store.getState().chatTurnStarted(result.value, { userText: input.text });
  return result;
}

/** The open session's updatedAt and last reply's text, read before a turn that reworks that reply. */
function reworkOf(store: AppStore, sessionId: string, continuing: boolean) {
  const open = store.getState().chat.open;
  const session = open?.id === sessionId ? open : null;
  return { since: session?.updatedAt ?? 0, prefix: continuing ? (session?.messages.at(-1)?.content ?? '') : null };
}

/** A turn works at the chat's end: a window back in time (a search result) returns to the newest first. */
async function toNewest(store: AppStore, host: HostConnection, sessionId: string): Promise<void> {
  const { open, window } = store.getState().chat;
  if (open?.id === sessionId && !atNewest(open, window)) await loadLater(store, host, true);
}

/** A new reply to the last message, added as a swipe of the last reply. */
export async function regenerateReply(store: AppStore, host: HostConnection, input: MethodInput<'chat.regenerate'>) {
  await toNewest(store, host, input.sessionId);
  const rework = reworkOf(store, input.sessionId, false);
  const result = await host.invoke('chat.regenerate', input);
  if (result.ok) store.getState().chatTurnStarted(result.value, { rework });
  return result;
}

/** The model goes on from the last reply; its words are added to it. */
export async function continueReply(store: AppStore, host: HostConnection, input: MethodInput<'chat.continue'>) {
  await toNewest(store, host, input.sessionId);
  const rework = reworkOf(store, input.sessionId, true);
  const result = await host.invoke('chat.continue', input);
  if (result.ok) store.getState().chatTurnStarted(result.value, { rework });
  return result;
}

/** A new reply to the chat as it is, with no new message from the person (Lumiverse's Send on an empty box). */
export async function nudgeReply(store: AppStore, host: HostConnection, input: MethodInput<'chat.reply'>) {
  await toNewest(store, host, input.sessionId);
  const result = await host.invoke('chat.reply', input);
  if (result.ok) store.getState().chatTurnStarted(result.value, {});
  return result;
}

/** Message actions: the host answers with the session as changed, shown at once. */
async function changeMessages<T extends 'chat.messages.edit' | 'chat.messages.delete' | 'chat.messages.swipe'>(store: AppStore, host: HostConnection, method: T, input: MethodInput<T>) {
  const result = await host.invoke(method, input);
  if (result.ok) store.getState().chatSessionLoaded(result.value as ChatSession);
  return result;
}

export const editMessage = (store: AppStore, host: HostConnection, input: MethodInput<'chat.messages.edit'>) => changeMessages(store, host, 'chat.messages.edit', input);
export const deleteMessage = (store: AppStore, host: HostConnection, input: MethodInput<'chat.messages.delete'>) => changeMessages(store, host, 'chat.messages.delete', input);
export const swipeMessage = (store: AppStore, host: HostConnection, input: MethodInput<'chat.messages.swipe'>) => changeMessages(store, host, 'chat.messages.swipe', input);

/** A new session from the messages up to this one, opened. */
export async function branchSession(store: AppStore, host: HostConnection, input: MethodInput<'chat.sessions.branch'>) {
  const result = await host.invoke('chat.sessions.branch', input);
  if (result.ok) {
    await loadSessions(store, host);
    await openSession(store, host, result.value.id);
  }
  return result;
}

export async function stopTurn(store: AppStore, host: HostConnection, sessionId: string) {
  store.getState().chatTurnStopping(sessionId);
  return host.invoke('chat.stop', { sessionId });
}

/** Changes the chat settings section (main connection, model, dry run); sends the whole section so a file without one still validates. */
export async function updateChatSettings(store: AppStore, host: HostConnection, patch: Partial<ChatSettings>) {
  const current = store.getState().settings?.chat;
  const chat: ChatSettings = { ...defaultChatSettings(), ...current, ...patch };
  const result = await host.invoke('settings.update', { patch: { chat } });
  if (result.ok) store.getState().settingsLoaded(result.value);
  return result;
}

/** The session summaries as a list to choose from; the store's list is left as it is. */
export function listSessionSummaries(host: HostConnection) {
  return host.invoke('chat.sessions.list', {});
}

/** One session read whole, without opening it. */
export function readSession(host: HostConnection, sessionId: string) {
  return host.invoke('chat.sessions.get', { sessionId });
}

/** The character picture kept from an imported PNG card, as a data URL (null when there is none). */
export function loadSessionPicture(host: HostConnection, sessionId: string) {
  return host.invoke('chat.sessions.avatar', { sessionId });
}

/** The session in another shape (a character card or a SillyTavern chat), as a file's name and content. */
export function exportSessionAs(host: HostConnection, sessionId: string, format: MethodInput<'chat.sessions.exportAs'>['format']) {
  return host.invoke('chat.sessions.exportAs', { sessionId, format });
}

export function fetchRun(host: HostConnection, runId: string) {
  return host.invoke('runs.get', { runId });
}

export function exportRunTrace(host: HostConnection, runId: string) {
  return host.invoke('runs.exportTrace', { runId });
}

/** Every macro a turn in the session can use, with its owner and current value (the Macros view). */
export function loadMacros(host: HostConnection, sessionId: string): Promise<Result<MethodOutput<'chat.macros'>>> {
  return host.invoke('chat.macros', { sessionId });
}

/** What importing a card, chat or session file would give (nothing is created). */
export function inspectImport(host: HostConnection, input: MethodInput<'chat.sessions.inspectData'>) {
  return host.invoke('chat.sessions.inspectData', input);
}

/** Imports a card, chat or session file as a new session and opens it. */
export async function importSessionData(store: AppStore, host: HostConnection, input: MethodInput<'chat.sessions.importData'>) {
  const result = await host.invoke('chat.sessions.importData', input);
  if (result.ok) {
    await loadSessions(store, host);
    await openSession(store, host, result.value.id);
  }
  return result;
}

export async function addLorebook(store: AppStore, host: HostConnection, sessionId: string, content: string) {
  const result = await host.invoke('chat.sessions.addLorebook', { sessionId, content });
  if (result.ok) await loadOpenSession(store, host, sessionId);
  return result;
}

/** Text found in every session, or in one. */
export function searchSessions(host: HostConnection, input: MethodInput<'chat.sessions.search'>) {
  return host.invoke('chat.sessions.search', input);
}

/** Opens a session at a message (a search result): the chat focuses it once it is drawn. */
export async function openAtMessage(store: AppStore, host: HostConnection, sessionId: string, messageId: string | null) {
  const { openId, open } = store.getState().chat;
  // A message outside the part shown (or a session not open) is read with the page around it.
  const shown = openId === sessionId && (messageId === null || open?.messages.some((m) => m.id === messageId));
  const place: ChatPlace | undefined = messageId === null ? undefined : { around: messageId };
  // The session is the open one before the message is asked for (its address names both).
  const opening = openId !== sessionId ? openSession(store, host, sessionId, place) : shown ? Promise.resolve() : loadOpenSession(store, host, sessionId, place);
  store.getState().chatMessageFocusRequested(messageId);
  await opening;
}
