// What a saved session must be: the whole document checked on the way in, and of a change only what it changed.
import { HostFailure } from '../../../../shared/errors';
import { ChatMessageSchema, ChatSessionSchema, SESSION_LIMITS, type ChatMessage, type ChatSession } from '../../../../shared/types/chat';
import { compiledValidator, describeAjvError, lazyValidator } from '../../contract/validators';

const validateSession = lazyValidator<ChatSession>(ChatSessionSchema);
const validateMessage = compiledValidator<ChatMessage>(ChatMessageSchema);

function invalid(message: string, field: string): never {
  throw new HostFailure({ code: 'INVALID_INPUT', message: `The session is not valid: ${message}`, path: field });
}

/** The shown swipe must be one of them (a hand-edited file could say otherwise). */
function checkSwipe(m: ChatMessage, index: number): void {
  if (m.swipes !== undefined && (m.swipeId ?? 0) >= m.swipes.length) invalid('a message shows a swipe it does not have.', `/messages/${index}/swipeId`);
}

/** Checks an unknown value as a session document; the error names the offending field. */
export function checkSession(value: unknown): ChatSession {
  if (validateSession(value)) {
    value.messages.forEach(checkSwipe);
    return value;
  }
  const { message, path: field } = describeAjvError(validateSession.errors?.[0], 'invalid');
  return invalid(message, field);
}

/** Checks a changed session: its fields, and of its messages only those at `changed` (the rest were checked when saved). */
export function checkChange(session: ChatSession, changed: number[]): void {
  checkSession({ ...session, messages: [] });
  if (session.messages.length > SESSION_LIMITS.messages) invalid(`it has more than ${SESSION_LIMITS.messages} messages.`, '/messages');
  for (const i of changed) checkMessage(session.messages[i], i);
}

function checkMessage(m: unknown, i: number): asserts m is ChatMessage {
  if (!validateMessage(m)) {
    const { message, path: field } = describeAjvError(validateMessage.errors?.[0], 'invalid');
    invalid(message, `/messages/${i}${field}`);
  }
  checkSwipe(m, i);
}

/** Messages checked per step of checkSessionInSteps (about a millisecond of checking). */
const CHECK_STEP = 500;

/** checkSession for a long chat brought in: its messages a step at a time, awaiting `pause` between steps. */
export async function checkSessionInSteps(value: unknown, pause: () => Promise<unknown>): Promise<ChatSession> {
  const messages = (value as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages) || messages.length <= CHECK_STEP) return checkSession(value);
  checkChange(value as ChatSession, []);
  for (let i = 0; i < messages.length; i++) {
    checkMessage(messages[i], i);
    if (i % CHECK_STEP === CHECK_STEP - 1) await pause();
  }
  return value as ChatSession;
}

/** The error for a session id nobody has (stable code, the field named). */
export function noSession(id: string): never {
  throw new HostFailure({ code: 'NOT_FOUND', message: `There is no session ${id}.`, path: '/sessionId' });
}

export function badId(): never {
  throw new HostFailure({ code: 'INVALID_INPUT', message: 'Invalid session id.', path: '/sessionId' });
}
