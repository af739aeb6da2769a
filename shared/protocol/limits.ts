// Size, rate and timing limits of the host ⇄ worker protocol. Both sides enforce the size caps.

/** Largest tool result, in UTF-8 bytes (a string as-is, anything else as JSON). */
export const MAX_RESULT_BYTES = 1024 * 1024;
/** Largest register_tool message the worker runtime will send, in bytes of JSON. */
export const MAX_REGISTRATION_BYTES = 256 * 1024;
/** Longest log message text; longer texts are clipped. */
export const MAX_LOG_MESSAGE_CHARS = 8 * 1024;
/** The most one part of a stored file carries, either way (its base64 stays inside a request and a frame). */
export const STORAGE_PART_BYTES = 6 * 1024 * 1024;
/** Longest error message or hint text; longer texts are clipped. */
export const MAX_ERROR_TEXT_CHARS = 2 * 1024;

/** Messages a worker may send within one second before the host stops it. */
export const MAX_WORKER_MESSAGES_PER_SECOND = 2000;
/** Tool calls one worker may have in flight at once. */
export const MAX_IN_FLIGHT_PER_WORKER = 128;

/** How often the host pings a worker. */
export const HEARTBEAT_INTERVAL_MS = 1000;
/** No heartbeat for this long means the worker's event loop is blocked (VS Code: 3 s). */
export const UNRESPONSIVE_AFTER_MS = 3000;
/** Time a fresh worker gets to load its runtime and answer the first ping. */
export const STARTUP_TIMEOUT_MS = 10_000;
/**
 * A stopping worker finishes the handlers of events it was sent before `shutdown` (an extension saving its
 * state at GENERATION_ENDED as a CLI turn ends) and its SHUTDOWN handlers, for at most this long…
 */
export const SHUTDOWN_HANDLERS_MS = 2000;
/** …and the host kills it this long after `shutdown` if it has not exited by then. */
export const SHUTDOWN_GRACE_MS = 2500;

/** UTF-8 length of a string without allocating (shared/ must not use Buffer). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Request ids the protocol carries: 1–128 printable ASCII characters, no spaces. */
export const REQUEST_ID_PATTERN = /^[\x21-\x7e]{1,128}$/;
/** Codes an extension may use for its own errors: upper snake case, like the host's. */
export const WORKER_ERROR_CODE = /^[A-Z][A-Z0-9_]{0,63}$/;
/** An extension listens to at most this many distinct events (Lumiverse has about 60), each named in at most 128 characters. */
export const MAX_WANTED_EVENTS = 512;
export const MAX_EVENT_NAME_CHARS = 128;
