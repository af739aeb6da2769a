// Size limits shared by every door into the host.
import type { BudgetFailure } from './json-budget';

/** Largest contract call input accepted, in bytes of JSON. */
export const MAX_INPUT_BYTES = 1024 * 1024;

/**
 * Imports carry whole files: a PNG character card of several MB (base64 in JSON), a pack with inline avatars, an
 * exported session. Only these methods take more than MAX_INPUT_BYTES; each importer still applies its own caps.
 */
export const MAX_IMPORT_INPUT_BYTES = 28 * 1024 * 1024;
const IMPORT_METHODS: ReadonlySet<string> = new Set(['packs.import', 'chat.sessions.import', 'chat.sessions.inspectData', 'chat.sessions.importData', 'chat.sessions.addLorebook', 'extensions.inspectUpload', 'extensions.installUpload']);

/** A backup holds every session and picture: the command line restores one up to this size (the window's frames stay capped). */
export const MAX_BACKUP_INPUT_BYTES = 256 * 1024 * 1024;

/** The input cap of one method, in bytes of JSON. */
export function inputLimit(method: string): number {
  if (method === 'backup.import') return MAX_BACKUP_INPUT_BYTES;
  // A frontend's message to its backend, measured in characters at the bridge: each is at most 3 bytes of UTF-8.
  if (method === 'extensions.sendFrontend') return 3 * MAX_FRONTEND_MESSAGE_CHARS + 64 * 1024;
  return IMPORT_METHODS.has(method) ? MAX_IMPORT_INPUT_BYTES : MAX_INPUT_BYTES;
}

/** The largest message the browser-mode WebSocket carries, in bytes: the largest input with room for its envelope. */
export const MAX_WS_MESSAGE_BYTES = MAX_IMPORT_INPUT_BYTES + 4 * 1024 * 1024;

/**
 * A message from an extension's frontend (or the console) to its backend's onFrontendMessage, in characters of JSON:
 * Lumiverse's socket takes 4 MB, and published frontends send that much (Notehaven's media, Megumin Suite's portraits).
 */
export const MAX_FRONTEND_MESSAGE_CHARS = 4 * 1024 * 1024;

/** Why a message to the backend is refused (checkJsonBudget's failure), in one wording for the bridge and the host. */
export function frontendMessageRefusal(over: BudgetFailure): { code: 'INPUT_TOO_LARGE' | 'INVALID_INPUT'; message: string } {
  if (over.reason === 'too-large') return { code: 'INPUT_TOO_LARGE', message: `A message to the backend is at most ${MAX_FRONTEND_MESSAGE_CHARS} characters of JSON.` };
  return { code: 'INVALID_INPUT', message: `The message is ${over.reason === 'too-deep' ? 'nested too deep' : 'not JSON'} at ${over.path || '/'}.` };
}

/**
 * A backend's message to its frontend (spindle.sendToFrontend), in characters of JSON. Published frontends bootstrap
 * with one large message (16.8 M characters seen): past FRONTEND_PART_CHARS it crosses the worker's pipe in parts.
 */
export const MAX_TO_FRONTEND_CHARS = 48 * 1024 * 1024;
export const FRONTEND_PART_CHARS = 8 * 1024 * 1024;

/** Fetches of one extension under way at once through the host (spindle.cors and its backend's fetch()). */
export const MAX_CORS_IN_FLIGHT = 8;
